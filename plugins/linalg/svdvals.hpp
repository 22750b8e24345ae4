// svdvals' loop body, included by the two translation units that instantiate it (host_ops.hpp).
#pragma once
#include <Eigen/SVD>
#include <algorithm>

#include "host_ops.hpp"

namespace loom::linalg {

// Eigen's BDCSVD (divide and conquer, as LAPACK's gesdd that NumPy calls); an out= of the wrong
// length gets NaN, as every refused instance. A matrix holding NaN or Inf has no singular values
// (LAPACK's iteration does not converge, NumPy raises "SVD did not converge"): NaN, which
// loom::linalg::svdvals turns into LinAlgError. BDCSVD would return whatever its iteration left.
template <class T>
void svdvals_one(View<const T, 2> a, View<real_t<T>, 1> s) {
  const auto k = std::min(a.shape[0], a.shape[1]);
  if (s.shape[0] != k) return fill_nan(s);
  if (k == 0) return;
  const Mat<T> m = dense(a);
  if (!m.allFinite()) return fill_nan(s);
  const Eigen::BDCSVD<Mat<T>> svd(m);
  store(s, svd.singularValues());
}

}  // namespace loom::linalg
