// Shared by the linalg tests: matrices of random values, their values as complex long double, the
// product and determinant in long double, eigenvalues and singular values in long double by a
// Jacobi iteration written here (never loom's), and whether a target is available (and why not).
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
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

// The eigenvalues of a real symmetric n x n matrix (row-major), ascending, by cyclic Jacobi
// rotations in long double (Golub & Van Loan 8.5): sweeps until the off-diagonal part is below
// 2^-60 of the whole (Frobenius norms) or stops shrinking (rounding's floor, near 2^-62), each
// eigenvalue then within 2^-60 |a|_F plus a few n ulps of long double of |a| (Weyl).
inline std::vector<long double> sym_eigvals(std::vector<long double> a, int n) {
  auto at = [&](int i, int j) -> long double& { return a[static_cast<std::size_t>(i) * n + j]; };
  long double total = 0, last = INFINITY;
  for (auto x : a) total += x * x;
  for (int sweep = 0; sweep < 100; ++sweep) {
    long double off = 0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        if (i != j) off += at(i, j) * at(i, j);
    if (off <= 0x1p-120L * total || off >= last) break;
    last = off;
    for (int p = 0; p < n; ++p)
      for (int q = p + 1; q < n; ++q) {
        if (at(p, q) == 0) continue;
        // The rotation that zeroes (p, q): t = tan(theta), the smaller root.
        const long double theta = (at(q, q) - at(p, p)) / (2 * at(p, q));
        const long double t =
            (theta >= 0 ? 1 : -1) / (std::fabs(theta) + std::sqrt(theta * theta + 1));
        const long double c = 1 / std::sqrt(t * t + 1), s = t * c;
        for (int k = 0; k < n; ++k) {  // columns p and q
          const long double kp = at(k, p), kq = at(k, q);
          at(k, p) = c * kp - s * kq;
          at(k, q) = s * kp + c * kq;
        }
        for (int k = 0; k < n; ++k) {  // rows p and q
          const long double pk = at(p, k), qk = at(q, k);
          at(p, k) = c * pk - s * qk;
          at(q, k) = s * pk + c * qk;
        }
      }
  }
  std::vector<long double> w(n);
  for (int i = 0; i < n; ++i) w[i] = at(i, i);
  std::sort(w.begin(), w.end());
  return w;
}

// The eigenvalues of a Hermitian n x n matrix h = X + iY, ascending: those of the real symmetric
// [[X, -Y], [Y, X]], which has each of h's twice.
inline std::vector<long double> herm_eigvals(const C* h, int n) {
  const int n2 = 2 * n;
  std::vector<long double> r(static_cast<std::size_t>(n2) * n2);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      // The mean of (i, j) and conj(j, i): the Hermitian part, as the loops read one triangle.
      const C z = (h[i * n + j] + std::conj(h[j * n + i])) / 2.0L;
      r[i * n2 + j] = r[(i + n) * n2 + j + n] = z.real();
      r[i * n2 + j + n] = -z.imag();
      r[(i + n) * n2 + j] = z.imag();
    }
  const auto w2 = sym_eigvals(std::move(r), n2);
  std::vector<long double> w(n);
  for (int i = 0; i < n; ++i) w[i] = (w2[2 * i] + w2[2 * i + 1]) / 2;
  return w;
}

// The k = min(m, n) singular values of an m x n matrix, descending: the square roots of the
// eigenvalues of A^H A (n <= m) or A A^H (m < n), both k x k, by herm_eigvals. Squaring costs
// accuracy in the small ones: sv_ref_error bounds the reference's own error.
inline std::vector<long double> svdvals_ref(const C* a, int m, int n) {
  const int k = std::min(m, n);
  std::vector<C> g(static_cast<std::size_t>(k) * k);
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < k; ++j) {
      C s = 0;
      if (n <= m) {
        for (int e = 0; e < m; ++e) s += std::conj(a[e * n + i]) * a[e * n + j];
      } else {
        for (int e = 0; e < n; ++e) s += a[i * n + e] * std::conj(a[j * n + e]);
      }
      g[i * k + j] = s;
    }
  auto w = herm_eigvals(g.data(), k);
  std::vector<long double> s(k);
  for (int i = 0; i < k; ++i) s[i] = std::sqrt(std::max(w[k - 1 - i], 0.0L));
  return s;
}

// The reference's own error in a singular value sigma of a matrix whose largest is s1: the
// eigenvalues of A^H A are within 64 max(m, n) ulps of long double of s1^2, and the square root
// divides that error by 2 sigma (or is its square root near 0).
inline long double sv_ref_error(long double sigma, long double s1, int m, int n) {
  const long double dl = 64 * std::max(m, n) * 0x1p-63L * s1 * s1;
  return sigma * sigma > dl ? dl / (2 * sigma) : std::sqrt(dl);
}

// Singular values' bound (Weyl): a backward-stable SVD moves each by at most c max(m, n) eps s1,
// s1 the largest: 8 max(m, n) ulps of the dtype at s1 (a Jacobi reference adds sv_ref_error).
inline long double sv_tol(DType t, long double s1, int m, int n) {
  return 8 * std::max(m, n) * eps(t) * s1;
}

}  // namespace linalg_test
