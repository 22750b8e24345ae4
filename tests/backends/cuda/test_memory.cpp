// Device memory of the CUDA backend: discovery, transfers and casts for every dtype and for
// strided views, transfers larger than a staging chunk, pinned memory, the caching allocator,
// streams and events, and the errors (out of memory, bad device, mixed devices).
#include <chrono>
#include <complex>
#include <limits>

#include "helpers.hpp"
#include "staging_sizes.hpp"

namespace {

using loom::Array;
using loom::CopyKind;
using loom::DType;
using loom::Shape;
using loom_cuda_test::device_cast;
using loom_cuda_test::device_empty;
using loom_cuda_test::random_array;
using loom_cuda_test::runtime;
using loom_cuda_test::same_bits;
using loom_cuda_test::to_device;
using loom_cuda_test::to_host;

constexpr std::size_t kChunk = loom::backend::cuda_backend::kChunkBytes;

std::vector<DType> all_dtypes() {
  std::vector<DType> v;
  for (int i = 0; i < loom::kNumDTypes; ++i) v.push_back(static_cast<DType>(i));
  return v;
}

// Random bytes: every bit pattern must survive a round trip (NaN payloads too).
Array random_bytes(const Shape& shape, DType dt, unsigned seed) {
  Array a = loom::empty(shape, dt);
  std::mt19937 gen(seed);
  auto* p = reinterpret_cast<unsigned char*>(a.data());
  for (std::size_t i = 0; i < static_cast<std::size_t>(a.size()) * a.itemsize(); ++i) {
    p[i] = static_cast<unsigned char>(gen());
  }
  if (dt == DType::bool_) {
    for (std::int64_t i = 0; i < a.size(); ++i) p[i] &= 1;
  }
  return a;
}

TEST(Backend, DescribesEveryDevice) {
  LOOM_CUDA_OR_SKIP(b);
  ASSERT_GE(b->device_count(), 1);
  const std::string d = b->describe();
  EXPECT_NE(d.find("cuda:0 "), std::string::npos) << d;
  EXPECT_NE(d.find("compute capability"), std::string::npos) << d;
  EXPECT_NE(d.find("SMs x"), std::string::npos) << d;
  std::cout << d << "\n";
}

TEST(Transfers, RoundTripEveryDtype) {
  LOOM_CUDA_OR_SKIP(b);
  unsigned seed = 1;
  for (DType dt : all_dtypes()) {
    for (std::int64_t n : {std::int64_t{1}, std::int64_t{7}, std::int64_t{100'003}}) {
      const Array h = random_bytes({n}, dt, seed++);
      EXPECT_TRUE(same_bits(to_host(b, to_device(b, h)), h)) << loom::name(dt) << " n=" << n;
    }
  }
}

// Strided device views, gathered (cast with the same dtype) and scattered.
TEST(Transfers, StridedViewsEveryDtype) {
  LOOM_CUDA_OR_SKIP(b);
  unsigned seed = 100;
  for (DType dt : all_dtypes()) {
    const Array h = random_bytes({300, 41}, dt, seed++);
    const Array d = to_device(b, h);
    const Array views_h[] = {h.slice(0, 1, 300, 3), h.transpose(), h.slice(1, -1, -42, -2),
                             h.slice(0, 5, 6).slice(1, 3, 40)};
    const Array views_d[] = {d.slice(0, 1, 300, 3), d.transpose(), d.slice(1, -1, -42, -2),
                             d.slice(0, 5, 6).slice(1, 3, 40)};
    for (int v = 0; v < 4; ++v) {
      EXPECT_TRUE(same_bits(to_host(b, views_d[v]), views_h[v].copy()))
          << loom::name(dt) << " view " << v;
    }
    // Scatter into every other column of a device array: the other columns stay as they were.
    const Array base_h = random_bytes({300, 82}, dt, seed++);
    const Array base_d = to_device(b, base_h);
    device_cast(b, d, base_d.slice(1, 0, 82, 2));
    Array want = base_h.copy();
    loom::copy_cast(h, want.slice(1, 0, 82, 2));
    EXPECT_TRUE(same_bits(to_host(b, base_d), want)) << loom::name(dt) << " scatter";
  }
}

// Device casts give the host's bits for every pair of dtypes, on values that probe the rules:
// NaN, infinities, signed zeros, rounding to float16, out-of-range float -> int, wrapping ints.
TEST(Transfers, CastEveryPairMatchesHost) {
  LOOM_CUDA_OR_SKIP(b);
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> reals = {0.0,   -0.0,         1.0,     -1.0,      0.5,    -2.5,  2.5,
                                     3.7,   -3.7,         127.9,   128.0,     255.5,  256.0, -129.0,
                                     300.7, 65504.0,      65520.0, 1e-8,      -6e-8,  1e10,  -1e10,
                                     1e20,  -1e20,        9.3e18,  -9.3e18,   1.9e19, 1e300, inf,
                                     -inf,  std::nan(""), 0.1,     1.0000001, 2049.0, 33.3};
  const std::vector<std::int64_t> ints = {0,
                                          1,
                                          -1,
                                          127,
                                          128,
                                          -128,
                                          255,
                                          256,
                                          65535,
                                          65536,
                                          -32769,
                                          (1LL << 53) + 1,
                                          std::numeric_limits<std::int64_t>::max(),
                                          std::numeric_limits<std::int64_t>::min(),
                                          2147483648LL};
  std::vector<std::complex<double>> cplx;
  for (std::size_t i = 0; i < reals.size(); ++i)
    cplx.emplace_back(reals[i], reals[reals.size() - 1 - i]);
  const Array sources[] = {
      loom::from_vector(reals), loom::from_vector(ints),
      loom::from_vector(std::vector<std::uint64_t>{
          0, 1, 255, 256, std::numeric_limits<std::uint64_t>::max(), (1ULL << 63) + 12345}),
      [&] {
        Array a = loom::empty({static_cast<std::int64_t>(cplx.size())}, DType::complex128);
        std::memcpy(a.data(), cplx.data(), cplx.size() * 16);
        return a;
      }()};
  for (DType from : all_dtypes()) {
    for (const Array& s : sources) {
      const Array src_h = s.astype(from);
      const Array src_d = to_device(b, src_h);
      for (DType to : all_dtypes()) {
        Array dst_d = device_empty(b, src_h.shape(), to);
        device_cast(b, src_d, dst_d);
        EXPECT_TRUE(same_bits(to_host(b, dst_d), src_h.astype(to)))
            << loom::name(from) << " -> " << loom::name(to) << " from " << s.str();
      }
    }
  }
}

TEST(Transfers, LargerThanAStagingChunkAndPinned) {
  LOOM_CUDA_OR_SKIP(b);
  for (std::size_t bytes : {kChunk - 1, kChunk, 3 * kChunk + 17}) {
    const Array h = random_bytes({static_cast<std::int64_t>(bytes)}, DType::uint8, 7);
    EXPECT_TRUE(same_bits(to_host(b, to_device(b, h)), h)) << bytes;
  }
  // Pinned host memory: copied directly (no staging).
  const std::size_t n = 2 * kChunk + 5;
  auto pin = b->allocate_pinned(n);
  auto pin2 = b->allocate_pinned(n);
  const Array h = random_bytes({static_cast<std::int64_t>(n)}, DType::uint8, 8);
  std::memcpy(pin->data(), h.data(), n);
  auto dev = b->allocate(n, 0, nullptr);
  b->copy(dev->data(), pin->data(), n, CopyKind::host_to_device, 0, nullptr);
  b->copy(pin2->data(), dev->data(), n, CopyKind::device_to_host, 0, nullptr);
  EXPECT_EQ(std::memcmp(pin2->data(), h.data(), n), 0);
}

// Work on two streams: each stream's results are its own, and an event orders one after the
// other.
TEST(Streams, TwoStreamsGiveIndependentResults) {
  LOOM_CUDA_OR_SKIP(b);
  void* s1 = b->create_stream(0);
  void* s2 = b->create_stream(0);
  const std::int64_t n = 1 << 22;
  const Array x1 = random_array({n}, DType::float32, 1), y1 = random_array({n}, DType::float32, 2);
  const Array x2 = random_array({n}, DType::float32, 3), y2 = random_array({n}, DType::float32, 4);
  const Array dx1 = to_device(b, x1), dy1 = to_device(b, y1), dx2 = to_device(b, x2),
              dy2 = to_device(b, y2);
  Array o1 = device_empty(b, {n}, DType::float32), o2 = device_empty(b, {n}, DType::float32);
  b->synchronize(0, nullptr);
  const auto& l = loom_cuda_test::cuda_loop("sinexp", DType::float32);
  for (int rep = 0; rep < 5; ++rep) {
    loom_cuda_test::run_elementwise(b, l, {dx1, dy1, o1}, {n}, s1);
    loom_cuda_test::run_elementwise(b, l, {dx2, dy2, o2}, {n}, s2);
  }
  // Stream 2 copies o1 after stream 1 is done with it, through an event.
  void* ev = b->create_event(0);
  void* t0 = b->create_event(0);
  b->record_event(t0, s1);
  Array o1b = device_empty(b, {n}, DType::float32);
  b->record_event(ev, s1);
  b->wait_event(s2, ev);
  b->copy(o1b.data(), o1.data(), n * 4, CopyKind::device_to_device, 0, s2);
  b->synchronize(0, s1);
  b->synchronize(0, s2);
  b->synchronize_event(ev);
  EXPECT_GE(b->elapsed_ms(t0, ev), 0.0f);
  auto f = runtime().ufunc("sinexp");
  const Array w1 = f(x1, y1, {.target = "cpu"}), w2 = f(x2, y2, {.target = "cpu"});
  EXPECT_TRUE(loom_cuda_test::close(to_host(b, o1), w1, 1e-6));
  EXPECT_TRUE(loom_cuda_test::close(to_host(b, o2), w2, 1e-6));
  EXPECT_TRUE(same_bits(to_host(b, o1b), to_host(b, o1)));
  b->destroy_event(0, ev);
  b->destroy_event(0, t0);
  b->destroy_stream(0, s1);
  b->destroy_stream(0, s2);
}

// Freed blocks stay in the pool: the same size comes back at the same address, and allocating
// is far cheaper than cudaMalloc's hundreds of microseconds.
TEST(Allocator, ReusesFreedMemory) {
  LOOM_CUDA_OR_SKIP(b);
  const std::size_t bytes = std::size_t{64} << 20;
  void* first = nullptr;
  {
    auto buf = b->allocate(bytes, 0, nullptr);
    first = buf->data();
  }
  {
    auto buf = b->allocate(bytes, 0, nullptr);
    EXPECT_EQ(buf->data(), first);
  }
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 2000; ++i) {
    auto buf = b->allocate(bytes, 0, nullptr);
    ASSERT_NE(buf->data(), nullptr);
  }
  const double us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() /
      2000;
  std::cout << "allocate+free of 64 MiB: " << us << " us\n";
  EXPECT_LT(us, 50.0);
  b->synchronize(0, nullptr);
}

TEST(Errors, OutOfMemorySaysHowMuch) {
  LOOM_CUDA_OR_SKIP(b);
  try {
    b->allocate(std::size_t{1} << 50, 0, nullptr);
    FAIL() << "allocating 1 PiB succeeded";
  } catch (const loom::DeviceError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("out of device memory"), std::string::npos) << m;
    EXPECT_NE(m.find("1125899906842624 bytes"), std::string::npos) << m;
    EXPECT_NE(m.find("free of"), std::string::npos) << m;
  }
  // Nothing sticky: the device still works.
  const Array h = random_array({1000}, DType::float64, 3);
  EXPECT_TRUE(same_bits(to_host(b, to_device(b, h)), h));
}

TEST(Errors, BadDeviceIndex) {
  LOOM_CUDA_OR_SKIP(b);
  EXPECT_THROW(b->allocate(16, b->device_count(), nullptr), loom::DeviceError);
  EXPECT_THROW(b->allocate(16, -1, nullptr), loom::DeviceError);
  EXPECT_THROW(runtime().resolve_target("cuda:" + std::to_string(b->device_count())),
               loom::TargetError);
}

TEST(Errors, DeviceArrayOnTheWrongTarget) {
  LOOM_CUDA_OR_SKIP(b);
  const Array d = to_device(b, random_array({10}, DType::float32, 1));
  try {
    runtime().ufunc("add")(d, d, {.target = "cpu"});
    FAIL() << "a device array ran on cpu";
  } catch (const loom::DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("cuda:0"), std::string::npos) << e.what();
  }
}

