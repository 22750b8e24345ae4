// The linalg gufuncs' device loops: LOOM_HD functors called once per instance (one GPU thread a
// matrix, def/gufunc.cuh), for the small sizes where a batch of matrices spends its time. The
// factorizations work in the thread's own memory (kSmall x kSmall at most); larger instances go to
// cuBLAS / cuSOLVER (toolkit loops, linalg_lu.cu, linalg_eig.cu). Singular and indefinite instances
// get what the host loops give (host_ops.hpp, docs/linalg.md). Only included by .cu files.
#pragma once
#include <cuda/std/complex>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

#include "loom/def/complex.cuh"
#include "loom/hd.hpp"
#include "loom/view.hpp"

namespace loom::linalg::dev {

// The largest n the factorizing device loops take: a complex128 8 x 8 matrix is 1 KiB a thread.
inline constexpr int kSmall = 8;

template <class T>
struct real_of {
  using type = T;
};
template <class T>
struct real_of<cuda::std::complex<T>> {
  using type = T;
};
template <class T>
using real_t = typename real_of<T>::type;
template <class T>
inline constexpr bool is_complex = !cuda::std::is_same_v<T, real_t<T>>;

template <class T>
LOOM_HD real_t<T> abs_of(T x) {
  if constexpr (is_complex<T>) {
    return cuda::std::abs(x);  // hypot: no overflow for large parts
  } else {
    return x < T(0) ? -x : x;
  }
}
template <class T>
LOOM_HD T conj_of(T x) {
  if constexpr (is_complex<T>) {
    return cuda::std::conj(x);
  } else {
    return x;
  }
}
template <class T>
LOOM_HD real_t<T> real_part(T x) {
  if constexpr (is_complex<T>) {
    return x.real();
  } else {
    return x;
  }
}
// NaN as the host loops write it (fill_nan: T(NaN), a complex one with imaginary part 0).
template <class T>
LOOM_HD T nan_of() {
  return T(cuda::std::numeric_limits<real_t<T>>::quiet_NaN());
}

template <class T, int N>
LOOM_HD void fill_nan(const View<T, N>& out) {
  if constexpr (N == 1) {
    for (std::int64_t i = 0; i < out.shape[0]; ++i) out(i) = nan_of<T>();
  } else {
    for (std::int64_t i = 0; i < out.shape[0]; ++i)
      for (std::int64_t j = 0; j < out.shape[1]; ++j) out(i, j) = nan_of<T>();
  }
}

// a's LU with partial pivoting in the thread's memory, as LAPACK's getrf (which NumPy calls):
// the row of the largest |a_ik| (the first on ties) is the pivot, and an exactly zero pivot makes
// the matrix singular (that column is then left as it is). lu is n x n row-major (n <= kSmall),
// piv[k] the row swapped with row k.
template <class T>
struct Lu {
  T lu[kSmall * kSmall];
  int piv[kSmall];
  int n = 0;
  bool singular = false;
  bool odd = false;  // an odd number of row swaps: det's sign flips

  LOOM_HD T& at(int i, int j) { return lu[i * kSmall + j]; }
  LOOM_HD T at(int i, int j) const { return lu[i * kSmall + j]; }

  LOOM_HD explicit Lu(const View<const T, 2>& a) : n(static_cast<int>(a.shape[0])) {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) at(i, j) = a(i, j);
    for (int k = 0; k < n; ++k) {
      int p = k;
      real_t<T> big = abs_of(at(k, k));
      for (int i = k + 1; i < n; ++i) {
        const real_t<T> v = abs_of(at(i, k));
        if (v > big) big = v, p = i;
      }
      piv[k] = p;
      if (p != k) {
        odd = !odd;
        for (int j = 0; j < n; ++j) {
          const T t = at(k, j);
          at(k, j) = at(p, j);
          at(p, j) = t;
        }
      }
      if (at(k, k) == T(0)) {
        singular = true;
        continue;
      }
      for (int i = k + 1; i < n; ++i) {
        const T l = at(i, k) / at(k, k);
        at(i, k) = l;
        for (int j = k + 1; j < n; ++j) at(i, j) -= l * at(k, j);
      }
    }
  }

  // x = a^-1 x in place (x: the rows of one right-hand side, given by its view and column).
  template <class X>
  LOOM_HD void solve(X& x) const {
    for (int k = 0; k < n; ++k) {
      if (piv[k] != k) {
        const T t = x[k];
        x[k] = x[piv[k]];
        x[piv[k]] = t;
      }
    }
    for (int i = 1; i < n; ++i)
      for (int j = 0; j < i; ++j) x[i] -= at(i, j) * x[j];
    for (int i = n - 1; i >= 0; --i) {
      for (int j = i + 1; j < n; ++j) x[i] -= at(i, j) * x[j];
      x[i] /= at(i, i);
    }
  }
};

