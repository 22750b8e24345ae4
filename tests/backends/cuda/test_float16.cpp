// The float16 (NumPy's `e`) methods of plugins/math on target cuda, against target cpu, through
// the public API with host and device arrays. float16 is the only 2-byte type with reduce,
// accumulate and at loops on cuda: the tile scan reads its published totals 2 bytes at a time, the
// reductions and scans load it 16 bytes at a time where the layout allows (8 elements), and at()
// on a 2-byte type always runs ordered (sorted by index, no atomics): cpu's bits.
// - ops folded in order (subtract, divide), max/min, at: the same bits as cpu;
// - add/multiply of small integers are exact in float16 whatever the grouping, so every path of
//   the reductions and the tile scan must give cpu's bits (a wrong element, index or carry shows).
// Every test skips with the reason where there is no usable GPU.
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "helpers.hpp"

namespace loom_cuda_test {
namespace {

#define REQUIRE_CUDA() \
  std::string why;     \
  if (!cuda_backend(&why)) GTEST_SKIP() << "cuda target unavailable: " << why

using loom::ReduceOptions;
constexpr DType kHalf = DType::float16;

loom::Ufunc uf(const std::string& name) { return runtime().ufunc(name); }

enum class Mem { host, device };
const char* name(Mem m) { return m == Mem::host ? "host arrays" : "device arrays"; }
Array put(const Array& a, Mem m) { return m == Mem::host ? a : runtime().to_device(a, "cuda"); }
Array back(const Array& a) { return a.device().is_host() ? a : runtime().to_host(a); }

// Integers in [-2, 2] as float16.
Array small_ints(const Shape& shape, unsigned seed) {
  return random_array(shape, DType::float64, seed, -2.0, 3.0, true).astype(kHalf);
}

// Integers in [-2, 2], sparse along `axis` when it is long (about 1000 nonzero per line): every
// sum of any subset of a line is then an integer of magnitude at most the line's sum of |x|,
// below 2048 (`exact_sums` checks it), which float16 (11 significand bits) holds exactly, so a
// fold or scan in any grouping gives the same bits.
Array sparse_ints(const Shape& shape, int axis, unsigned seed) {
  const double p = std::min(1.0, 1000.0 / static_cast<double>(shape[axis]));
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> keep(0.0, 1.0);
  std::uniform_int_distribution<int> mag(1, 2), sign(0, 1);
  std::vector<double> v(static_cast<std::size_t>(loom::shape_size(shape)));
  for (double& e : v) e = keep(gen) < p ? (sign(gen) ? -1.0 : 1.0) * mag(gen) : 0.0;
  return loom::from_vector(v).reshape(shape).astype(kHalf);
}

bool exact_sums(const Array& x, int axis) {
  const Array a = uf("absolute")(x.astype(DType::float64));
  const Array s = uf("add").reduce(a, {.target = "cpu", .axis = axis});
  for (double v : s.to_vector<double>()) {
    if (v >= 2048) return false;
  }
  return true;
}

TEST(CudaFloat16, OrderedReduceAndAccumulateEqualCpuBitForBit) {
  REQUIRE_CUDA();
  const Array x = random_array({37, 129, 5}, DType::float64, 61, -1.0, 1.0).astype(kHalf);
  const Array d = random_array({37, 129, 5}, DType::float64, 62, 0.9, 1.1).astype(kHalf);
  for (Mem mem : {Mem::host, Mem::device}) {
    for (const char* op : {"subtract", "divide"}) {
      const Array& v = std::string(op) == "divide" ? d : x;
      for (int axis : {0, 1, 2}) {
        const Array want = uf(op).reduce(v, {.target = "cpu", .axis = axis});
        const Array got = back(uf(op).reduce(put(v, mem), {.target = "cuda", .axis = axis}));
        EXPECT_TRUE(same_bits(got, want)) << op << ".reduce axis " << axis << ", " << name(mem);
        const Array wa = uf(op).accumulate(v, {.target = "cpu", .axis = axis});
        const Array ga = back(uf(op).accumulate(put(v, mem), {.target = "cuda", .axis = axis}));
        EXPECT_TRUE(same_bits(ga, wa)) << op << ".accumulate axis " << axis << ", " << name(mem);
      }
    }
    // One long line streamed through shared memory (ordered_lines), and a reversed strided view.
    const Array line = random_array({300'001}, DType::float64, 63, -1.0, 1.0).astype(kHalf);
    const Array dline = put(line, mem);
    for (auto [lo, hi, step] : {std::array<std::int64_t, 3>{0, 300'001, 1},
                                std::array<std::int64_t, 3>{300'000, 0, -3}}) {
      const Array want = uf("subtract").reduce(line.slice(0, lo, hi, step), {.target = "cpu"});
      const Array got =
          back(uf("subtract").reduce(dline.slice(0, lo, hi, step), {.target = "cuda"}));
      EXPECT_TRUE(same_bits(got, want)) << "slice " << lo << ":" << hi << ":" << step;
    }
  }
}

TEST(CudaFloat16, ExactSumsAndScansEqualCpuOnEveryPath) {
  REQUIRE_CUDA();
  struct Case {
    Shape shape;
    int axis;
  };
  const Case cases[] = {
      {{3'000'017}, 0},   // full reduction of one contiguous run; tile scan over super-groups
      {{3, 700'001}, 1},  // a few long lines
      {{300, 5000}, 1},   // many lines
      {{5000, 300}, 0},   // lines not innermost
      {{20000, 40}, 1},   // short lines
      {{40, 9000}, 0},    // few lines not innermost
      {{7, 11, 513}, 2},  //
      {{1}, 0},           //
  };
  for (Mem mem : {Mem::host, Mem::device}) {
    for (const Case& c : cases) {
      const Array x = sparse_ints(c.shape, c.axis, 64);
      ASSERT_TRUE(exact_sums(x, c.axis)) << "test data: sums leave float16's exact integers";
      const Array dense = random_array(c.shape, DType::float64, 70, -1.0, 1.0).astype(kHalf);
      for (const char* op : {"maximum", "minimum"}) {  // they pick an element: exact
        const Array want = uf(op).reduce(dense, {.target = "cpu", .axis = c.axis});
        const Array got = back(uf(op).reduce(put(dense, mem), {.target = "cuda", .axis = c.axis}));
        EXPECT_TRUE(same_bits(got, want))
            << op << ".reduce " << x.str() << " axis " << c.axis << ", " << name(mem);
      }
      for (const char* op : {"add", "maximum"}) {
        const Array want = uf(op).reduce(x, {.target = "cpu", .axis = c.axis});
        const Array got = back(uf(op).reduce(put(x, mem), {.target = "cuda", .axis = c.axis}));
        EXPECT_TRUE(same_bits(got, want))
            << op << ".reduce " << x.str() << " axis " << c.axis << ", " << name(mem);
        const Array wa = uf(op).accumulate(x, {.target = "cpu", .axis = c.axis});
        const Array ga = back(uf(op).accumulate(put(x, mem), {.target = "cuda", .axis = c.axis}));
        EXPECT_TRUE(same_bits(ga, wa))
            << op << ".accumulate " << x.str() << " axis " << c.axis << ", " << name(mem);
      }
    }
    // Misaligned (one element in) and reversed strided views of the same data.
    const Array big = sparse_ints({100'003}, 0, 65);
    const Array dbig = put(big, mem);
    for (auto [lo, hi, step] : {std::array<std::int64_t, 3>{1, 100'003, 1},
                                std::array<std::int64_t, 3>{100'002, 0, -3}}) {
      const Array want = uf("add").reduce(big.slice(0, lo, hi, step), {.target = "cpu"});
      const Array got = back(uf("add").reduce(dbig.slice(0, lo, hi, step), {.target = "cuda"}));
      EXPECT_TRUE(same_bits(got, want)) << "slice " << lo << ":" << hi << ":" << step;
    }
  }
}

TEST(CudaFloat16, AtAndReduceatEqualCpuBitForBit) {
  REQUIRE_CUDA();
  std::mt19937_64 gen(66);
  std::uniform_int_distribution<std::int64_t> u(-1001, 1000);
  std::vector<std::int64_t> iv(200'000);
  for (auto& i : iv) i = u(gen);
  const Array idx = loom::from_vector(iv);
  const Array a0 = random_array({1001}, DType::float64, 67, -1.0, 1.0).astype(kHalf);
  const Array b = random_array({200'000}, DType::float64, 68, -0.01, 0.01).astype(kHalf);
  for (Mem mem : {Mem::host, Mem::device}) {
    // A 2-byte type: every op's at() runs ordered, so float results are cpu's too.
    const Array factors = random_array({200'000}, DType::float64, 71, 0.999, 1.001).astype(kHalf);
    for (const char* op : {"add", "subtract", "multiply", "maximum", "minimum"}) {
      const Array& v = std::string(op) == "multiply" ? factors : b;
      Array cpu = a0.copy();
      uf(op).at(cpu, idx, v, {.target = "cpu"});
      Array dev = put(a0.copy(), mem);
      uf(op).at(dev, put(idx, mem), put(v, mem), {.target = "cuda"});
      EXPECT_TRUE(same_bits(back(dev), cpu)) << op << ".at, " << name(mem);
    }
    const Array x = small_ints({300, 6}, 69);
    const Array ri = loom::array<std::int64_t>({0, 5, 5, 3, 100, 101, 250});
    for (const char* op : {"subtract", "add", "maximum"}) {
      const Array want = uf(op).reduceat(x, ri, {.target = "cpu", .axis = 0});
      const Array got =
          back(uf(op).reduceat(put(x, mem), put(ri, mem), {.target = "cuda", .axis = 0}));
      EXPECT_TRUE(same_bits(got, want)) << op << ".reduceat, " << name(mem);
    }
  }
}

// sum, prod and add/multiply.reduce of float16 accumulate in float and round once (as NumPy's
// float16 reduce loops): NumPy's 1000.0 for 10000 x 0.1, where rounding every step sticks at 256.
// cuda folds in float on every path, also along an outer axis (where the host, as NumPy, adds
// whole rows in float16).
TEST(CudaFloat16, SumsAccumulateInFloat) {
  REQUIRE_CUDA();
  const double h = static_cast<double>(static_cast<float>(loom::float16_t(0.1f)));
  const std::uint16_t want = loom::float16_t::from_double(10000 * h).bits;
  const std::uint16_t want_rows = loom::float16_t::from_double(4000 * h).bits;
  auto bits = [](const Array& a, std::int64_t i) {
    std::uint16_t b;
    std::memcpy(&b, a.copy().data() + 2 * i, 2);
    return b;
  };
  for (Mem mem : {Mem::host, Mem::device}) {
    const Array x = put(loom::full({10000}, 0.1, kHalf), mem);
    EXPECT_EQ(bits(back(runtime().reduce("sum")(x, {.target = "cuda"})), 0), want) << name(mem);
    EXPECT_EQ(bits(back(uf("add").reduce(x, {.target = "cuda"})), 0), want) << name(mem);
    const Array rows = put(loom::full({3, 4000}, 0.1, kHalf), mem);
    const Array cols = put(loom::full({4000, 40}, 0.1, kHalf), mem);
    const Array r = back(runtime().reduce("sum")(rows, {.target = "cuda", .axis = 1}));
    const Array c = back(runtime().reduce("sum")(cols, {.target = "cuda", .axis = 0}));
    for (std::int64_t i = 0; i < 3; ++i) EXPECT_EQ(bits(r, i), want_rows) << "rows, " << name(mem);
    for (std::int64_t i = 0; i < 40; ++i) {
      EXPECT_EQ(bits(c, i), want_rows) << "columns, " << name(mem);
    }
    // A long contiguous run (red_full's segments and their combine): within one float16 ulp of
    // the exact sum rounded once.
    const Array big = random_array({3'000'017}, DType::float64, 72, 0.0, 0.02).astype(kHalf);
    const double exact =
        uf("add").reduce(big.astype(DType::float64), {.target = "cpu"}).item<double>();
    const Array got = back(runtime().reduce("sum")(put(big, mem), {.target = "cuda"}));
    const double g = got.astype(DType::float64).item<double>();
    const double ulp = std::ldexp(1.0, static_cast<int>(std::floor(std::log2(exact))) - 10);
    EXPECT_LE(std::abs(g - exact), ulp) << g << " vs exact " << exact << ", " << name(mem);
    // prod: in float, rounded once.
    const Array p = put(loom::full({100}, 1.01, kHalf), mem);
    const double f = static_cast<double>(static_cast<float>(loom::float16_t(1.01f)));
    EXPECT_EQ(bits(back(runtime().reduce("prod")(p, {.target = "cuda"})), 0),
              loom::float16_t::from_double(std::pow(f, 100)).bits)
        << name(mem);
  }
}

}  // namespace
}  // namespace loom_cuda_test
