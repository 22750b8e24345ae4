// Compile-time signatures: a C++ function type such as float(float, float), or
// outs<float, float>(float, float) for several outputs, printed as loom::Signature.
#pragma once
#include <tuple>
#include <type_traits>

#include "loom/dtype.hpp"
#include "loom/signature.hpp"

namespace loom::def {

template <class... O>
struct outs {};  // tag: the outputs of a several-output signature

template <class Sig>
struct sig_traits;

template <class R, class... A>
struct sig_traits<R(A...)> {
  using ins = std::tuple<A...>;
  using outs_t = std::tuple<R>;
  static constexpr int nin = sizeof...(A);
  static constexpr int nout = 1;
  static Signature signature() { return {{dtype_v<A>...}, {dtype_v<R>}}; }
};

template <class... O, class... A>
struct sig_traits<outs<O...>(A...)> {
  using ins = std::tuple<A...>;
  using outs_t = std::tuple<O...>;
  static constexpr int nin = sizeof...(A);
  static constexpr int nout = sizeof...(O);
  static Signature signature() { return {{dtype_v<A>...}, {dtype_v<O>...}}; }
};

// T for a signature T(T,T), the form a reduction, accumulate or at can use; void otherwise.
template <class Sig>
struct binary_type {
  using type = void;
};
template <class T>
struct binary_type<T(T, T)> {
  using type = T;
};

// The type a reduction of F's T(T,T) loop folds in: T itself, unless F declares a member alias
// template `fold_type`:
//   template <class T> using fold_type = std::conditional_t<std::is_same_v<T, float16_t>, float,
//   T>;
// The reduce loops (host and CUDA) then convert each element to fold_type<T> with static_cast,
// fold with F's call on that type and round to T once per fold, as NumPy's float16 add and
// multiply reduce loops accumulate in float. Elementwise calls, accumulate and at are unchanged.
template <class F, class T, class = void>
struct fold_type_of {
  using type = T;
};
template <class F, class T>
struct fold_type_of<F, T, std::void_t<typename F::template fold_type<T>>> {
  using type = typename F::template fold_type<T>;
};
template <class F, class T>
using fold_t = typename fold_type_of<F, T>::type;

// A functor opts in to the SIMD path by declaring `static constexpr bool vectorize = true;`:
// its call operator must then also compile for xsimd::batch<T> (no branches on values).
template <class F>
concept simd_functor = requires {
  requires F::vectorize;
};

}  // namespace loom::def