// Lu for a size known when compiling (n = 2, 3, 4, where a batch of small matrices spends its
// time): the same steps in the same order, so the same bits, with every index a constant and the
// pivot's row swap a predicated exchange, so the matrix stays in registers (Lu's runtime indices
// put it in the thread's local memory).
template <class T, int N>
struct LuN {
  T m[N][N];
  int piv[N];
  bool singular = false;
  bool odd = false;

  LOOM_HD explicit LuN(const View<const T, 2>& a) {
#pragma unroll
    for (int i = 0; i < N; ++i)
#pragma unroll
      for (int j = 0; j < N; ++j) m[i][j] = a(i, j);
#pragma unroll
    for (int k = 0; k < N; ++k) {
      int p = k;
      real_t<T> big = abs_of(m[k][k]);
#pragma unroll
      for (int i = k + 1; i < N; ++i) {
        const real_t<T> v = abs_of(m[i][k]);
        if (v > big) big = v, p = i;
      }
      piv[k] = p;
      odd = odd != (p != k);
#pragma unroll
      for (int i = k + 1; i < N; ++i) {
        if (i == p) {
#pragma unroll
          for (int j = 0; j < N; ++j) {
            const T t = m[k][j];
            m[k][j] = m[i][j];
            m[i][j] = t;
          }
        }
      }
      if (m[k][k] == T(0)) {
        singular = true;
        continue;
      }
#pragma unroll
      for (int i = k + 1; i < N; ++i) {
        const T l = m[i][k] / m[k][k];
        m[i][k] = l;
#pragma unroll
        for (int j = k + 1; j < N; ++j) m[i][j] -= l * m[k][j];
      }
    }
  }

  // x = a^-1 x in place, x in registers.
  LOOM_HD void solve(T (&x)[N]) const {
#pragma unroll
    for (int k = 0; k < N; ++k) {
#pragma unroll
      for (int i = k + 1; i < N; ++i) {
        if (i == piv[k]) {
          const T t = x[k];
          x[k] = x[i];
          x[i] = t;
        }
      }
    }
#pragma unroll
    for (int i = 1; i < N; ++i)
#pragma unroll
      for (int j = 0; j < i; ++j) x[i] -= m[i][j] * x[j];
#pragma unroll
    for (int i = N - 1; i >= 0; --i) {
#pragma unroll
      for (int j = i + 1; j < N; ++j) x[i] -= m[i][j] * x[j];
      x[i] /= m[i][i];
    }
  }
};

// f(std::integral_constant<int, n>) for n = 2, 3, 4; false (f not called) for other sizes.
template <class F>
LOOM_HD bool with_fixed(std::int64_t n, F&& f) {
  switch (n) {
    case 2:
      f(cuda::std::integral_constant<int, 2>{});
      return true;
    case 3:
      f(cuda::std::integral_constant<int, 3>{});
      return true;
    case 4:
      f(cuda::std::integral_constant<int, 4>{});
      return true;
    default:
      return false;
  }
}

// "(m?,n),(n,p?)->(m?,p?)": c = a @ b, one dot product an element in order k = 0 .. n-1.
struct Matmul {
  template <class T>
  LOOM_HD void operator()(View<const T, 2> a, View<const T, 2> b, View<T, 2> c) const {
    const std::int64_t m = a.shape[0], n = a.shape[1], p = b.shape[1];
    // Square 2 to 4: both operands in registers first (the same sums in the same order).
    if (m == n && n == p && with_fixed(n, [&](auto size) {
          constexpr int N = decltype(size)::value;
          T x[N][N], y[N][N];
#pragma unroll
          for (int i = 0; i < N; ++i)
#pragma unroll
            for (int k = 0; k < N; ++k) x[i][k] = a(i, k), y[i][k] = b(i, k);
#pragma unroll
          for (int i = 0; i < N; ++i)
#pragma unroll
            for (int j = 0; j < N; ++j) {
              T s = T(0);
#pragma unroll
              for (int k = 0; k < N; ++k) s += x[i][k] * y[k][j];
              c(i, j) = s;
            }
        }))
      return;
    for (std::int64_t i = 0; i < m; ++i) {
      for (std::int64_t j = 0; j < p; ++j) {
        T s = T(0);
        for (std::int64_t k = 0; k < n; ++k) s += a(i, k) * b(k, j);
        c(i, j) = s;
      }
    }
  }
};

