// The linear-algebra gufuncs' host loops, on Eigen. One call per instance (a matrix of the batch);
// outputs are written through Eigen maps of the core views where their strides allow
// (eigen_maps.hpp). Instances NumPy's np.linalg refuses (singular for inv/solve, not positive
// definite for cholesky) get NaN in every output element, as NumPy's own gufuncs
// (numpy.linalg._umath_linalg) give them; the checked calls of loom/linalg.hpp turn that NaN into a
// LinAlgError naming the instance.
#pragma once
#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/QR>
#include <Eigen/SVD>
#include <cmath>

#include "eigen_maps.hpp"

namespace loom::linalg {

namespace detail {

// |x| / x's sign for real and complex alike (NumPy's slogdet sign: x / |x|).
template <class T>
T unit(T x) {
  const auto a = std::abs(x);
  return a == 0 ? T(0) : x / T(a);
}

// LU with partial pivoting, as LAPACK's getrf that NumPy calls: an exactly zero pivot is singular.
template <class T>
bool singular(const Eigen::PartialPivLU<Mat<T>>& lu) {
  const auto& m = lu.matrixLU();
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    if (m(i, i) == T(0)) return true;
  return false;
}

// No NaN or Inf among a's elements (read in place: no copy for the small closed-form sizes).
template <class T>
bool all_finite(const View<const T, 2>& a) {
  for (std::int64_t i = 0; i < a.shape[0]; ++i)
    for (std::int64_t j = 0; j < a.shape[1]; ++j)
      if (!Eigen::numext::isfinite(a(i, j))) return false;
  return true;
}

// Closed forms for n <= 4 (Eigen's fixed-size inverse and determinant: cofactors, no pivoting),
// the sizes where a batch of small matrices spends its time; larger n goes through the LU.
template <int N, class T, class F>
bool fixed(const View<const T, 2>& a, F&& f) {
  if (a.shape[0] != N) return false;
  Eigen::Matrix<T, N, N, Eigen::RowMajor> m;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) m(i, j) = a(i, j);
  f(m);
  return true;
}

}  // namespace detail

// "(m?,n),(n,p?)->(m?,p?)": c = a @ b (np.matmul); a dropped m or p (a vector operand) reaches
// the loop as size 1, stride 0. The operands are copied into dense matrices first, so that a view
// and its contiguous copy go through the same Eigen product and give the same bits; square sizes
// up to 4 (a batch of small transforms) take Eigen's fixed-size product: no heap, unrolled.
struct Matmul {
  template <class T>
  void operator()(View<const T, 2> a, View<const T, 2> b, View<T, 2> c) const {
    const auto m = a.shape[0], n = a.shape[1], p = b.shape[1];
    if (m == 0 || p == 0) return;
    auto product = [&](const auto& x) {
      using M = std::decay_t<decltype(x)>;
      M y;
      for (int i = 0; i < M::RowsAtCompileTime; ++i)
        for (int j = 0; j < M::ColsAtCompileTime; ++j) y(i, j) = b(i, j);
      store(c, (x * y).eval());
    };
    if (m == n && n == p &&
        (detail::fixed<2>(a, product) || detail::fixed<3>(a, product) ||
         detail::fixed<4>(a, product)))
      return;
    if (n == 0) return store(c, Mat<T>::Zero(m, p));
    store(c, Mat<T>(dense(a) * dense(b)));
  }
};

// "(n,n)->()": the determinant (1 for n = 0, as NumPy).
struct Det {
  template <class T>
  void operator()(View<const T, 2> a, T& out) const {
    auto det = [&](const auto& m) { out = m.determinant(); };
    if (a.shape[0] == 0) {
      out = T(1);
    } else if (!(detail::fixed<1>(a, det) || detail::fixed<2>(a, det) || detail::fixed<3>(a, det) ||
                 detail::fixed<4>(a, det))) {
      out = Eigen::PartialPivLU<Mat<T>>(dense(a)).determinant();
    }
  }
};

