// bincount, histogram and average on every target against references computed here.
#include <cmath>
#include <limits>

#include "helpers.hpp"

namespace loom_stats_test {
namespace {

class Counts : public ::testing::TestWithParam<std::string> {};

TEST_P(Counts, BincountCountsMinlengthAndWeights) {
  const std::string target = GetParam();
  LOOM_STATS_SKIP_UNAVAILABLE(target);
  for (const DType dt : {DType::uint8, DType::int32, DType::int64, DType::bool_}) {
    const Array x = sample(dt == DType::bool_ ? dt : DType::uint8, {100003}, 6).astype(dt);
    const auto xv = values(x);
    std::vector<long double> want(100, 0);
    for (auto e : xv) want[static_cast<std::size_t>(e)] += 1;
    const Array c = loom::stats::bincount(rt(), x, {.minlength = 120, .target = target});
    ASSERT_EQ(c.dtype(), DType::int64);
    ASSERT_EQ(c.shape(), (loom::Shape{120}));
    const auto cv = values(c);
    for (std::size_t i = 0; i < 120; ++i) EXPECT_EQ(cv[i], i < 100 ? want[i] : 0.0L) << i;
  }
  // Weights: float64 sums of the weights per value, in element order per chunk.
  const Array x = sample(DType::uint8, {50001}, 8);
  const Array w = sample(DType::float64, {50001}, 9);
  const auto xv = values(x), wv = values(w);
  std::vector<long double> want(100, 0);
  for (std::size_t i = 0; i < xv.size(); ++i) want[static_cast<std::size_t>(xv[i])] += wv[i];
  const Array c = loom::stats::bincount(rt(), x, {.weights = w, .target = target});
  ASSERT_EQ(c.dtype(), DType::float64);
  const auto cv = values(c);
  for (std::size_t i = 0; i < cv.size(); ++i) expect_close(want[i], cv[i], 1e-12, "weighted");
  // More bins than shared memory holds (the global-atomics kernel).
  const Array big = loom::from_vector(std::vector<std::int64_t>{0, 20000, 20000, 5});
  const auto bv = values(loom::stats::bincount(rt(), big, {.target = target}));
  ASSERT_EQ(bv.size(), 20001u);
  EXPECT_EQ(bv[20000], 2.0L);
  EXPECT_EQ(bv[5], 1.0L);
  EXPECT_THROW(loom::stats::bincount(rt(), loom::from_vector(std::vector<std::int32_t>{1, -1}),
                                     {.target = target}),
               loom::ValueError);
  EXPECT_EQ(values(loom::stats::bincount(rt(), loom::zeros({0}, DType::int64),
                                         {.minlength = 3, .target = target}))
                .size(),
            3u);
}

TEST_P(Counts, HistogramEqualBinsAsNumPy) {
  const std::string target = GetParam();
  LOOM_STATS_SKIP_UNAVAILABLE(target);
  // 0..10 in 10 bins: the last bin, closed on the right, holds 9 and 10.
  const Array a = loom::arange(0, 11, 1, DType::float64);
  const auto h = loom::stats::histogram(rt(), a, 10, {.target = target});
  const auto hv = values(h.hist);
  ASSERT_EQ(hv.size(), 10u);
  for (int i = 0; i < 9; ++i) EXPECT_EQ(hv[i], 1.0L) << i;
  EXPECT_EQ(hv[9], 2.0L);
  EXPECT_EQ(h.bin_edges.size(), 11);
  // range=: values outside are dropped.
  const auto r = values(
      loom::stats::histogram(rt(), a, 4, {.range = std::pair{2.0, 6.0}, .target = target}).hist);
  EXPECT_EQ(r[0] + r[1] + r[2] + r[3], 5.0L);
  EXPECT_EQ(r[3], 2.0L);  // 5 and 6
  // Many values of every dtype against the edges' own test.
  for (const DType dt : kRealDTypes) {
    const Array x = sample(dt, {100003}, 12);
    const auto xv = values(x);
    const auto res = loom::stats::histogram(rt(), x, 7, {.target = target});
    const auto edges = values(res.bin_edges);
    std::vector<long double> want(7, 0);
    for (auto e : xv) {
      int j = 0;
      while (j < 6 && e >= edges[j + 1]) ++j;
      want[j] += 1;
    }
    const auto got = values(res.hist);
    for (int j = 0; j < 7; ++j) EXPECT_EQ(got[j], want[j]) << loom::name(dt) << " bin " << j;
  }
  // Weighted.
  const Array w = loom::full({11}, 0.5);
  const auto hw =
      values(loom::stats::histogram(rt(), a, 10, {.weights = w, .target = target}).hist);
  EXPECT_EQ(hw[9], 1.0L);
  EXPECT_THROW(loom::stats::histogram(rt(), a, 0, {.target = target}), loom::ValueError);
  EXPECT_THROW(loom::stats::histogram(rt(), a, 3, {.range = std::pair{2.0, 1.0}, .target = target}),
               loom::ValueError);
}

TEST_P(Counts, AverageWithWeights) {
  const std::string target = GetParam();
  LOOM_STATS_SKIP_UNAVAILABLE(target);
  const Array a = loom::from_vector(std::vector<double>{1, 2, 3, 4, 5, 6}, {2, 3});
  const Array w1 = loom::array({1.0, 0.0, 3.0});
  const auto r =
      values(loom::stats::average(rt(), a, {.axis = 1, .weights = w1, .target = target}));
  EXPECT_EQ(r[0], 2.5L);
  EXPECT_EQ(r[1], 5.5L);
  const Array wf = loom::from_vector(std::vector<double>{1, 1, 1, 1, 1, 3}, {2, 3});
  expect_close(33.0L / 8,
               values(loom::stats::average(rt(), a, {.weights = wf, .target = target}))[0], 1e-15,
               "average");
  EXPECT_EQ(values(loom::stats::average(rt(), a, {.target = target}))[0], 3.5L);
  EXPECT_THROW(
      loom::stats::average(rt(), a, {.axis = 1, .weights = loom::zeros({3}), .target = target}),
      loom::ValueError);
}

INSTANTIATE_TEST_SUITE_P(Targets, Counts, ::testing::ValuesIn(kTargets), target_name);

}  // namespace
}  // namespace loom_stats_test
