// Elementwise ufuncs and gufuncs on target "parallel" give the cpu target's bits: at the sizes
// where the split changes, on strided and broadcast views, and on gufunc batches.
#include <gtest/gtest.h>

#include "chunking.hpp"
#include "helpers.hpp"

namespace {

using loom::Array;
using loom::DType;
using loom_tbb_test::random_array;
using loom_tbb_test::runtime;
using loom_tbb_test::same_bits;
namespace chunking = loom::backend::tbb_backend;

constexpr std::int64_t kCut = chunking::kSerialCutoff;

class Elementwise : public ::testing::TestWithParam<std::tuple<std::string, DType>> {};

TEST_P(Elementwise, SizesAroundTheGrainMatchCpu) {
  const auto& [op, dt] = GetParam();
  const std::int64_t sizes[] = {
      0, 1, 63, 64, 65, kCut - 1, kCut, kCut + 1, 2 * kCut, 2 * kCut + 17, 1 << 20, (1 << 22) + 3};
  auto f = runtime().ufunc(op);
  unsigned seed = 1;
  for (std::int64_t n : sizes) {
    const Array x = random_array({n}, dt, seed++), y = random_array({n}, dt, seed++);
    EXPECT_TRUE(same_bits(f(x, y, {.target = "parallel"}), f(x, y, {.target = "cpu"})))
        << op << " n=" << n;
  }
}

TEST_P(Elementwise, StridedAndBroadcastViewsMatchCpu) {
  const auto& [op, dt] = GetParam();
  auto f = runtime().ufunc(op);
  const Array big = random_array({3 * 300'001}, dt, 7);
  const Array other = random_array({300'001}, dt, 8);
  const Array strided = big.slice(0, 0, 3 * 300'001, 3);
  const Array reversed = other.slice(0, -1, -300'002, -1);
  EXPECT_TRUE(same_bits(f(strided, reversed, {.target = "parallel"}),
                        f(strided, reversed, {.target = "cpu"})));
  // Outer-product broadcast, a transposed operand, and a scalar.
  const Array col = random_array({1500, 1}, dt, 9), row = random_array({1, 700}, dt, 10);
  EXPECT_TRUE(same_bits(f(col, row, {.target = "parallel"}), f(col, row, {.target = "cpu"})));
  const Array m = random_array({700, 1500}, dt, 11).transpose();
  const Array m2 = random_array({1500, 700}, dt, 12);
  EXPECT_TRUE(same_bits(f(m, m2, {.target = "parallel"}), f(m, m2, {.target = "cpu"})));
  EXPECT_TRUE(same_bits(f(m, 0.5, {.target = "parallel"}), f(m, 0.5, {.target = "cpu"})));
  // A short innermost dim: chunk boundaries fall inside rows.
  const Array narrow = random_array({100'003, 3}, dt, 13), last = random_array({3}, dt, 14);
  EXPECT_TRUE(
      same_bits(f(narrow, last, {.target = "parallel"}), f(narrow, last, {.target = "cpu"})));
}

TEST_P(Elementwise, WritesIntoAStridedOut) {
  const auto& [op, dt] = GetParam();
  auto f = runtime().ufunc(op);
  const Array x = random_array({200'000}, dt, 15), y = random_array({200'000}, dt, 16);
  Array out_p = loom::zeros({400'000}, dt), out_c = loom::zeros({400'000}, dt);
  f(x, y, {.target = "parallel", .out = {out_p.slice(0, 1, 400'000, 2)}});
  f(x, y, {.target = "cpu", .out = {out_c.slice(0, 1, 400'000, 2)}});
  EXPECT_TRUE(same_bits(out_p, out_c));  // the even elements stay zero in both
}

INSTANTIATE_TEST_SUITE_P(Ops, Elementwise,
                         ::testing::Combine(::testing::Values("t_add", "t_sinexp"),
                                            ::testing::Values(DType::float32, DType::float64)));

TEST(Gufunc, BatchesMatchCpu) {
  auto sum_row = runtime().gufunc("t_sum_row");
  auto dot = runtime().gufunc("t_dot");
  // Few big instances, many small ones, and sizes around the cut in total work.
  const loom::Shape shapes[] = {{2, 512, 512}, {4096, 4, 16}, {1, 8, 8},    {0, 4, 4},
                                {2047, 4, 4},  {2048, 4, 4},  {2049, 4, 4}, {64, 3, 1000}};
  unsigned seed = 20;
  for (const auto& s : shapes) {
    const Array a = random_array(s, DType::float32, seed++);
    EXPECT_TRUE(same_bits(sum_row(a, {.target = "parallel"}), sum_row(a, {.target = "cpu"})))
        << loom::shape_str(s);
  }
  const Array a = random_array({100'000, 7}, DType::float64, 30);
  const Array b = random_array({7}, DType::float64, 31);  // broadcast over the instances
  EXPECT_TRUE(same_bits(dot(a, b, {.target = "parallel"}), dot(a, b, {.target = "cpu"})));
  const Array at = random_array({7, 100'000}, DType::float64, 32).transpose();  // strided cores
  EXPECT_TRUE(same_bits(dot(at, a, {.target = "parallel"}), dot(at, a, {.target = "cpu"})));
}

}  // namespace
