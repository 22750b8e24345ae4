// Core views as Eigen objects. Outputs are written through an Eigen::Map over the view's own memory
// where its strides are positive multiples of the element size, else element by element (Eigen's
// Map takes no negative or zero strides). Inputs of the factorizations are copied into the
// factorization's storage, which it overwrites (as LAPACK's, and NumPy copies there too); vector
// inputs are mapped where they are contiguous (with_vector).
#pragma once
#include <Eigen/Dense>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "loom/view.hpp"

namespace loom::linalg {

template <class T>
using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T>
using Vec = Eigen::Matrix<T, Eigen::Dynamic, 1>;
using DynStride = Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>;
template <class T>
using CMap = Eigen::Map<const Mat<T>, Eigen::Unaligned, DynStride>;
template <class T>
using MMap = Eigen::Map<Mat<T>, Eigen::Unaligned, DynStride>;

// Real type of T (float for std::complex<float>).
template <class T>
struct real_of {
  using type = T;
};
template <class T>
struct real_of<std::complex<T>> {
  using type = T;
};
template <class T>
using real_t = typename real_of<T>::type;

template <class T>
bool mappable(std::int64_t s) {
  return s > 0 && s % static_cast<std::int64_t>(sizeof(T)) == 0;
}

template <class T>
bool mappable(const View<T, 2>& v) {
  using U = std::remove_const_t<T>;
  return mappable<U>(v.strides[0]) && mappable<U>(v.strides[1]);
}

template <class T>
CMap<T> map(const View<const T, 2>& v) {
  constexpr auto k = static_cast<std::int64_t>(sizeof(T));
  return CMap<T>(v.data, v.shape[0], v.shape[1], DynStride(v.strides[0] / k, v.strides[1] / k));
}
template <class T>
MMap<T> map(const View<T, 2>& v) {
  constexpr auto k = static_cast<std::int64_t>(sizeof(T));
  return MMap<T>(v.data, v.shape[0], v.shape[1], DynStride(v.strides[0] / k, v.strides[1] / k));
}

// The input copied into a dense matrix: one Eigen assignment from a Map where the strides allow,
// else element by element (any strides).
template <class T>
Mat<T> dense(const View<const T, 2>& v) {
  if (mappable(v)) return map(v);
  Mat<T> m(v.shape[0], v.shape[1]);
  for (std::int64_t i = 0; i < v.shape[0]; ++i)
    for (std::int64_t j = 0; j < v.shape[1]; ++j) m(i, j) = v(i, j);
  return m;
}

template <class T>
Vec<T> dense(const View<const T, 1>& v) {
  Vec<T> x(v.shape[0]);
  for (std::int64_t i = 0; i < v.shape[0]; ++i) x(i) = v(i);
  return x;
}

// f(x) with x the vector as an Eigen expression: a Map of a contiguous vector, else a contiguous
// copy (Eigen vectorizes only unit strides, so a strided Map would sum in another order and give
// other bits than the contiguous copy of the same data).
template <class T, class F>
auto with_vector(const View<const T, 1>& v, F&& f) {
  if (v.strides[0] == static_cast<std::int64_t>(sizeof(T))) {
    return f(Eigen::Map<const Vec<T>>(v.data, v.shape[0]));
  }
  return f(dense(v));
}

// out = m, through a Map where out's strides allow.
template <class T, class M>
void store(const View<T, 2>& out, const M& m) {
  if (mappable(out)) {
    map(out) = m;
    return;
  }
  for (std::int64_t i = 0; i < out.shape[0]; ++i)
    for (std::int64_t j = 0; j < out.shape[1]; ++j) out(i, j) = m(i, j);
}
template <class T, class M>
void store(const View<T, 1>& out, const M& v) {
  for (std::int64_t i = 0; i < out.shape[0]; ++i) out(i) = v(i);
}

template <class T, int N>
void fill_nan(const View<T, N>& out) {
  using R = real_t<T>;
  const T nan = T(std::numeric_limits<R>::quiet_NaN());
  if constexpr (N == 1) {
    for (std::int64_t i = 0; i < out.shape[0]; ++i) out(i) = nan;
  } else {
    for (std::int64_t i = 0; i < out.shape[0]; ++i)
      for (std::int64_t j = 0; j < out.shape[1]; ++j) out(i, j) = nan;
  }
}

}  // namespace loom::linalg
