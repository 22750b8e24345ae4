// Several-output ufuncs on the SIMD path (issue 13): a `vectorize` functor with outs<...> runs on
// xsimd batches for every element, contiguous, strided, reversed or into a strided out=, on cpu
// and parallel; and the example plugin's two-output Black-Scholes gives its one-output call op's
// bits and the long-double formula's value.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "host_runtime.hpp"
#include "loom/error.hpp"
#include "loom/runtime.hpp"

namespace loom {
namespace {

using loom::test::host_targets;
using loom::test::rt;

// a = 0.1 i, b = 1 / (i + 3) in dtype t: values whose sum and difference round.
std::pair<Array, Array> inputs(std::int64_t n, DType t) {
  std::vector<double> a(n), b(n);
  for (std::int64_t i = 0; i < n; ++i) {
    a[i] = 0.1 * static_cast<double>(i);
    b[i] = 1.0 / static_cast<double>(i + 3);
  }
  return {from_vector(a).astype(t), from_vector(b).astype(t)};
}

// t_addsub's three outputs against the scalar formula in the same dtype, element by element.
template <class T>
void expect_addsub(const Array& a, const Array& b, const std::vector<Array>& r,
                   const std::string& what) {
  const auto av = a.to_vector<T>(), bv = b.to_vector<T>();
  const auto s = r[0].to_vector<T>(), d = r[1].to_vector<T>(), lanes = r[2].to_vector<T>();
  ASSERT_EQ(s.size(), av.size()) << what;
  for (std::size_t i = 0; i < av.size(); ++i) {
    ASSERT_EQ(s[i], static_cast<T>(av[i] + bv[i])) << what << " [" << i << "]";
    ASSERT_EQ(d[i], static_cast<T>(av[i] - bv[i])) << what << " [" << i << "]";
    ASSERT_EQ(lanes[i], T(1)) << what << " [" << i << "] was computed by the scalar code";
  }
}

class SimdOuts : public ::testing::TestWithParam<std::string> {};

TEST_P(SimdOuts, EveryElementTakesTheBatchCode) {
  const Ufunc f = rt().ufunc("t_addsub");
  for (DType t : {DType::float32, DType::float64}) {
    // Lengths around the batch widths (4 to 16 lanes) and one that parallel splits.
    for (std::int64_t n : {0, 1, 3, 7, 8, 15, 16, 17, 31, 33, 1000, 300007}) {
      const auto [a, b] = inputs(n, t);
      const std::string what = std::string(name(t)) + " n=" + std::to_string(n) + " " + GetParam();
      CallOptions o;
      o.target = GetParam();
      auto check = [&](const Array& x, const Array& y, const std::vector<Array>& r,
                       const std::string& how) {
        if (t == DType::float32) {
          expect_addsub<float>(x, y, r, what + how);
        } else {
          expect_addsub<double>(x, y, r, what + how);
        }
      };
      check(a, b, f.call({a, b}, o), " contiguous");
      if (n < 2) continue;
      const Array as = a.slice(0, 0, n, 2), bs = b.slice(0, -1, -n - 1, -2);
      check(as, bs, f.call({as, bs}, o), " strided and reversed");
      // Into strided out= views of larger arrays.
      const std::int64_t m = as.size();
      Array o0 = zeros({2 * m}, t), o1 = zeros({2 * m}, t), o2 = zeros({2 * m}, t);
      CallOptions oo = o;
      oo.out = {o0.slice(0, 1, 2 * m, 2), o1.slice(0, 1, 2 * m, 2), o2.slice(0, 1, 2 * m, 2)};
      const auto r = f.call({as, bs}, oo);
      check(as, bs, r, " into strided out=");
      EXPECT_EQ(o0.slice(0, 0, 2 * m, 2).to_vector<double>(), std::vector<double>(m, 0.0))
          << what << ": out='s base changed outside the view";
    }
  }
}

// (call, put) of the example plugin against black_scholes_call and the long-double formula.
TEST_P(SimdOuts, BlackScholesTwoOutputsAgreeWithTheOneOutputOp) {
  if (!rt().registry().find("black_scholes")) {
    GTEST_SKIP() << "the example plugin (libloom_example.so) is not in " << LOOM_TEST_SERIAL_DIR;
  }
  const std::int64_t n = 10007;
  std::vector<double> s(n), k(n), t(n), r(n), v(n);
  for (std::int64_t i = 0; i < n; ++i) {
    const double u = static_cast<double>(i) / n;
    s[i] = 5 + 25 * u;
    k[i] = 1 + 99 * std::fmod(u * 7.3, 1.0);
    t[i] = 0.25 + 9.75 * std::fmod(u * 3.1, 1.0);
    r[i] = 0.02;
    v[i] = 0.30;
  }
  for (DType dt : {DType::float32, DType::float64}) {
    std::vector<Array> in;
    for (const auto* x : {&s, &k, &t, &r, &v}) in.push_back(from_vector(*x).astype(dt));
    CallOptions o;
    o.target = GetParam();
    const auto two = rt().ufunc("black_scholes").call(in, o);
    const Array one = rt().ufunc("black_scholes_call").call(in, o)[0];
    ASSERT_EQ(two.size(), 2u);
    EXPECT_EQ(two[0].to_vector<double>(), one.to_vector<double>())
        << name(dt) << ": the two-output op's call is not the one-output op's bits";
    const auto call = two[0].to_vector<double>(), put = two[1].to_vector<double>();
    const std::vector<double> sv = in[0].to_vector<double>(), kv = in[1].to_vector<double>(),
                              tv = in[2].to_vector<double>(), rv = in[3].to_vector<double>(),
                              vv = in[4].to_vector<double>();
    const long double tol = dt == DType::float32 ? 2e-4L : 1e-11L;  // of the spot price
    for (std::int64_t i = 0; i < n; ++i) {
      const long double S = sv[i], K = kv[i], T = tv[i], R = rv[i], V = vv[i];
      const long double vt = V * std::sqrt(T);
      const long double d1 = (std::log(S / K) + (R + 0.5L * V * V) * T) / vt, d2 = d1 - vt;
      const auto N = [](long double x) { return 0.5L * std::erfc(-x / std::sqrt(2.0L)); };
      const long double disc = std::exp(-R * T);
      const long double c = S * N(d1) - K * disc * N(d2), p = K * disc * N(-d2) - S * N(-d1);
      ASSERT_LE(std::fabs(call[i] - c), tol * S) << name(dt) << " call [" << i << "]";
      ASSERT_LE(std::fabs(put[i] - p), tol * S) << name(dt) << " put [" << i << "]";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Targets, SimdOuts, ::testing::ValuesIn(host_targets()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace loom
