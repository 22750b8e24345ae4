// Ops defined in the program for cuda (define_cuda_ops.cu) and for the host (the same table,
// tests/core/define_ops.hpp): the CUDA loops, code of this executable rather than of a plugin,
// give cpu's results on host and device arrays. Skips with the reason where cuda is unavailable.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "loom/def/gufunc.hpp"
#include "loom/def/kernel.hpp"
#include "loom/def/reduce.hpp"
#include "loom/def/ufunc.hpp"
#include "loom/loom.hpp"
// After the def headers: the table uses whichever loom::def functions are in scope.
#include "../../core/define_ops.hpp"

void define_cuda_ops(loom::Runtime& rt);  // define_cuda_ops.cu

namespace loom {
namespace {

using V = std::vector<double>;

Runtime& rt() {
  static Runtime r;
  static const bool defined = [] {
    r.define("test_define", define_test::define_ops);
    // A host-only op: never run on cuda in its place.
    r.define("test_define_host", [](Registrar& reg) {
      def::ufunc<define_test::Plus, double(double, double)>(reg, "app_host_only", "x + y");
    });
    define_cuda_ops(r);  // throws where no cuda backend is loaded: the tests say so
    return true;
  }();
  (void)defined;
  return r;
}

// Why cuda cannot run here, or empty.
std::string cuda_unavailable() {
  for (const auto& t : Runtime().targets()) {
    if (t.target == "cuda") return t.available ? "" : t.reason;
  }
  return "no cuda target";
}

#define REQUIRE_CUDA()                                          \
  if (const std::string why = cuda_unavailable(); !why.empty()) \
  GTEST_SKIP() << "cuda unavailable: " << why

// Integer values: sums and products are exact whatever the order or contraction (FMA).
V ints(std::size_t n, int seed) {
  V v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = static_cast<double>((i * 7919 + seed * 104729) % 201) - 100;
  return v;
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

TEST(DefineCuda, TheCudaHalfIsRegisteredBesideTheHostHalf) {
  // No GPU needed: the cuda backend is loaded wherever it was built.
  const auto op = rt().registry().find("app_affine");
  ASSERT_TRUE(op);
  EXPECT_TRUE(op->has_family(Family::host));
  EXPECT_TRUE(op->has_family(Family::cuda));
  EXPECT_EQ(
      op->plugins,
      "test_define (defined by the program, host), test_define (defined by the program, cuda)");
  for (const char* name : {"app_sumdiff", "app_plus", "app_larger", "app_dot", "app_total"}) {
    EXPECT_TRUE(rt().registry().find(name)->has_family(Family::cuda)) << name;
  }
  EXPECT_TRUE(rt().registry().find_kernel("app_scale")->has_family(Family::cuda));
  int records = 0;
  for (const auto& l : rt().libraries()) records += l.program && l.family == Family::cuda;
  EXPECT_EQ(records, 1);
}

TEST(DefineCuda, UfuncsMatchCpuOnHostAndDeviceArrays) {
  REQUIRE_CUDA();
  const std::size_t n = 100003;
  std::vector<double> x(n), y(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = 0.001 * static_cast<double>(i) - 37.5;
    y[i] = 1.0 / (1.0 + static_cast<double>(i));
  }
  const Array hx = from_vector(x), hy = from_vector(y);
  const Ufunc affine = rt().ufunc("app_affine");
  const V want = affine(hx, hy, {.target = "cpu"}).to_vector<double>();
  EXPECT_TRUE(same_bits(affine(hx, hy, {.target = "cuda"}).to_vector<double>(), want));
  const Array dx = rt().to_device(hx), dy = rt().to_device(hy);
  EXPECT_TRUE(
      same_bits(rt().to_host(affine(dx, dy, {.target = "cuda"})).to_vector<double>(), want));
  const Array fx = hx.astype(DType::float32), fy = hy.astype(DType::float32);
  EXPECT_TRUE(same_bits(affine(fx, fy, {.target = "cuda"}).to_vector<float>(),
                        affine(fx, fy, {.target = "cpu"}).to_vector<float>()));
  // Two outputs.
  const auto c = rt().ufunc("app_sumdiff").call({hx, hy}, {.target = "cpu"});
  const auto g = rt().ufunc("app_sumdiff").call({dx, dy}, {.target = "cuda"});
  ASSERT_EQ(g.size(), 2u);
  EXPECT_TRUE(same_bits(rt().to_host(g[0]).to_vector<double>(), c[0].to_vector<double>()));
  EXPECT_TRUE(same_bits(rt().to_host(g[1]).to_vector<double>(), c[1].to_vector<double>()));
}

TEST(DefineCuda, ReductionsAndMethodsMatchCpu) {
  REQUIRE_CUDA();
  const Array x = from_vector(ints(50000, 1));
  const Array m = from_vector(ints(60000, 2), {300, 200});
  const Array dx = rt().to_device(x), dm = rt().to_device(m);
  const Ufunc plus = rt().ufunc("app_plus"), larger = rt().ufunc("app_larger");
  EXPECT_EQ(plus.reduce(x, {.target = "cuda"}).item<double>(),
            plus.reduce(x, {.target = "cpu"}).item<double>());
  EXPECT_EQ(rt().to_host(plus.reduce(dm, {.target = "cuda", .axis = 1})).to_vector<double>(),
            plus.reduce(m, {.target = "cpu", .axis = 1}).to_vector<double>());
  EXPECT_EQ(rt().to_host(plus.accumulate(dm, {.target = "cuda", .axis = 1})).to_vector<double>(),
            plus.accumulate(m, {.target = "cpu", .axis = 1}).to_vector<double>());
  EXPECT_EQ(rt().to_host(larger.reduce(dx, {.target = "cuda"})).item<double>(),
            larger.reduce(x, {.target = "cpu"}).item<double>());
  EXPECT_EQ(
      rt().to_host(rt().reduce("app_total")(dm, {.target = "cuda", .axis = 0})).to_vector<double>(),
      rt().reduce("app_total")(m, {.target = "cpu", .axis = 0}).to_vector<double>());
  const Array xi = x.astype(DType::int64);
  EXPECT_EQ(rt().reduce("app_total")(xi, {.target = "cuda"}).item<std::int64_t>(),
            rt().reduce("app_total")(xi, {.target = "cpu"}).item<std::int64_t>());
}

// The gufunc keywords are views planned in the core: cuda gets them as cpu does, on host arrays
// (copied in and out) and on device arrays (results stay there).
TEST(DefineCuda, GufuncAxesKeepdimsAndFlexibleDimsMatchCpu) {
  REQUIRE_CUDA();
  const Array a = from_vector(ints(12 * 30, 6), {12, 30}),
              b = from_vector(ints(12 * 30, 7), {12, 30});
  const Array da = rt().to_device(a), db = rt().to_device(b);
  const Ufunc dot = rt().gufunc("app_dot");
  for (const CallOptions& o :
       {CallOptions{.axes = {{0}, {0}, {}}}, CallOptions{.axis = 0},
        CallOptions{.axis = 0, .keepdims = true}, CallOptions{.keepdims = true}}) {
    CallOptions c = o, g = o;
    c.target = "cpu";
    g.target = "cuda";
    const Array want = dot(a, b, c);
    const Array host = dot(a, b, g);
    EXPECT_EQ(host.shape(), want.shape());
    EXPECT_EQ(host.to_vector<double>(), want.to_vector<double>());
    const Array dev = dot(da, db, g);
    EXPECT_EQ(dev.shape(), want.shape());
    EXPECT_EQ(rt().to_host(dev).to_vector<double>(), want.to_vector<double>());
  }
  // (m?,n),(n,p?)->(m?,p?): every combination of dropped dims.
  const Array A = from_vector(ints(5 * 6, 8), {5, 6}), B = from_vector(ints(6 * 4, 9), {6, 4});
  const Array x = from_vector(ints(6, 10)), y = from_vector(ints(6, 11));
  const Ufunc mm = rt().gufunc("app_matmul");
  for (const auto& [l, r] : {std::pair{A, B}, std::pair{A, x}, std::pair{x, B}, std::pair{x, y}}) {
    const Array want = mm(l, r, {.target = "cpu"});
    const Array got = rt().to_host(mm(rt().to_device(l), rt().to_device(r), {.target = "cuda"}));
    EXPECT_EQ(got.shape(), want.shape());
    EXPECT_EQ(got.to_vector<double>(), want.to_vector<double>());
  }
}

// () arguments taken as rank-0 Views run on cuda; a weak literal takes the int32-only loop.
TEST(DefineCuda, RankZeroViewArgumentsAndWeakLiterals) {
  REQUIRE_CUDA();
  EXPECT_EQ(rt().gufunc("app_twice")(10, {.target = "cuda"}).item<std::int32_t>(), 20);
  const Array v = from_vector(std::vector<std::int32_t>{1, -2, 3});
  EXPECT_EQ(rt().gufunc("app_twice")(rt().to_device(v), {.target = "cuda"}).dtype(), DType::int32);
  const Array x = from_vector(ints(4 * 9, 12), {4, 9});
  EXPECT_EQ(rt().gufunc("app_scale_by")(2.0, x, {.target = "cuda"}).to_vector<double>(),
            rt().gufunc("app_scale_by")(2.0, x, {.target = "cpu"}).to_vector<double>());
}

TEST(DefineCuda, GufuncAndKernelMatchCpu) {
  REQUIRE_CUDA();
  const Array a = from_vector(ints(64 * 100, 3), {64, 100}), b = from_vector(ints(100, 4));
  EXPECT_EQ(rt().gufunc("app_dot")(a, b, {.target = "cuda"}).to_vector<double>(),
            rt().gufunc("app_dot")(a, b, {.target = "cpu"}).to_vector<double>());
  const Array x = from_vector(ints(7777, 5));
  Array on_cpu = zeros({7777}), on_gpu = rt().zeros({7777}, DType::float64, "cuda");
  rt().kernel("app_scale").launch({.size = 7777, .target = "cpu"}, x, 2.5, on_cpu);
  rt().kernel("app_scale").launch({.size = 7777, .target = "cuda"}, rt().to_device(x), 2.5, on_gpu);
  EXPECT_EQ(rt().to_host(on_gpu).to_vector<double>(), on_cpu.to_vector<double>());
}

// Many small packed instances (cuda stages them through shared memory, def/gufunc.cuh): a batch
// that is not a multiple of a block's share and outruns one pass of the grid, its transposed view
// (strided: not staged), a broadcast operand, and out= whose untouched half must survive.
TEST(DefineCuda, ManySmallInstancesStagedOrNotMatchCpu) {
  REQUIRE_CUDA();
  const std::int64_t n = 200003;
  const Array a = from_vector(ints(n * 9, 13), {n, 3, 3}),
              b = from_vector(ints(n * 9, 14), {n, 3, 3});
  const Ufunc mm = rt().gufunc("app_matmul");
  const Array want = mm(a, b, {.target = "cpu"});
  EXPECT_EQ(rt().to_host(mm(rt().to_device(a), rt().to_device(b), {.target = "cuda"}))
                .to_vector<double>(),
            want.to_vector<double>());
  EXPECT_EQ(mm(a, b, {.target = "cuda"}).to_vector<double>(), want.to_vector<double>());
  const int axes[] = {0, 2, 1};
  const Array at = a.transpose(axes);
  EXPECT_EQ(mm(at, b, {.target = "cuda"}).to_vector<double>(),
            mm(at, b, {.target = "cpu"}).to_vector<double>());
  const Array b0 = b.slice(0, 0, 1);  // (1, 3, 3): broadcast over the batch
  EXPECT_EQ(mm(a, b0, {.target = "cuda"}).to_vector<double>(),
            mm(a, b0, {.target = "cpu"}).to_vector<double>());
  const Array x = from_vector(ints(n * 5, 15), {n, 5}).astype(DType::float32);
  Array out_cpu = full({n, 5}, 7.0).astype(DType::float32);
  Array out_gpu = rt().to_device(out_cpu);
  const Ufunc half = rt().gufunc("app_first_half");
  half(x, {.target = "cpu", .out = {out_cpu}});
  half(rt().to_device(x), {.target = "cuda", .out = {out_gpu}});
  EXPECT_EQ(rt().to_host(out_gpu).to_vector<float>(), out_cpu.to_vector<float>());
  EXPECT_EQ(out_cpu.at<float>(n - 1, 4), 7.0f);
}

TEST(DefineCuda, AHostOnlyDefinitionIsAnErrorOnCudaNotARunElsewhere) {
  REQUIRE_CUDA();
  const Array x = from_vector(V{1, 2, 3});
  try {
    rt().ufunc("app_host_only")(x, x, {.target = "cuda"});
    FAIL() << "ran on cuda without a cuda loop";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cuda"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace loom