TEST(Errors, ArraysOfTwoDevices) {
  LOOM_CUDA_OR_SKIP(b);
  if (b->device_count() < 2) GTEST_SKIP() << "needs two GPUs, this machine has one";
  const Array h = random_array({10}, DType::float32, 1);
  const Array d0 = to_device(b, h, 0), d1 = to_device(b, h, 1);
  try {
    runtime().ufunc("add")(d0, d1, {.target = "cuda:0"});
    FAIL() << "arrays of two devices ran";
  } catch (const loom::DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("cuda:1"), std::string::npos) << e.what();
  }
}

// On a machine with two GPUs, cuda:1 runs ufuncs, reductions and kernels on its own memory and
// gives the host's answers.
TEST(MultiDevice, CallsReductionsAndKernelsRunOnTheSecondDevice) {
  LOOM_CUDA_OR_SKIP(b);
  if (b->device_count() < 2) GTEST_SKIP() << "needs two GPUs, this machine has one";
  auto& rt = runtime();
  const Array x = random_array({100'000}, DType::float32, 3, -1, 1);
  const Array y = random_array({100'000}, DType::float32, 4, -1, 1);
  const Array dx = rt.to_device(x, "cuda:1"), dy = rt.to_device(y, "cuda:1");
  EXPECT_EQ(dx.device().index, 1);
  const Array got = rt.ufunc("add")(dx, dy, {.target = "cuda:1"});
  EXPECT_EQ(got.device().index, 1);
  EXPECT_TRUE(same_bits(rt.to_host(got), rt.ufunc("add")(x, y, {.target = "cpu"})));
  const Array w = random_array({1 << 20}, DType::float32, 5, -1, 2, true);
  EXPECT_TRUE(
      same_bits(rt.to_host(rt.reduce("sum")(rt.to_device(w, "cuda:1"), {.target = "cuda:1"})),
                rt.reduce("sum")(w, {.target = "cpu"})));
  const Array hc = loom::zeros({10}, DType::int32);
  rt.kernel("histogram_shared")
      .launch({.blocks = 64, .threads = 128, .shared_bytes = 40, .target = "cpu"}, x, -1.0f, 1.0f,
              hc);
  const Array hd = rt.zeros({10}, DType::int32, "cuda:1");
  rt.kernel("histogram_shared")
      .launch({.blocks = 64, .threads = 128, .shared_bytes = 40, .target = "cuda:1"}, dx, -1.0f,
              1.0f, hd);
  EXPECT_TRUE(same_bits(rt.to_host(hd), hc));
  // An array of device 0 in a launch on cuda:1 is an error naming both.
  const Array h0 = rt.zeros({10}, DType::int32, "cuda:0");
  try {
    rt.kernel("histogram")
        .launch({.blocks = 1, .threads = 32, .target = "cuda:1"}, dx, -1.0f, 1.0f, h0);
    FAIL() << "a device-0 array ran on cuda:1";
  } catch (const loom::DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("cuda:0"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("cuda:1"), std::string::npos) << e.what();
  }
}

}  // namespace

// A host array that crosses to the GPU again is page-locked in place (docs/cuda.md, "Host arrays
// that cross again"): not after its first crossing, after its second; its results do not change;
// arrays under the size limit and fresh results stay pageable.
TEST(Transfers, HostArraysThatCrossAgainArePinnedInPlace) {
  LOOM_CUDA_OR_SKIP(b);
  loom::Runtime& rt = runtime();
  const std::int64_t n = std::int64_t{16} << 20;  // 64 MiB of float32
  const Array x = loom::linspace(0.0, 1.0, n).astype(DType::float32);
  Array out = loom::empty({n}, DType::float32);
  const Array small = loom::full({1000}, 2.0, DType::float32);
  const loom::CallOptions o{.target = "cuda", .out = {out}};
  const auto want = rt.ufunc("negative")(x, {.target = "cpu"}).to_vector<float>();
  rt.ufunc("negative")(x, o);
  EXPECT_FALSE(x.buffer()->pinned_in_place()) << "pinned on its first crossing";
  EXPECT_FALSE(out.buffer()->pinned_in_place()) << "pinned on its first crossing";
  EXPECT_EQ(out.to_vector<float>(), want);
  out.fill(0.0);
  rt.ufunc("negative")(x, o);  // the second crossing of each
  EXPECT_TRUE(x.buffer()->pinned_in_place());
  EXPECT_TRUE(out.buffer()->pinned_in_place());
  EXPECT_EQ(out.to_vector<float>(), want);
  out.fill(0.0);
  rt.ufunc("negative")(x, o);  // through the locked memory: the same values
  EXPECT_EQ(out.to_vector<float>(), want);
  const Array fresh = rt.ufunc("negative")(x, {.target = "cuda"});
  EXPECT_FALSE(fresh.buffer()->pinned_in_place());
  for (int i = 0; i < 3; ++i) (void)rt.to_device(small, "cuda");
  EXPECT_FALSE(small.buffer()->pinned_in_place()) << "1000 elements are below the limit";
  // to_device and copy_to count crossings too; the copies stay exact.
  const Array y = loom::linspace(0.0, 1.0, n).astype(DType::float32);
  const Array d = rt.to_device(y, "cuda");
  Array back = loom::empty({n}, DType::float32);
  rt.copy_to(d, back);
  rt.copy_to(rt.to_device(y, "cuda"), back);
  EXPECT_TRUE(y.buffer()->pinned_in_place());
  EXPECT_TRUE(back.buffer()->pinned_in_place());
  EXPECT_EQ(back.to_vector<float>(), y.to_vector<float>());
}
