// Reductions on target "parallel": right answers for every way of cutting them, the cpu target's
// bits where the cut is over the outputs, and the same bits on every run and with any number of
// threads where the cut is along the reduced dims.
#include <gtest/gtest.h>
#include <oneapi/tbb/info.h>

#include "helpers.hpp"

namespace {

// These tests write "every axis" as an empty list (loom::Axes() is "not given": every axis).
loom::Axes axes_of(const std::vector<int>& v) { return v.empty() ? loom::Axes() : loom::Axes(v); }

using loom::Array;
using loom::DType;
using loom::ReduceOptions;
using loom_tbb_test::options;
using loom_tbb_test::random_array;
using loom_tbb_test::runtime;
using loom_tbb_test::same_bits;

struct Case {
  loom::Shape shape;
  std::vector<int> axis;
};

// Many outputs (a long outer kept dim, or a very long inner one): the split is over the outputs, so
// the bits are the serial ones; likewise a full reduction just over the serial cutoff, which is one
// chunk.
TEST(Reduce, ManyOutputsMatchCpuBitwise) {
  const Case cases[] = {{{1000, 300}, {1}},     {{40, 70'000}, {0}},        {{3, 50, 5000}, {0, 2}},
                        {{64, 40, 30}, {1, 2}}, {{5, 40, 3, 1000}, {0, 2}}, {{33000}, {}},
                        {{30, 1100}, {1}}};
  auto sum = runtime().reduce("t_sum");
  unsigned seed = 40;
  for (const auto& c : cases) {
    const Array x = random_array(c.shape, DType::float32, seed++);
    EXPECT_TRUE(same_bits(sum(x, {.target = "parallel", .axis = axes_of(c.axis)}),
                          sum(x, {.target = "cpu", .axis = axes_of(c.axis)})))
        << loom::shape_str(c.shape);
  }
}

// Few outputs: the split is along a reduced dim. On whole numbers every order gives the exact sum,
// so the answer must equal the cpu target's exactly; max is exact in any order too.
const Case kFewOutputs[] = {
    {{2, 300'000}, {1}},   {{300'000, 3}, {0}},          {{50, 3, 4000}, {0, 2}},
    {{1000, 1000}, {}},    {{7, 2, 9, 5000}, {0, 2, 3}}, {{100'003}, {}},
    {{4, 70'000}, {0, 1}}, {{3, 2000, 1000}, {1}},       {{40, 3, 2000, 2}, {0, 2}}};

TEST(Reduce, FewOutputsGiveExactSums) {
  auto sum = runtime().reduce("t_sum");
  unsigned seed = 60;
  for (const auto& c : kFewOutputs) {
    const Array x = random_array(c.shape, DType::float64, seed++, -1000, 1000, true);
    for (bool keepdims : {false, true}) {
      const ReduceOptions p{.target = "parallel", .axis = axes_of(c.axis), .keepdims = keepdims};
      ReduceOptions s = p;
      s.target = "cpu";
      EXPECT_TRUE(same_bits(sum(x, p), sum(x, s))) << loom::shape_str(c.shape);
    }
    // initial= joins once, not once per chunk.
    EXPECT_TRUE(same_bits(sum(x, {.target = "parallel", .axis = axes_of(c.axis), .initial = 5.0}),
                          sum(x, {.target = "cpu", .axis = axes_of(c.axis), .initial = 5.0})));
    // A transposed (strided) input.
    const Array t = x.transpose();
    std::vector<int> axis;
    for (int a : c.axis) axis.push_back(x.ndim() - 1 - a);
    EXPECT_TRUE(same_bits(sum(t, {.target = "parallel", .axis = axes_of(axis)}),
                          sum(t, {.target = "cpu", .axis = axes_of(axis)})));
  }
}

TEST(Reduce, FewOutputsMaxMatchesCpu) {
  auto max = runtime().reduce("t_max");
  unsigned seed = 80;
  for (const auto& c : kFewOutputs) {
    const Array x = random_array(c.shape, DType::float32, seed++);
    EXPECT_TRUE(same_bits(max(x, {.target = "parallel", .axis = axes_of(c.axis)}),
                          max(x, {.target = "cpu", .axis = axes_of(c.axis)})))
        << loom::shape_str(c.shape);
  }
}

TEST(Reduce, FloatSumIsAccurate) {
  const std::int64_t n = 10'000'000;
  const Array x = random_array({n}, DType::float32, 90, 0.0, 1.0);
  double ref = 0;
  for (float v : x.to_vector<float>()) ref += v;
  const double got = runtime().reduce("t_sum")(x, {.target = "parallel"}).item<double>();
  EXPECT_NEAR(got, ref, ref * 1e-6);
}

// The same bits over 20 runs, and with 1, 2, all and more threads than cores.
void expect_deterministic(const Array& x, const std::vector<int>& axis) {
  auto& rt = runtime();
  const ReduceOptions o{.target = "parallel", .axis = axes_of(axis)};
  const Array first = rt.reduce("t_sum")(x, o);
  for (int run = 0; run < 20; ++run) {
    ASSERT_TRUE(same_bits(rt.reduce("t_sum")(x, o), first)) << "run " << run;
  }
  for (int threads : {1, 2, tbb::info::default_concurrency(), 3, 7}) {
    loom::Runtime other(options(threads));
    ASSERT_EQ(other.num_threads(), threads);
    for (int run = 0; run < 3; ++run) {
      ASSERT_TRUE(same_bits(other.reduce("t_sum")(x, o), first)) << threads << " threads";
    }
  }
}

TEST(Determinism, Float32SumOf10Million) {
  expect_deterministic(random_array({10'000'000}, DType::float32, 100), {});
}

TEST(Determinism, AxisReductionsWithFewOutputs) {
  expect_deterministic(random_array({2, 5'000'000}, DType::float32, 101), {1});
  expect_deterministic(random_array({5'000'000, 2}, DType::float32, 102), {0});
  expect_deterministic(random_array({50, 3, 40'000}, DType::float32, 103), {0, 2});
}

TEST(Determinism, SetNumThreadsKeepsTheBits) {
  loom::Runtime rt(options());
  const Array x = random_array({3'000'001}, DType::float32, 104);
  const Array first = rt.reduce("t_sum")(x, {.target = "parallel"});
  for (int threads : {1, 2, 5}) {
    rt.set_num_threads(threads);
    EXPECT_EQ(rt.num_threads(), threads);
    EXPECT_TRUE(same_bits(rt.reduce("t_sum")(x, {.target = "parallel"}), first));
  }
}

}  // namespace
