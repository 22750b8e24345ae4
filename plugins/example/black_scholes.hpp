// Black-Scholes prices of European options, the seeds' example: a two-output op (call and put
// from one pass over the inputs) and the call alone as a one-output op, the same formula. Both
// declare `vectorize`: the several-output loop runs on xsimd batches as the one-output loop does.
#pragma once
#include <cmath>

#include "loom/hd.hpp"

namespace loom_example {

namespace detail {

// The standard normal distribution function, N(x) = erfc(-x / sqrt 2) / 2. `using std::erfc` lets
// batches find xsimd's erfc through argument-dependent lookup.
template <class T>
LOOM_HD T cnd(T x) {
  using std::erfc;
  return T(0.5) * erfc(x * T(-0.70710678118654752440));
}

// d1 and d2 of spot s, strike k, years t, rate r, volatility v; also e^(-r t).
template <class T>
LOOM_HD void d1_d2(T s, T k, T t, T r, T v, T& d1, T& d2, T& disc) {
  using std::exp;
  using std::log;
  using std::sqrt;
  const T vt = v * sqrt(t);
  d1 = (log(s / k) + (r + T(0.5) * v * v) * t) / vt;
  d2 = d1 - vt;
  disc = exp(-r * t);
}

}  // namespace detail

// (call, put) = black_scholes(spot, strike, years, rate, volatility).
struct BlackScholes {
  static constexpr bool vectorize = true;
  template <class T>
  LOOM_HD void operator()(T s, T k, T t, T r, T v, T& call, T& put) const {
    T d1, d2, disc;
    detail::d1_d2(s, k, t, r, v, d1, d2, disc);
    const T n1 = detail::cnd(d1), n2 = detail::cnd(d2);
    call = s * n1 - k * disc * n2;
    put = k * disc * (T(1) - n2) - s * (T(1) - n1);
  }
};

// The call price alone: black_scholes's first output, as a one-output op.
struct BlackScholesCall {
  static constexpr bool vectorize = true;
  template <class T>
  LOOM_HD T operator()(T s, T k, T t, T r, T v) const {
    T d1, d2, disc;
    detail::d1_d2(s, k, t, r, v, d1, d2, disc);
    return s * detail::cnd(d1) - k * disc * detail::cnd(d2);
  }
};

}  // namespace loom_example