// "(n,n)->()": the product of the LU's pivots, signed by the row swaps (0 where singular; 1 for
// n = 0). Larger n: the toolkit loop (getrfBatched).
struct Det {
  template <class T>
  LOOM_HD void operator()(View<const T, 2> a, T& out) const {
    if (a.shape[0] > kSmall) return void(out = nan_of<T>());  // not reached: toolkit loop
    if (with_fixed(a.shape[0], [&](auto size) {
          const LuN<T, decltype(size)::value> lu(a);
          T d = T(lu.odd ? -1 : 1);
#pragma unroll
          for (int i = 0; i < decltype(size)::value; ++i) d *= lu.m[i][i];
          out = lu.singular ? T(0) : d;
        }))
      return;
    const Lu<T> lu(a);
    T d = T(lu.odd ? -1 : 1);
    for (int i = 0; i < lu.n; ++i) d *= lu.at(i, i);
    out = lu.singular ? T(0) : d;
  }
};

// "(n,n)->(),()": sign and log|det| (singular: 0 and -inf, as NumPy).
struct Slogdet {
  template <class T>
  LOOM_HD void operator()(View<const T, 2> a, T& sign, real_t<T>& logdet) const {
    using R = real_t<T>;
    if (a.shape[0] > kSmall) {  // not reached: toolkit loop
      sign = nan_of<T>();
      logdet = nan_of<R>();
      return;
    }
    const Lu<T> lu(a);
    if (lu.singular) {
      sign = T(0);
      logdet = -cuda::std::numeric_limits<R>::infinity();
      return;
    }
    T s = T(lu.odd ? -1 : 1);
    R l = 0;
    for (int i = 0; i < lu.n; ++i) {
      const T u = lu.at(i, i);
      const R au = abs_of(u);
      s *= u / T(au);
      l += log(au);
    }
    sign = s;
    logdet = l;
  }
};

// A column of a 2-d view as a vector the LU solves in place.
template <class T>
struct Column {
  View<T, 2> v;
  std::int64_t j;
  LOOM_HD T& operator[](int i) const { return v(i, j); }
};
template <class T>
struct Column1 {
  View<T, 1> v;
  LOOM_HD T& operator[](int i) const { return v(i); }
};

// "(n,n)->(n,n)": the inverse, column by column from the LU; NaN where singular.
struct Inv {
  template <class T>
  LOOM_HD void operator()(View<const T, 2> a, View<T, 2> out) const {
    const auto n = a.shape[0];
    if (n > kSmall) return fill_nan(out);  // not reached: toolkit loop
    bool singular = false;
    if (with_fixed(n, [&](auto size) {
          constexpr int N = decltype(size)::value;
          const LuN<T, N> lu(a);
          singular = lu.singular;
          if (singular) return;
#pragma unroll
          for (int j = 0; j < N; ++j) {
            T x[N];
#pragma unroll
            for (int i = 0; i < N; ++i) x[i] = T(i == j ? 1 : 0);
            lu.solve(x);
#pragma unroll
            for (int i = 0; i < N; ++i) out(i, j) = x[i];
          }
        })) {
      if (singular) fill_nan(out);
      return;
    }
    const Lu<T> lu(a);
    if (lu.singular) return fill_nan(out);
    for (std::int64_t j = 0; j < n; ++j) {
      for (std::int64_t i = 0; i < n; ++i) out(i, j) = T(i == j ? 1 : 0);
      Column<T> x{out, j};
      lu.solve(x);
    }
  }
};

// "(n,n),(n,k)->(n,k)" and "(n,n),(n)->(n)": x with a @ x = b; NaN where a is singular.
struct Solve {
  template <class T>
  LOOM_HD void operator()(View<const T, 2> a, View<const T, 2> b, View<T, 2> x) const {
    if (a.shape[0] > kSmall) return fill_nan(x);  // not reached: toolkit loop
    const Lu<T> lu(a);
    if (lu.singular) return fill_nan(x);
    for (std::int64_t j = 0; j < b.shape[1]; ++j) {
      for (std::int64_t i = 0; i < b.shape[0]; ++i) x(i, j) = b(i, j);
      Column<T> c{x, j};
      lu.solve(c);
    }
  }
};
struct Solve1 {
  template <class T>
  LOOM_HD void operator()(View<const T, 2> a, View<const T, 1> b, View<T, 1> x) const {
    if (a.shape[0] > kSmall) return fill_nan(x);  // not reached: toolkit loop
    const Lu<T> lu(a);
    if (lu.singular) return fill_nan(x);
    for (std::int64_t i = 0; i < b.shape[0]; ++i) x(i) = b(i);
    Column1<T> c{x};
    lu.solve(c);
  }
};

