// NCCL's collectives on the GPUs there are (docs/multi-gpu.md, "Combining on the devices"):
// sharded reductions combined by ncclReduce equal the host's fixed-order combine (integers, bools)
// or match it to rounding (floating point with Combine::collective), and a process group of one
// rank all-reduces in place. Two-GPU cases skip on a one-GPU machine; everything skips without a
// GPU or without NCCL's library, with the reason.
#include <cstdint>
#include <vector>

#include "helpers.hpp"
#include "loom/collective.hpp"

namespace loom_cuda_test {
namespace {

using loom::Combine;
using loom::ShardedArray;

// The cuda collectives, or skip with why there are none.
#define LOOM_NCCL_OR_SKIP(c)                                                          \
  LOOM_CUDA_OR_SKIP(b_);                                                              \
  (void)b_;                                                                           \
  loom::Collectives* c = runtime().collectives("cuda");                               \
  if (!c) {                                                                           \
    if (LOOM_TEST_HAVE_NCCL) FAIL() << "libloom_nccl.so was built but is not loaded"; \
    GTEST_SKIP() << "libloom_nccl.so not built (no nccl.h)";                          \
  }                                                                                   \
  if (auto a_ = c->availability(); !a_.ok) GTEST_SKIP() << "NCCL unavailable: " << a_.reason

template <class T>
Array ramp(std::int64_t rows, std::int64_t cols) {
  std::vector<T> v(rows * cols);
  for (std::int64_t i = 0; i < rows * cols; ++i) v[i] = static_cast<T>(i * 7919 % 1009 - 500);
  return loom::from_vector(v, {rows, cols});
}

void expect_same_sums(const std::string& set) {
  loom::Runtime& rt = runtime();
  const Array x = ramp<std::int64_t>(1 << 12, 33);
  const ShardedArray s = rt.to_devices(x, set);
  const loom::Reduce sum = rt.reduce("sum");
  const auto fixed = sum(s, {.combine = Combine::fixed_order}).item<std::int64_t>();
  EXPECT_EQ(fixed, sum(x).item<std::int64_t>());
  EXPECT_EQ(sum(s, {.combine = Combine::collective}).item<std::int64_t>(), fixed);
  EXPECT_EQ(sum(s).item<std::int64_t>(), fixed);  // automatic: NCCL for integers
  // Over axis 0 only, with initial= counted once; int32 max; bools.
  EXPECT_EQ(sum(s, {.axis = 0, .initial = loom::Initial(3.0), .combine = Combine::collective})
                .to_vector<std::int64_t>(),
            sum(x, {.axis = 0, .initial = loom::Initial(3.0)}).to_vector<std::int64_t>());
  const Array i32 = ramp<std::int32_t>(1000, 5);
  EXPECT_EQ(rt.reduce("max")(rt.to_devices(i32, set), {.axis = 0, .combine = Combine::collective})
                .to_vector<std::int32_t>(),
            rt.reduce("max")(i32, {.axis = 0}).to_vector<std::int32_t>());
  std::vector<bool> flags(999, true);
  flags[998] = false;  // in the last device's rows
  const Array b = loom::from_vector(flags, {999});
  EXPECT_FALSE(
      rt.reduce("all")(rt.to_devices(b, set), {.combine = Combine::collective}).item<bool>());
  EXPECT_TRUE(
      rt.reduce("any")(rt.to_devices(b, set), {.combine = Combine::collective}).item<bool>());
  // Floating point: NCCL's order when asked for, within rounding of the fixed order.
  const Array f = rt.ufunc("multiply")(ramp<float>(1 << 12, 16), 1e-3);
  const ShardedArray fs = rt.to_devices(f, set);
  const double ff = rt.reduce("sum")(fs, {.combine = Combine::fixed_order}).item<float>();
  EXPECT_EQ(rt.reduce("sum")(fs).item<float>(), ff);  // automatic keeps the fixed order
  EXPECT_NEAR(rt.reduce("sum")(fs, {.combine = Combine::collective}).item<float>(), ff,
              1e-5 * (1 << 16));
}

TEST(Nccl, ShardedReductionsOnEveryGpuCombineOnTheDevices) {
  LOOM_NCCL_OR_SKIP(c);
  EXPECT_EQ(c->name(), "nccl");
  expect_same_sums("cuda:all");
  expect_same_sums("cuda:0");  // a set of one: a one-rank NCCL reduce
}

TEST(Nccl, TwoGpusListedOutOfOrderRootTheFirstListed) {
  LOOM_NCCL_OR_SKIP(c);
  if (b_->device_count() < 2) GTEST_SKIP() << "needs two GPUs; this machine has one";
  expect_same_sums("cuda:1,0");
}

TEST(Nccl, AProcessGroupOfOneAllReducesInPlace) {
  LOOM_NCCL_OR_SKIP(c);
  const std::unique_ptr<loom::CollectiveGroup> g = c->join_group(c->make_group_id(), 1, 0, 0);
  EXPECT_EQ(g->size(), 1);
  EXPECT_EQ(g->rank(), 0);
  const Array host = ramp<std::int32_t>(64, 4);
  const Array d = runtime().to_device(host, "cuda:0");
  g->all_reduce(d.data(), d.size(), DType::int32, loom::CollectiveOp::sum, nullptr);
  EXPECT_EQ(runtime().to_host(d).to_vector<std::int32_t>(), host.to_vector<std::int32_t>());
  EXPECT_THROW(g->all_reduce(d.data(), 1, DType::int16, loom::CollectiveOp::sum, nullptr),
               loom::ValueError);
}

}  // namespace
}  // namespace loom_cuda_test
