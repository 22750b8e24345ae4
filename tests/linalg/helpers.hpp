// Shared by the linalg tests: matrices of random values, their values as complex long double, the
// product and determinant in long double, and whether a target is available (and why not).
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "loom/loom.hpp"

namespace linalg_test {

using loom::Array;
using loom::DType;
using loom::Shape;
using C = std::complex<long double>;

inline loom::Runtime& runtime() {
  static loom::Runtime rt;
  return rt;
}

inline std::optional<std::string> unavailable(const std::string& target) {
  for (const auto& t : runtime().targets())
    if (t.target == target) return t.available ? std::nullopt : std::optional(t.reason);
  return "no backend for target '" + target + "'";
}

inline bool is_cx(DType t) { return t == DType::complex64 || t == DType::complex128; }
inline long double eps(DType t) {
  return (t == DType::float32 || t == DType::complex64) ? 0x1p-23L : 0x1p-52L;
}
inline DType real_of(DType t) {
  return t == DType::complex64 ? DType::float32 : t == DType::complex128 ? DType::float64 : t;
}

// Values of an array in C order as complex long double.
inline std::vector<C> vals(const Array& a) {
  if (!is_cx(a.dtype())) {
    const auto v = a.to_vector<double>();
    return {v.begin(), v.end()};
  }
  const auto v = a.to_vector<std::complex<double>>();
  std::vector<C> out;
  for (auto z : v) out.emplace_back(z.real(), z.imag());
  return out;
}

inline Array make(const std::vector<C>& v, const Shape& s, DType t) {
  std::vector<std::complex<double>> d;
  for (auto z : v) d.emplace_back(static_cast<double>(z.real()), static_cast<double>(z.imag()));
  Array a = loom::from_vector(d, s);
  return is_cx(t) ? a.astype(t) : a.astype(DType::float64).astype(t);
}

// batch matrices n x m: random in [-1, 1) (imaginary parts for complex), plus `diag` on the
// diagonal (well conditioned when diag ~ n), or Hermitian positive definite (B B^H + n I).
inline Array matrices(std::mt19937& g, int batch, int n, int m, DType t, double diag,
                      bool hpd = false) {
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<C> v(static_cast<std::size_t>(batch) * n * m);
  for (auto& z : v) z = C(u(g), is_cx(t) ? u(g) : 0.0);
  if (hpd) {
    std::vector<C> h(v.size());
    for (int b = 0; b < batch; ++b)
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          C s = i == j ? C(n) : C(0);
          for (int k = 0; k < n; ++k)
            s += v[(b * n + i) * m + k] * std::conj(v[(b * n + j) * m + k]);
          h[(b * n + i) * n + j] = s;
        }
    v = h;
  } else {
    for (int b = 0; b < batch; ++b)
      for (int i = 0; i < std::min(n, m); ++i) v[(b * n + i) * m + i] += diag;
  }
  // Rounded to the dtype first, so that the long double checks see the matrix the loop saw.
  return make(vals(make(v, {batch, n, m}, t)), {batch, n, m}, t);
}

// Product of an n x k and a k x m block of a flat batch entry.
inline std::vector<C> matmul(const C* a, const C* b, int n, int k, int m, bool conj_b_t = false) {
  std::vector<C> c(static_cast<std::size_t>(n) * m);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) {
      C s = 0;
      for (int l = 0; l < k; ++l)
        s += a[i * k + l] * (conj_b_t ? std::conj(b[j * k + l]) : b[l * m + j]);
      c[i * m + j] = s;
    }
  return c;
}

inline long double maxabs(const std::vector<C>& v, std::size_t off = 0, std::size_t n = 0) {
  long double m = 0;
  const std::size_t end = n ? off + n : v.size();
  for (std::size_t i = off; i < end; ++i) m = std::max(m, std::abs(v[i]));
  return m;
}

// The determinant in long double by Gaussian elimination with partial pivoting.
inline C det_ref(std::vector<C> a, int n) {
  C d = 1;
  for (int c = 0; c < n; ++c) {
    int p = c;
    for (int r = c + 1; r < n; ++r)
      if (std::abs(a[r * n + c]) > std::abs(a[p * n + c])) p = r;
    if (a[p * n + c] == C(0)) return 0;
    if (p != c) {
      for (int j = 0; j < n; ++j) std::swap(a[p * n + j], a[c * n + j]);
      d = -d;
    }
    d *= a[c * n + c];
    for (int r = c + 1; r < n; ++r) {
      const C f = a[r * n + c] / a[c * n + c];
      for (int j = c; j < n; ++j) a[r * n + j] -= f * a[c * n + j];
    }
  }
  return d;
}

}  // namespace linalg_test