// "(n,n)->(n,n)": L with a = L L^H from a's lower triangle, built in the output itself (no
// scratch, so any n; the toolkit loop takes n > kSmall). Not positive definite, as Eigen's LLT:
// a pivot whose real part is not > 0: NaN.
struct Cholesky {
  template <class T>
  LOOM_HD void operator()(View<const T, 2> a, View<T, 2> out) const {
    using R = real_t<T>;
    const auto n = a.shape[0];
    for (std::int64_t j = 0; j < n; ++j) {
      R d = real_part(a(j, j));
      for (std::int64_t k = 0; k < j; ++k) {
        const R r = abs_of(out(j, k));
        d -= r * r;
      }
      if (!(d > R(0))) return fill_nan(out);
      const R l = sqrt(d);
      out(j, j) = T(l);
      for (std::int64_t i = j + 1; i < n; ++i) {
        T s = a(i, j);
        for (std::int64_t k = 0; k < j; ++k) s -= out(i, k) * conj_of(out(j, k));
        out(i, j) = s / T(l);
      }
      for (std::int64_t i = 0; i < j; ++i) out(i, j) = T(0);
    }
  }
};

// "(n)->()": the 2-norm scaled by the largest |x_i| against overflow and underflow (as LAPACK's
// nrm2 and Eigen's stableNorm do). A warp per vector for long ones (def/gufunc.cuh's team).
struct Norm {
  template <class T>
  LOOM_HD void operator()(View<const T, 1> x, real_t<T>& out) const {
    using R = real_t<T>;
    R big = 0;
    for (std::int64_t i = 0; i < x.shape[0]; ++i) big = fmax(big, abs_of(x(i)));
    out = finish(x, 0, 1, big, [](R v) { return v; });
  }
  template <class T, class Team>
  LOOM_HD void operator()(const Team& team, View<const T, 1> x, real_t<T>& out) const {
    using R = real_t<T>;
    R big = 0;
    for (std::int64_t i = team.rank(); i < x.shape[0]; i += team.size())
      big = fmax(big, abs_of(x(i)));
    big = team.reduce(big, [](R p, R q) { return fmax(p, q); });
    const R r = finish(x, team.rank(), team.size(), big,
                       [&](R v) { return team.reduce(v, [](R p, R q) { return p + q; }); });
    if (team.rank() == 0) out = r;
  }

 private:
  template <class T, class Sum>
  LOOM_HD static real_t<T> finish(const View<const T, 1>& x, int rank, int size, real_t<T> big,
                                  const Sum& sum) {
    using R = real_t<T>;
    // 0, inf and NaN: no scaling to do (NaN propagates through the sum of squares below).
    const bool scale = big > R(0) && big <= cuda::std::numeric_limits<R>::max();
    R s = 0;
    for (std::int64_t i = rank; i < x.shape[0]; i += size) {
      const R v = scale ? abs_of(x(i)) / big : abs_of(x(i));
      s += v * v;
    }
    s = sum(s);
    return scale ? big * sqrt(s) : sqrt(s);
  }
};

// "(n),(n)->()": sum of conj(x_i) y_i; a warp per pair of long vectors.
struct Vecdot {
  template <class T>
  LOOM_HD void operator()(View<const T, 1> x, View<const T, 1> y, T& out) const {
    T s = T(0);
    for (std::int64_t i = 0; i < x.shape[0]; ++i) s += conj_of(x(i)) * y(i);
    out = s;
  }
  template <class T, class Team>
  LOOM_HD void operator()(const Team& team, View<const T, 1> x, View<const T, 1> y, T& out) const {
    using R = real_t<T>;
    T s = T(0);
    for (std::int64_t i = team.rank(); i < x.shape[0]; i += team.size()) s += conj_of(x(i)) * y(i);
    // The warp's shuffles move built-in types: a complex sum goes as its two parts.
    const auto add = [](R p, R q) { return p + q; };
    if constexpr (is_complex<T>) {
      s = T(team.reduce(s.real(), add), team.reduce(s.imag(), add));
    } else {
      s = team.reduce(s, add);
    }
    if (team.rank() == 0) out = s;
  }
};

// "(3),(3)->(3)": the cross product.
struct Cross {
  template <class T>
  LOOM_HD void operator()(View<const T, 1> a, View<const T, 1> b, View<T, 1> out) const {
    const T a0 = a(0), a1 = a(1), a2 = a(2), b0 = b(0), b1 = b(1), b2 = b(2);
    out(0) = a1 * b2 - a2 * b1;
    out(1) = a2 * b0 - a0 * b2;
    out(2) = a0 * b1 - a1 * b0;
  }
};

}  // namespace loom::linalg::dev
