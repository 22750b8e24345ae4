// Statistical sanity of Generator's arrays on large draws, with fixed seeds (so each check is
// deterministic): mean and variance within 5 standard errors, and a chi-square of 100 equally
// likely bins below 148.2 (99 degrees of freedom, p = 0.001).
#include <cmath>
#include <cstdint>

#include "helpers.hpp"

namespace loom_random_test {
namespace {

using loom::DType;
using loom::random::Generator;

constexpr std::int64_t kN = std::int64_t{1} << 20;
constexpr double kChi2Max = 148.2;

std::string fast_target() { return unavailable("parallel") ? "cpu" : "parallel"; }

template <class T>
std::vector<double> draws(loom::Array a) {
  std::vector<double> v;
  for (T x : a.to_vector<T>()) v.push_back(static_cast<double>(x));
  return v;
}

void expect_moments(const std::vector<double>& v, double mean, double var, const char* what) {
  double m = 0;
  for (double x : v) m += x;
  m /= static_cast<double>(v.size());
  double s = 0, k4 = 0;
  for (double x : v) {
    s += (x - m) * (x - m);
    k4 += (x - mean) * (x - mean) * (x - mean) * (x - mean);
  }
  s /= static_cast<double>(v.size() - 1);
  k4 /= static_cast<double>(v.size());
  const double n = static_cast<double>(v.size());
  EXPECT_NEAR(m, mean, 5 * std::sqrt(var / n)) << what << " mean";
  EXPECT_NEAR(s, var, 5 * std::sqrt((k4 - var * var) / n)) << what << " variance";
}

// bin(x) in [0, 100) for every draw, each bin equally likely.
template <class B>
double chi2(const std::vector<double>& v, B&& bin) {
  std::vector<double> count(100, 0.0);
  for (double x : v) {
    const int b = bin(x);
    EXPECT_TRUE(b >= 0 && b < 100) << x;
    if (b >= 0 && b < 100) count[b] += 1;
  }
  const double e = static_cast<double>(v.size()) / 100;
  double c = 0;
  for (double k : count) c += (k - e) * (k - e) / e;
  return c;
}

TEST(Statistics, UniformFloat64) {
  const auto v = draws<double>(Generator(20261128).uniform(
      loom_random_test::runtime(), {kN}, DType::float64, {.target = fast_target()}));
  expect_moments(v, 0.5, 1.0 / 12, "uniform float64");
  EXPECT_LT(chi2(v, [](double x) { return static_cast<int>(x * 100); }), kChi2Max);
}

TEST(Statistics, UniformFloat32) {
  const auto v = draws<float>(
      Generator(31).uniform(runtime(), {kN}, DType::float32, {.target = fast_target()}));
  expect_moments(v, 0.5, 1.0 / 12, "uniform float32");
  EXPECT_LT(chi2(v, [](double x) { return static_cast<int>(x * 100); }), kChi2Max);
}

// The normal CDF puts each draw in one of 100 equally likely bins.
int normal_bin(double z) { return static_cast<int>(0.5 * std::erfc(-z / std::sqrt(2.0)) * 100); }

TEST(Statistics, NormalFloat64) {
  const auto v = draws<double>(
      Generator(32).normal(runtime(), {kN}, DType::float64, {.target = fast_target()}));
  expect_moments(v, 0.0, 1.0, "normal float64");
  EXPECT_LT(chi2(v, normal_bin), kChi2Max);
}

TEST(Statistics, NormalFloat32) {
  const auto v = draws<float>(
      Generator(33).normal(runtime(), {kN}, DType::float32, {.target = fast_target()}));
  expect_moments(v, 0.0, 1.0, "normal float32");
  EXPECT_LT(chi2(v, normal_bin), kChi2Max);
}

TEST(Statistics, IntegersInAHundredBins) {
  const auto v = draws<std::int32_t>(
      Generator(34).integers(runtime(), -50, 50, {kN}, DType::int32, {.target = fast_target()}));
  expect_moments(v, -0.5, (100.0 * 100.0 - 1) / 12, "integers [-50, 50)");
  EXPECT_LT(chi2(v, [](double x) { return static_cast<int>(x) + 50; }), kChi2Max);
}

TEST(Statistics, IntegersOnTheSixtyFourBitPath) {
  // A span past 2^32 takes 64-bit draws: bin by the top of the range.
  const std::int64_t high = std::int64_t{100} << 40;
  const auto v = draws<std::int64_t>(
      Generator(35).integers(runtime(), 0, high, {kN}, DType::int64, {.target = fast_target()}));
  const double h = static_cast<double>(high);
  expect_moments(v, (h - 1) / 2, h * h / 12, "integers [0, 100 * 2^40)");
  EXPECT_LT(chi2(v, [](double x) { return static_cast<int>(x / std::ldexp(1.0, 40)); }), kChi2Max);
}

}  // namespace
}  // namespace loom_random_test