// "(n,n)->(),()": sign and log|det| from the LU, as np.linalg.slogdet (singular: 0 and -inf).
struct Slogdet {
  template <class T>
  void operator()(View<const T, 2> a, T& sign, real_t<T>& logdet) const {
    using R = real_t<T>;
    const auto n = a.shape[0];
    sign = T(1);
    logdet = R(0);
    if (n == 0) return;
    const Eigen::PartialPivLU<Mat<T>> lu(dense(a));
    if (detail::singular(lu)) {
      sign = T(0);
      logdet = -std::numeric_limits<R>::infinity();
      return;
    }
    const auto& m = lu.matrixLU();
    T s = T(lu.permutationP().determinant());
    R l = 0;
    for (Eigen::Index i = 0; i < n; ++i) {
      s *= detail::unit(m(i, i));
      l += std::log(std::abs(m(i, i)));
    }
    sign = s;
    logdet = l;
  }
};

// "(n,n)->(n,n)": the inverse; NaN where the matrix is singular. A matrix holding Inf or NaN goes
// through the LU, as LAPACK's getrf/getri that NumPy calls: the cofactor closed forms divide by
// an infinite determinant (inv([[inf, 1], [1, 1]]) is [[0, -0], [0, 1]] by LU, NaN by cofactors).
struct Inv {
  template <class T>
  void operator()(View<const T, 2> a, View<T, 2> out) const {
    bool ok = true;
    auto inv = [&](const auto& m) {
      using M = std::decay_t<decltype(m)>;
      M r;
      m.computeInverseWithCheck(r, ok, real_t<T>(0));  // invertible: det != 0 exactly
      if (ok) store(out, r);
    };
    if (a.shape[0] == 0) return;
    const bool finite = a.shape[0] > 4 || detail::all_finite(a);
    if (!finite || !(detail::fixed<1>(a, inv) || detail::fixed<2>(a, inv) ||
                     detail::fixed<3>(a, inv) || detail::fixed<4>(a, inv))) {
      const Eigen::PartialPivLU<Mat<T>> lu(dense(a));
      ok = !detail::singular(lu);
      if (ok) store(out, lu.inverse());
    }
    if (!ok) fill_nan(out);
  }
};

// "(n,n),(n,k)->(n,k)" (solve) and "(n,n),(n)->(n)" (solve1, NumPy's b.ndim == 1 case): x with
// a @ x = b; NaN where a is singular.
struct Solve {
  template <class T>
  void operator()(View<const T, 2> a, View<const T, 2> b, View<T, 2> x) const {
    // Nothing to solve for (and Eigen's triangular solve binds a reference to an empty b's first
    // coefficient, undefined behaviour UBSan reports).
    if (a.shape[0] == 0 || b.shape[1] == 0) return;
    const Eigen::PartialPivLU<Mat<T>> lu(dense(a));
    if (detail::singular(lu)) return fill_nan(x);
    store(x, Mat<T>(lu.solve(dense(b))));
  }
};
struct Solve1 {
  template <class T>
  void operator()(View<const T, 2> a, View<const T, 1> b, View<T, 1> x) const {
    if (a.shape[0] == 0) return;
    const Eigen::PartialPivLU<Mat<T>> lu(dense(a));
    if (detail::singular(lu)) return fill_nan(x);
    store(x, Vec<T>(lu.solve(dense(b))));
  }
};

// "(n,n)->(n,n)": L with a = L L^H from a's lower triangle (np.linalg.cholesky, upper=False), zeros
// above the diagonal; NaN where a is not positive definite.
struct Cholesky {
  template <class T>
  void operator()(View<const T, 2> a, View<T, 2> out) const {
    if (a.shape[0] == 0) return;
    const Eigen::LLT<Mat<T>, Eigen::Lower> llt(dense(a));
    if (llt.info() != Eigen::Success) return fill_nan(out);
    store(out, Mat<T>(llt.matrixL()));
  }
};

