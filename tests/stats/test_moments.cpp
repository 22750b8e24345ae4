// mean, var, std and their nan* forms on every target and real dtype against long-double
// references; NumPy's result dtypes, axes, keepdims, out=, where=, dtype=, ddof, empty inputs,
// NaNs; determinism and a large-n case where the one-pass variance fails.
#include <cmath>
#include <cstring>
#include <limits>

#include "helpers.hpp"

namespace loom_stats_test {
namespace {

using loom::Axes;
using loom::stats::StatsOptions;

class Moments : public ::testing::TestWithParam<std::string> {};

struct AxisCase {
  Axes axis;
  std::vector<bool> red;
};

const loom::Shape kShape{3, 4, 5};

std::vector<AxisCase> axis_cases() {
  return {{Axes{}, {true, true, true}},      {Axes(0), {true, false, false}},
          {Axes(1), {false, true, false}},   {Axes(-1), {false, false, true}},
          {Axes{0, 2}, {true, false, true}}, {Axes::every(), {true, true, true}}};
}

loom::Shape result_shape(const std::vector<bool>& red, bool keepdims) {
  loom::Shape s;
  for (std::size_t k = 0; k < red.size(); ++k) {
    if (!red[k])
      s.push_back(kShape[k]);
    else if (keepdims)
      s.push_back(1);
  }
  return s;
}

TEST_P(Moments, EveryDtypeAxisAndKeepdimsMatchesTheReference) {
  const std::string target = GetParam();
  LOOM_STATS_SKIP_UNAVAILABLE(target);
  int checked = 0;
  for (const DType dt : kRealDTypes) {
    const Array a = sample(dt, kShape, 3);
    const std::vector<long double> x = values(a);
    const DType want_dt = loom::kind(dt) == loom::Kind::floating ? dt : DType::float64;
    for (const AxisCase& c : axis_cases()) {
      for (const bool keep : {false, true}) {
        const StatsOptions o{.axis = c.axis, .keepdims = keep, .ddof = 1, .target = target};
        const auto g = groups(x, kShape, c.red);
        const Array m = loom::stats::mean(rt(), a, o), v = loom::stats::var(rt(), a, o),
                    s = loom::stats::std(rt(), a, o);
        const std::string what = std::string(loom::name(dt)) + " keepdims=" + (keep ? "1" : "0");
        for (const Array* r : {&m, &v, &s}) {
          ASSERT_EQ(r->dtype(), want_dt) << what;
          ASSERT_EQ(r->shape(), result_shape(c.red, keep)) << what;
        }
        const auto mv = values(m), vv = values(v), sv = values(s);
        for (std::size_t i = 0; i < g.size(); ++i) {
          expect_close(ref_mean(g[i]), mv[i], tol(want_dt), "mean " + what);
          expect_close(ref_var(g[i], 1), vv[i], tol(want_dt), "var " + what);
          expect_close(std::sqrt(ref_var(g[i], 1)), sv[i], tol(want_dt), "std " + what);
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 1000);
}

TEST_P(Moments, LongRowsCrossChunksAndFolds) {
  const std::string target = GetParam();
  LOOM_STATS_SKIP_UNAVAILABLE(target);
  // 3 rows of 70001: several chunks a row and a fold; the transposed input is copied to rows.
  for (const DType dt : {DType::float32, DType::float64, DType::int32}) {
    const Array a = sample(dt, {3, 70001}, 9);
    const auto x = values(a);
    const auto g = groups(x, {3, 70001}, {false, true});
    const Array m = loom::stats::mean(rt(), a, {.axis = 1, .target = target});
    const Array v = loom::stats::var(rt(), a.transpose(), {.axis = 0, .target = target});
    const DType rd = dt == DType::int32 ? DType::float64 : dt;
    for (int r = 0; r < 3; ++r) {
      expect_close(ref_mean(g[r]), values(m)[r], tol(rd) * 4, "mean long");
      expect_close(ref_var(g[r], 0), values(v)[r], tol(rd) * 4, "var long");
    }
  }
}

TEST_P(Moments, EmptyAndDdofEdgeCasesAreNumPys) {
  const std::string target = GetParam();
  LOOM_STATS_SKIP_UNAVAILABLE(target);
  const StatsOptions o{.target = target};
  // Mean of nothing is NaN (NumPy warns; loom has no warnings: docs/stats.md).
  EXPECT_TRUE(std::isnan(values(loom::stats::mean(rt(), loom::zeros({0}), o))[0]));
  const Array r = loom::stats::mean(rt(), loom::zeros({3, 0}), {.axis = 1, .target = target});
  ASSERT_EQ(r.shape(), (loom::Shape{3}));
  for (auto e : values(r)) EXPECT_TRUE(std::isnan((double)e));
  EXPECT_EQ(loom::stats::mean(rt(), loom::zeros({0, 3}), {.axis = 1, .target = target}).shape(),
            (loom::Shape{0}));
  // ddof >= n: s / 0, inf or NaN as NumPy.
  const Array two = loom::array({1.0, 2.0});
  EXPECT_TRUE(
      std::isinf((double)values(loom::stats::var(rt(), two, {.ddof = 2, .target = target}))[0]));
  const Array same = loom::array({1.0, 1.0});
  EXPECT_TRUE(
      std::isnan((double)values(loom::stats::var(rt(), same, {.ddof = 3, .target = target}))[0]));
  // A 0-d input is one element.
  EXPECT_EQ(values(loom::stats::mean(rt(), Array(4.5), o))[0], 4.5L);
}

TEST_P(Moments, NansPropagateAndTheNanFormsSkipThem) {
  const std::string target = GetParam();
  LOOM_STATS_SKIP_UNAVAILABLE(target);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const DType dt : {DType::float16, DType::float32, DType::float64}) {
    const Array a =
        loom::from_vector(std::vector<double>{1, nan, 3, 4, nan, nan, nan, nan, 2, 6, 7, 8}, {3, 4})
            .astype(dt);
    const StatsOptions o{.axis = 1, .target = target};
    const auto m = values(loom::stats::mean(rt(), a, o));
    EXPECT_TRUE(std::isnan((double)m[0]));
    EXPECT_TRUE(std::isnan((double)m[1]));
    EXPECT_EQ(m[2], 5.75L);
    const auto nm = values(loom::stats::nanmean(rt(), a, o));
    expect_close(8.0L / 3, nm[0], tol(dt), "nanmean");
    EXPECT_TRUE(std::isnan((double)nm[1]));  // all-NaN slice: NaN, as NumPy's value
    const auto nv = values(loom::stats::nanvar(rt(), a, {.axis = 1, .ddof = 1, .target = target}));
    expect_close(ref_var({1, 3, 4}, 1), nv[0], tol(dt), "nanvar");
    const auto ns = values(loom::stats::nanstd(rt(), a, o));
    expect_close(std::sqrt(ref_var({2, 6, 7, 8}, 0)), ns[2], tol(dt), "nanstd");
  }
}

TEST_P(Moments, WhereOutAndDtype) {
  const std::string target = GetParam();
  LOOM_STATS_SKIP_UNAVAILABLE(target);
  const Array a = loom::from_vector(std::vector<float>{1, 2, 3, 4, 5, 6}, {2, 3});
  const Array w = loom::from_vector(std::vector<bool>{true, false, true}, {1, 3});
  const auto m = values(loom::stats::mean(rt(), a, {.axis = 1, .where = w, .target = target}));
  EXPECT_EQ(m[0], 2.0L);
  EXPECT_EQ(m[1], 5.0L);
  // out= of the result's shape and dtype is written and returned (keepdims shape here).
  const Array out = loom::zeros({2, 1}, DType::float32);
  const Array r =
      loom::stats::var(rt(), a, {.axis = 1, .keepdims = true, .out = out, .target = target});
  EXPECT_EQ(r.data(), out.data());
  EXPECT_FLOAT_EQ(out.at<float>(1, 0), 2.0f / 3);
  // dtype=float64 accumulates and returns float64; of int8 input too.
  const Array d = loom::stats::mean(rt(), a, {.dtype = DType::float64, .target = target});
  EXPECT_EQ(d.dtype(), DType::float64);
  EXPECT_EQ(values(d)[0], 3.5L);
  EXPECT_EQ(
      loom::stats::mean(rt(), sample(DType::int8, {7}), {.dtype = DType::float32, .target = target})
          .dtype(),
      DType::float32);
}

// The same bits on every run of a target.
TEST_P(Moments, TwoRunsGiveTheSameBits) {
  const std::string target = GetParam();
  LOOM_STATS_SKIP_UNAVAILABLE(target);
  std::vector<float> v(1 << 20);
  std::uint64_t z = 5;
  for (auto& e : v) {
    z = z * 6364136223846793005ull + 1442695040888963407ull;
    e = static_cast<float>(static_cast<double>(z >> 11) / 9007199254740992.0 * 1000.0 - 500.0);
  }
  const Array a = loom::from_vector(v);
  for (int run = 0; run < 2; ++run) (void)run;
  const StatsOptions o{.target = target};
  const float m1 = loom::stats::mean(rt(), a, o).astype(DType::float32).item<float>();
  const float v1 = rt().to_host(loom::stats::var(rt(), a, o)).item<float>();
  const float m2 = rt().to_host(loom::stats::mean(rt(), a, o)).item<float>();
  const float v2 = rt().to_host(loom::stats::var(rt(), a, o)).item<float>();
  EXPECT_EQ(std::memcmp(&m1, &m2, 4), 0);
  EXPECT_EQ(std::memcmp(&v1, &v2, 4), 0);
}

// 2^20 values near 1e9 with unit spread: the one-pass E[x^2] - E[x]^2 loses every digit in
// float64; the two-pass variance keeps them.
TEST_P(Moments, TwoPassVarianceSurvivesWhereOnePassFails) {
  const std::string target = GetParam();
  LOOM_STATS_SKIP_UNAVAILABLE(target);
  const std::int64_t n = 1 << 20;
  std::vector<double> v(static_cast<std::size_t>(n));
  std::uint64_t z = 11;
  for (auto& e : v) {
    z = z * 6364136223846793005ull + 1442695040888963407ull;
    e = 1e9 + static_cast<double>(z >> 11) / 9007199254740992.0;
  }
  std::vector<long double> lv(v.begin(), v.end());
  const long double want = ref_var(lv, 0);
  double s = 0, s2 = 0;  // the one-pass formula in float64
  for (double e : v) {
    s += e;
    s2 += e * e;
  }
  const double naive = s2 / n - (s / n) * (s / n);
  const double got =
      rt().to_host(loom::stats::var(rt(), loom::from_vector(v), {.target = target})).item<double>();
  EXPECT_GT(std::fabs(naive - (double)want) / (double)want, 1e-2)
      << "the one-pass formula should fail here";
  EXPECT_LT(std::fabs(got - (double)want) / (double)want, 1e-9) << got << " vs " << (double)want;
}

INSTANTIATE_TEST_SUITE_P(Targets, Moments, ::testing::ValuesIn(kTargets), target_name);

}  // namespace
}  // namespace loom_stats_test
