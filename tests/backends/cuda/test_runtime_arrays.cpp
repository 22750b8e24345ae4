// Device arrays through the public Runtime API: transfers, copies, streams, device-mode and
// host-mode calls, and the errors of mixing memories. Skips with the reason without a GPU.
#include "helpers.hpp"

namespace loom_cuda_test {
namespace {

#define REQUIRE_CUDA() \
  std::string why;     \
  if (!cuda_backend(&why)) GTEST_SKIP() << "cuda: " << why

constexpr DType kAll[] = {DType::bool_,     DType::int8,      DType::uint8,   DType::int16,
                          DType::uint16,    DType::int32,     DType::uint32,  DType::int64,
                          DType::uint64,    DType::float16,   DType::float32, DType::float64,
                          DType::complex64, DType::complex128};

// Bytes of a host array in C order (for exact comparisons of any dtype).
std::vector<unsigned char> bytes_of(const Array& a) {
  const Array c = a.is_c_contiguous() ? a : a.copy();
  const auto* p = reinterpret_cast<const unsigned char*>(c.data());
  return {p, p + c.size() * static_cast<std::int64_t>(c.itemsize())};
}

TEST(RuntimeArrays, RoundTripEveryDtype) {
  REQUIRE_CUDA();
  auto& rt = runtime();
  for (DType t : kAll) {
    const Array h = loom::arange(0, 1000).astype(t);
    const Array d = rt.to_device(h, "cuda");
    EXPECT_EQ(d.device().kind, loom::DeviceKind::cuda) << loom::name(t);
    EXPECT_EQ(bytes_of(rt.to_host(d)), bytes_of(h)) << loom::name(t);
  }
}

TEST(RuntimeArrays, StridedViewsBothWays) {
  REQUIRE_CUDA();
  auto& rt = runtime();
  const Array h = loom::arange(0, 600).reshape({20, 30});
  const Array view = h.slice(0, 1, 20, 3).slice(1, 29, 0, -2).transpose();  // host strided
  EXPECT_EQ(bytes_of(rt.to_host(rt.to_device(view))), bytes_of(view));
  const Array d = rt.to_device(h);
  const Array dview = d.slice(0, 1, 20, 3).slice(1, 29, 0, -2).transpose();  // device strided
  EXPECT_EQ(bytes_of(rt.to_host(dview)), bytes_of(view));
}

TEST(RuntimeArrays, CopyToCastsBetweenMemories) {
  REQUIRE_CUDA();
  auto& rt = runtime();
  const Array h = loom::linspace(-3, 3, 101);
  Array d32 = rt.empty({101}, DType::float32, "cuda");
  rt.copy_to(h, d32);
  Array back = loom::zeros({101}, DType::float64);
  rt.copy_to(d32, back);
  EXPECT_EQ(bytes_of(back), bytes_of(h.astype(DType::float32).astype(DType::float64)));
  const Array z = rt.to_host(rt.zeros({7}, DType::int32, "cuda"));
  EXPECT_EQ(z.to_vector<int>(), std::vector<int>(7, 0));
}

TEST(RuntimeArrays, DeviceModeCallKeepsResultsOnTheDevice) {
  REQUIRE_CUDA();
  auto& rt = runtime();
  const Array x = loom::linspace(0, 1, 1 << 16, true, DType::float32);
  const Array dx = rt.to_device(x);
  const Array dz = rt.ufunc("add")(dx, 2.0, {.target = "cuda"});  // weak scalar copied in
  EXPECT_FALSE(dz.device().is_host());
  EXPECT_EQ(dz.dtype(), DType::float32);
  const Array want = rt.ufunc("add")(x, 2.0);
  EXPECT_EQ(bytes_of(rt.to_host(dz)), bytes_of(want));
  const Array s = rt.reduce("sum")(dx, {.target = "cuda"});
  EXPECT_FALSE(s.device().is_host());
  EXPECT_NEAR(rt.to_host(s).item<double>(), rt.reduce("sum")(x).item<double>(), 1e-2);
}

TEST(RuntimeArrays, TwoStreamsGiveIndependentResults) {
  REQUIRE_CUDA();
  auto& rt = runtime();
  const Array x = loom::linspace(0, 1, 1 << 20, true, DType::float64);
  const loom::Stream s1 = rt.stream(), s2 = rt.stream();
  const Array d1 = rt.to_device(x, "cuda", s1), d2 = rt.to_device(x, "cuda", s2);
  const Array r1 = rt.ufunc("multiply")(d1, d1, {.target = "cuda", .stream = s1});
  const Array r2 = rt.ufunc("add")(d2, d2, {.target = "cuda", .stream = s2});
  const loom::Event e = s1.record();
  s2.wait(e);
  s1.synchronize();
  s2.synchronize();
  EXPECT_EQ(bytes_of(rt.to_host(r1, s1)), bytes_of(rt.ufunc("multiply")(x, x)));
  EXPECT_EQ(bytes_of(rt.to_host(r2, s2)), bytes_of(rt.ufunc("add")(x, x)));
}

TEST(RuntimeArrays, HostModeCallReturnsHostResultsIntoStridedOut) {
  REQUIRE_CUDA();
  auto& rt = runtime();
  const Array x = loom::linspace(-1, 1, 3 << 20, true, DType::float32);  // > one staging chunk
  Array out = loom::zeros({2, 3 << 20}, DType::float32).index(0, 1);     // a row: contiguous
  Array rev = loom::zeros({3 << 20}, DType::float32).slice(0, -1, -(3 << 20) - 1, -1);
  rt.ufunc("sinexp")(x, x, {.target = "cuda", .out = {out}});
  rt.ufunc("sinexp")(x, x, {.target = "cuda", .out = {rev}});
  EXPECT_EQ(bytes_of(out), bytes_of(rev));
  const Array host = rt.ufunc("sinexp")(x, x);
  const auto a = out.to_vector<float>(), b = host.to_vector<float>();
  for (std::size_t i = 0; i < a.size(); i += 997)
    EXPECT_NEAR(a[i], b[i], 4e-6f * std::fabs(b[i]) + 1e-30f);
}

TEST(RuntimeArrays, MixingMemoriesIsAnErrorNamingBoth) {
  REQUIRE_CUDA();
  auto& rt = runtime();
  const Array d = rt.to_device(loom::zeros({4}));
  try {
    rt.ufunc("add")(d, d, {.target = "cpu"});
    FAIL() << "a device array on the cpu target was accepted";
  } catch (const loom::DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("cuda:0"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'cpu'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(d.to_vector<double>(), loom::DeviceError);  // host-only access
}

// ---- every target, transfer counters, transfer guard ----

TEST(RuntimeArrays, ToDeviceOnCpuBringsADeviceArrayHome) {
  REQUIRE_CUDA();
  auto& rt = runtime();
  const Array d = rt.to_device(loom::arange(0, 4), "cuda");
  const Array h = rt.to_device(d, "cpu");
  EXPECT_TRUE(h.device().is_host());
  EXPECT_EQ(h.to_vector<double>(), (std::vector<double>{0, 1, 2, 3}));
}

TEST(RuntimeArrays, CountersCountExplicitTransfersEachWay) {
  REQUIRE_CUDA();
  auto& rt = runtime();
  rt.reset_transfer_counts();
  const Array d = rt.to_device(loom::zeros({1000}, DType::float32), "cuda");
  (void)rt.to_host(d);
  (void)rt.to_host(d);
  const loom::TransferCounts c = rt.transfer_counts("cuda:0");
  EXPECT_EQ(c.host_to_device_bytes, 4000);
  EXPECT_EQ(c.host_to_device_calls, 1);
  EXPECT_EQ(c.device_to_host_bytes, 8000);
  EXPECT_EQ(c.device_to_host_calls, 2);
  rt.reset_transfer_counts();
  EXPECT_EQ(rt.transfer_counts("cuda"), loom::TransferCounts{});
}

TEST(RuntimeArrays, CountersCountAHostModeCall) {
  REQUIRE_CUDA();
  auto& rt = runtime();
  const Array x = loom::zeros({1000});
  rt.reset_transfer_counts();
  (void)rt.ufunc("add")(x, x, {.target = "cuda"});
  const loom::TransferCounts c = rt.transfer_counts("cuda");
  EXPECT_EQ(c.host_to_device_bytes, 16000);  // both inputs in
  EXPECT_EQ(c.device_to_host_bytes, 8000);   // the result out
  EXPECT_EQ(c.device_to_host_calls, 1);
  rt.reset_transfer_counts();
  const Array dx = rt.to_device(x, "cuda");
  (void)rt.ufunc("add")(dx, dx, {.target = "cuda"});
  rt.synchronize("cuda");
  EXPECT_EQ(rt.transfer_counts("cuda").device_to_host_calls, 0);  // device mode stays there
}

TEST(RuntimeArrays, TransferGuardRefusesImplicitTransfersOnly) {
  REQUIRE_CUDA();
  loom::Runtime rt(loom::RuntimeOptions{.transfer_guard = loom::TransferGuard::disallow});
  const Array x = loom::arange(0, 8);
  try {
    (void)rt.ufunc("add")(x, 1.0, {.target = "cuda"});
    FAIL() << "an implicit transfer was allowed";
  } catch (const loom::TransferError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("argument 0"), std::string::npos) << m;
    EXPECT_NE(m.find("target 'cuda'"), std::string::npos) << m;
  }
  const Array dx = rt.to_device(x, "cuda");  // explicit: allowed, as is a scalar argument
  const Array dy = rt.ufunc("add")(dx, 1.0, {.target = "cuda"});
  EXPECT_EQ(rt.to_host(dy).to_vector<double>()[7], 8.0);
  const Array out = loom::zeros({8});
  EXPECT_THROW((void)rt.ufunc("add")(dx, dx, {.target = "cuda", .out = {out}}),
               loom::TransferError);
  rt.copy_to(dy, out);  // explicit
  EXPECT_EQ(out.to_vector<double>()[0], 1.0);
}

}  // namespace
}  // namespace loom_cuda_test