// "(n,n)->(n),(n,n)": eigenvalues (ascending, real) and eigenvectors (columns) of a Hermitian
// matrix from its lower triangle (np.linalg.eigh, UPLO='L').
struct Eigh {
  template <class T>
  void operator()(View<const T, 2> a, View<real_t<T>, 1> w, View<T, 2> v) const {
    if (a.shape[0] == 0) return;
    const Eigen::SelfAdjointEigenSolver<Mat<T>> es(dense(a));
    if (es.info() != Eigen::Success) {
      fill_nan(w);
      return fill_nan(v);
    }
    store(w, es.eigenvalues());
    store(v, Mat<T>(es.eigenvectors()));
  }
};

// "(n,n)->(n)": eigenvalues only (np.linalg.eigvalsh).
struct Eigvalsh {
  template <class T>
  void operator()(View<const T, 2> a, View<real_t<T>, 1> w) const {
    if (a.shape[0] == 0) return;
    const Eigen::SelfAdjointEigenSolver<Mat<T>> es(dense(a), Eigen::EigenvaluesOnly);
    if (es.info() != Eigen::Success) return fill_nan(w);
    store(w, es.eigenvalues());
  }
};

// "(m,n)->(m,k=min(m,n)),(k,n)": the reduced QR (np.linalg.qr, mode='reduced'); the call sizes k
// and refuses another (the NaN below is a guard); Householder, as LAPACK's geqrf.
struct Qr {
  template <class T>
  void operator()(View<const T, 2> a, View<T, 2> q, View<T, 2> r) const {
    const auto m = a.shape[0], n = a.shape[1], k = q.shape[1];
    if (k != std::min(m, n)) {  // out= of the wrong size: no QR to give
      fill_nan(q);
      return fill_nan(r);
    }
    if (k == 0) return;
    const Eigen::HouseholderQR<Mat<T>> qr(dense(a));
    store(q, Mat<T>(qr.householderQ() * Mat<T>::Identity(m, k)));
    store(r, Mat<T>(qr.matrixQR().topRows(k).template triangularView<Eigen::Upper>()));
  }
};

// One matrix's singular values (svdvals.hpp), instantiated in linalg_svd_{f32,f64,c64,c128}.cpp:
// BDCSVD over four dtypes in one translation unit compiled for 5 minutes.
template <class T>
void svdvals_one(View<const T, 2> a, View<real_t<T>, 1> s);

// "(m,n)->(k=min(m,n))": singular values, descending (np.linalg.svd(compute_uv=False)); NaN for a
// matrix holding NaN or Inf (svdvals.hpp).
struct Svdvals {
  template <class T>
  void operator()(View<const T, 2> a, View<real_t<T>, 1> s) const {
    svdvals_one<T>(a, s);
  }
};

// "(n)->()": the 2-norm, scaled against overflow (Eigen's stableNorm), as LAPACK's nrm2.
struct Norm {
  template <class T>
  void operator()(View<const T, 1> x, real_t<T>& out) const {
    out = with_vector(x, [](const auto& v) { return v.stableNorm(); });
  }
};

// "(n),(n)->()": sum of conj(x_i) y_i (np.vecdot: the first argument conjugated).
struct Vecdot {
  template <class T>
  void operator()(View<const T, 1> x, View<const T, 1> y, T& out) const {
    // Eigen's dot conjugates its first operand too.
    out = with_vector(x, [&](const auto& a) {
      return with_vector(y, [&](const auto& b) { return T(a.dot(b)); });
    });
  }
};

// "(3),(3)->(3)": the cross product (np.cross of 3-vectors).
struct Cross {
  template <class T>
  void operator()(View<const T, 1> a, View<const T, 1> b, View<T, 1> out) const {
    const T a0 = a(0), a1 = a(1), a2 = a(2), b0 = b(0), b1 = b(1), b2 = b(2);
    out(0) = a1 * b2 - a2 * b1;
    out(1) = a2 * b0 - a0 * b2;
    out(2) = a0 * b1 - a1 * b0;
  }
};

}  // namespace loom::linalg
