// Compile-time signatures: a C++ function type such as float(float, float), or
// outs<float, float>(float, float) for several outputs, printed as loom::Signature.
#pragma once
#include <tuple>

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

// A functor opts in to the SIMD path by declaring `static constexpr bool vectorize = true;`:
// its call operator must then also compile for xsimd::batch<T> (no branches on values).
template <class F>
concept simd_functor = requires {
  requires F::vectorize;
};

}  // namespace loom::def
