// Eigen interop without copies: an Eigen::Matrix, Array, Map, Ref, Block or Tensor(Map) viewed as a
// loom::Array, and a host loom::Array viewed as an Eigen::Map with its strides (docs/interop.md).
// Optional: only a program that includes this header needs Eigen (and links Eigen3::Eigen).
#pragma once
#include <Eigen/Core>
#include <algorithm>
#include <memory>
#include <string>
#include <type_traits>
#include <unsupported/Eigen/CXX11/Tensor>
#include <utility>

#include "loom/array.hpp"
#include "loom/array_interface.hpp"

namespace loom {

namespace eigen_detail {

// Eigen::half has the bits of loom's float16; every other Scalar maps through dtype_v.
template <class S>
constexpr DType dtype() {
  if constexpr (std::is_same_v<S, Eigen::half>) {
    return DType::float16;
  } else {
    static_assert(
        requires { dtype_of<S>::value; },
        "loom has no dtype for this Eigen Scalar (bool, integers, float16, float, "
        "double, std::complex<float|double>)");
    return dtype_v<S>;
  }
}

template <class E>
concept Dense = std::is_base_of_v<Eigen::DenseBase<E>, E>;
template <class E>
concept Tensor = std::is_base_of_v<Eigen::TensorBase<E, Eigen::ReadOnlyAccessors>, E> &&
    requires(E& e) {
  e.data();
  e.dimensions();
};
// An owning temporary would die at the end of the full expression, leaving a dangling view.
template <class E>
struct owning : std::bool_constant<std::is_base_of_v<Eigen::PlainObjectBase<E>, E>> {};
template <class S, int N, int O, class I>
struct owning<Eigen::Tensor<S, N, O, I>> : std::true_type {};
template <class S, class D, int O, class I>
struct owning<Eigen::TensorFixedSize<S, D, O, I>> : std::true_type {};

inline std::string dim(Eigen::Index n) {
  return n == Eigen::Dynamic ? "Dynamic" : std::to_string(n);
}

// "Eigen::Matrix<float32, Dynamic, 3, RowMajor>": the type as_eigen was asked for, in messages.
template <class M>
std::string type_name() {
  using P = std::remove_const_t<M>;
  const bool is_array = std::is_base_of_v<Eigen::ArrayBase<P>, P>;
  return std::string(std::is_const_v<M> ? "const " : "") +
         (is_array ? "Eigen::Array<" : "Eigen::Matrix<") +
         std::string(name(dtype<typename P::Scalar>())) + ", " + dim(P::RowsAtCompileTime) + ", " +
         dim(P::ColsAtCompileTime) + (P::IsRowMajor ? ", RowMajor>" : ">");
}

}  // namespace eigen_detail

// Views Eigen memory as an Array, no copy. Vectors (compile-time) become 1-d arrays, matrices 2-d
// with their row and column strides, tensors N-d in their layout (ColMajor by default). const
// objects and Maps of const data give read-only arrays. The array does not own the memory: the
// Eigen object must outlive it (owning temporaries are refused at compile time; see the
// shared_ptr overload to tie the lifetimes).
template <class E>
requires eigen_detail::Dense<std::remove_cvref_t<E>> || eigen_detail::Tensor<std::remove_cvref_t<E>>
    Array as_array(E&& e) {
  using T = std::remove_cvref_t<E>;
  if constexpr (std::is_rvalue_reference_v<E&&> && !std::is_const_v<std::remove_reference_t<E>>) {
    static_assert(!eigen_detail::owning<T>::value,
                  "as_array of a temporary Eigen object that owns its memory would dangle: name "
                  "it, or pass a std::shared_ptr to it");
  }
  using P = std::remove_pointer_t<decltype(e.data())>;  // const for const objects and Map<const>
  using S = std::remove_const_t<P>;
  constexpr DType dt = eigen_detail::dtype<S>();
  constexpr auto isz = static_cast<std::int64_t>(sizeof(S));
  Shape shape, strides;
  if constexpr (eigen_detail::Dense<T>) {
    static_assert(static_cast<bool>(T::Flags & Eigen::DirectAccessBit),
                  "as_array needs direct memory access: evaluate the expression into a Matrix "
                  "first");
    if constexpr (T::IsVectorAtCompileTime) {
      shape = {e.size()};
      strides = {e.innerStride() * isz};
    } else {
      shape = {e.rows(), e.cols()};
      strides = {e.rowStride() * isz, e.colStride() * isz};
    }
  } else {
    constexpr int n = T::NumIndices;
    const auto& d = e.dimensions();
    shape.assign(n, 0);
    strides.assign(n, 0);
    std::int64_t s = isz;
    for (int k = 0; k < n; ++k) {  // the fastest-varying axis is the last (RowMajor) or first
      const int ax = static_cast<int>(T::Layout) == Eigen::RowMajor ? n - 1 - k : k;
      shape[ax] = d[ax];
      strides[ax] = s;
      s *= d[ax];
    }
  }
  Array a = wrap(const_cast<S*>(e.data()), std::move(shape), dt, std::move(strides));
  return std::is_const_v<P> ? a.as_readonly() : a;
}

// The same view, holding `owner` alive until the last view of the array goes.
template <class E>
Array as_array(std::shared_ptr<E> owner) {
  Array v = as_array(*owner);
  Array a = wrap(
      v.data(), v.shape(), v.dtype(), v.strides(), [owner](void*) {}, Device{});
  return v.writeable() ? a : a.as_readonly();
}

// A host array viewed as Eigen memory, no copy: M is an Eigen::Matrix or Eigen::Array type (a
// vector type for 1-d arrays, a matrix type for 2-d ones), const-qualified for a read-only array.
// Any strides work (transposed, sliced, negative) as long as they are whole elements. The map
// does not hold the buffer: it is valid while some Array of that buffer lives (the argument may
// be a temporary view of a named array, not the only owner: as_eigen<M>(a.astype(...)) dangles).
// Errors:
// TypeError for another dtype, DeviceError for device arrays, ShapeError for the wrong ndim or a
// fixed size that differs, ValueError for a read-only array as a writable map, strides that are not
// whole elements, or a misaligned element 0.
template <class M>
using EigenMap = Eigen::Map<M, Eigen::Unaligned, Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>>;

template <class M>
EigenMap<M> as_eigen(const Array& a) {
  using P = std::remove_const_t<M>;
  using S = typename P::Scalar;
  static_assert(std::is_base_of_v<Eigen::PlainObjectBase<P>, P>,
                "as_eigen<M>: M is an Eigen::Matrix or Eigen::Array type (const for read-only)");
  constexpr DType dt = eigen_detail::dtype<S>();
  const ArrayInterface i = interface_of(a);  // an empty Array is refused here
  const std::string what = "as_eigen<" + eigen_detail::type_name<M>() + ">: ";
  if (!a.device().is_host()) {
    throw DeviceError(what + a.str() +
                      " is device memory, which Eigen cannot read; copy it with "
                      "Runtime::to_host first");
  }
  if (a.dtype() != dt) {
    throw TypeError(what + "the array is " + a.str() + ", not " + std::string(name(dt)) +
                    "; map it as its own dtype or convert it with astype(" + std::string(name(dt)) +
                    ")");
  }
  constexpr int want = P::IsVectorAtCompileTime ? 1 : 2;
  if (a.ndim() != want) {
    throw ShapeError(what + "needs a " + std::to_string(want) + "-d array, got " + a.str() +
                     (want == 1 ? "; map 2-d arrays as a matrix type" : "; reshape it to 2-d"));
  }
  const Eigen::Index rows =
      want == 1 ? (P::ColsAtCompileTime == 1 ? a.shape()[0] : 1) : a.shape()[0];
  const Eigen::Index cols =
      want == 1 ? (P::ColsAtCompileTime == 1 ? 1 : a.shape()[0]) : a.shape()[1];
  if ((P::RowsAtCompileTime != Eigen::Dynamic && P::RowsAtCompileTime != rows) ||
      (P::ColsAtCompileTime != Eigen::Dynamic && P::ColsAtCompileTime != cols)) {
    throw ShapeError(what + a.str() + " gives " + std::to_string(rows) + " rows and " +
                     std::to_string(cols) + " columns, not the type's fixed " +
                     eigen_detail::dim(P::RowsAtCompileTime) + " x " +
                     eigen_detail::dim(P::ColsAtCompileTime));
  }
  if (!std::is_const_v<M> && !a.writeable()) {
    throw ValueError(what + a.str() + " is read-only; map it as const " +
                     eigen_detail::type_name<P>() + " or take a copy()");
  }
  const Shape el = i.element_strides();
  if (reinterpret_cast<std::uintptr_t>(a.data()) % alignof(S) != 0) {
    throw ValueError(what + "element 0 of " + a.str() + " is at " +
                     std::to_string(reinterpret_cast<std::uintptr_t>(a.data())) +
                     ", not a multiple of the " + std::to_string(alignof(S)) +
                     "-byte alignment of its scalar; take a copy()");
  }
  // Eigen's inner stride steps along a column (col-major) or a row (row-major); a vector has
  // only an inner stride (its outer one is never multiplied by a nonzero index).
  Eigen::Index inner = el[0], outer = el[0] * std::max<Eigen::Index>(rows * cols, 1);
  if constexpr (want == 2) {
    inner = P::IsRowMajor ? el[1] : el[0];
    outer = P::IsRowMajor ? el[0] : el[1];
  }
  using Ptr = std::conditional_t<std::is_const_v<M>, const S*, S*>;
  return EigenMap<M>(reinterpret_cast<Ptr>(a.data()), rows, cols,
                     Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>(outer, inner));
}

}  // namespace loom
