// argmax, argmin and their nan forms; nansum, nanprod, nanmax, nanmin, ptp and count_nonzero, on
// every target against references computed here.
#include <cmath>
#include <limits>

#include "helpers.hpp"

namespace loom_stats_test {
namespace {

using loom::stats::ArgOptions;

class Args : public ::testing::TestWithParam<std::string> {};

// The first index of the extreme of v (the first NaN where there is one).
std::int64_t ref_arg(const std::vector<long double>& v, bool is_min) {
  std::int64_t b = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (std::isnan((double)v[i])) return static_cast<std::int64_t>(i);
    if (is_min ? v[i] < v[b] : v[i] > v[b]) b = static_cast<std::int64_t>(i);
  }
  return b;
}

TEST_P(Args, EveryDtypeAndAxisGivesTheFirstExtreme) {
  const std::string target = GetParam();
  LOOM_STATS_SKIP_UNAVAILABLE(target);
  for (const DType dt : kRealDTypes) {
    const Array a = sample(dt, {6, 7}, 4);
    const auto x = values(a);
    for (const bool is_min : {false, true}) {
      auto f = is_min ? loom::stats::argmin : loom::stats::argmax;
      const Array flat = f(rt(), a, {.target = target});
      EXPECT_EQ(flat.dtype(), DType::int64);
      EXPECT_EQ(flat.ndim(), 0);
      EXPECT_EQ(values(flat)[0], ref_arg(x, is_min)) << loom::name(dt);
      for (const int axis : {0, 1, -1}) {
        const Array r = f(rt(), a, {.axis = axis, .keepdims = true, .target = target});
        const std::vector<bool> red{axis == 0, axis != 0};
        const auto g = groups(x, {6, 7}, red);
        EXPECT_EQ(r.shape(), (axis == 0 ? loom::Shape{1, 7} : loom::Shape{6, 1}));
        const auto rv = values(r);
        for (std::size_t i = 0; i < g.size(); ++i) {
          EXPECT_EQ(rv[i], ref_arg(g[i], is_min)) << loom::name(dt) << " axis " << axis;
        }
      }
    }
  }
}

TEST_P(Args, LongRowsTiesAndNans) {
  const std::string target = GetParam();
  LOOM_STATS_SKIP_UNAVAILABLE(target);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> v(300001, 1.0);
  v[123457] = 5.0;
  v[250000] = 5.0;  // a tie in a later chunk: the first wins
  v[7] = -2.0;
  v[290000] = -2.0;
  for (const DType dt : {DType::float32, DType::float64, DType::int16}) {
    const Array a = loom::from_vector(v).astype(dt);
    EXPECT_EQ(values(loom::stats::argmax(rt(), a, {.target = target}))[0], 123457);
    EXPECT_EQ(values(loom::stats::argmin(rt(), a, {.target = target}))[0], 7);
  }
  std::vector<double> w = v;
  w[200000] = nan;
  w[299999] = nan;
  const Array a = loom::from_vector(w);
  EXPECT_EQ(values(loom::stats::argmax(rt(), a, {.target = target}))[0], 200000);
  EXPECT_EQ(values(loom::stats::argmin(rt(), a, {.target = target}))[0], 200000);
  EXPECT_EQ(values(loom::stats::nanargmax(rt(), a, {.target = target}))[0], 123457);
  EXPECT_EQ(values(loom::stats::nanargmin(rt(), a, {.target = target}))[0], 7);
  const Array all_nan = loom::from_vector(std::vector<double>{1, 2, nan, nan}, {2, 2});
  EXPECT_THROW(loom::stats::nanargmax(rt(), all_nan, {.axis = 1, .target = target}),
               loom::ValueError);
  EXPECT_THROW(loom::stats::argmax(rt(), loom::zeros({0}), {.target = target}), loom::ValueError);
}

TEST_P(Args, TheNanReductionsPtpAndCountNonzero) {
  const std::string target = GetParam();
  LOOM_STATS_SKIP_UNAVAILABLE(target);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Array a = loom::from_vector(std::vector<double>{1, nan, 3, 4, nan, nan, 0, -2, 5}, {3, 3});
  const loom::stats::StatsOptions o{.axis = 1, .target = target};
  const auto s = values(loom::stats::nansum(rt(), a, o));
  EXPECT_EQ(s[0], 4.0L);
  EXPECT_EQ(s[1], 4.0L);
  EXPECT_EQ(s[2], 3.0L);
  const auto p = values(loom::stats::nanprod(rt(), a, o));
  EXPECT_EQ(p[0], 3.0L);
  EXPECT_EQ(p[2], -0.0L);
  const auto mx = values(loom::stats::nanmax(rt(), a, o)),
             mn = values(loom::stats::nanmin(rt(), a, o));
  EXPECT_EQ(mx[0], 3.0L);
  EXPECT_EQ(mn[2], -2.0L);
  const auto all = values(loom::stats::nanmax(
      rt(), loom::from_vector(std::vector<double>{nan, nan}), {.target = target}));
  EXPECT_TRUE(std::isnan((double)all[0]));
  // where= is refused, not dropped (it used to be ignored: a mask that left out the 3 gave 3).
  const Array mask = loom::from_vector(std::vector<bool>{true, false, true});
  const Array v3 = loom::from_vector(std::vector<double>{1, 3, 2});
  EXPECT_THROW(loom::stats::nanmax(rt(), v3, {.where = mask, .target = target}), loom::ValueError);
  EXPECT_THROW(loom::stats::nanmin(rt(), v3, {.where = mask, .target = target}), loom::ValueError);
  // Integers: nansum is np.sum (int64 for int8), ptp wraps in the input's dtype.
  const Array i8 = loom::from_vector(std::vector<std::int8_t>{100, 100, -100});
  const Array si = loom::stats::nansum(rt(), i8, {.target = target});
  EXPECT_EQ(si.dtype(), DType::int64);
  EXPECT_EQ(values(si)[0], 100.0L);
  const Array pt = loom::stats::ptp(rt(), i8, {.target = target});
  EXPECT_EQ(pt.dtype(), DType::int8);
  EXPECT_EQ(values(pt)[0], -56.0L);  // 200 wraps to -56, as NumPy's ptp of int8
  const Array b = sample(DType::float32, {4, 5}, 2);
  const auto x = values(b);
  const auto pb = values(loom::stats::ptp(rt(), b, {.axis = 0, .target = target}));
  const auto g = groups(x, {4, 5}, {true, false});
  for (std::size_t i = 0; i < g.size(); ++i) {
    EXPECT_EQ(pb[i], *std::max_element(g[i].begin(), g[i].end()) -
                         *std::min_element(g[i].begin(), g[i].end()));
  }
  const Array c = loom::stats::count_nonzero(rt(), a, {.axis = 0, .target = target});
  EXPECT_EQ(c.dtype(), DType::int64);
  const auto cv = values(c);  // NaN is not zero
  EXPECT_EQ(cv[0], 2.0L);
  EXPECT_EQ(cv[1], 3.0L);
  EXPECT_EQ(cv[2], 3.0L);
}

INSTANTIATE_TEST_SUITE_P(Targets, Args, ::testing::ValuesIn(kTargets), target_name);

}  // namespace
}  // namespace loom_stats_test
