// The checks of a def::kernel line with their messages: one non-template, const
// `void operator()(const loom::ThreadCtx&, P...)` (or BlockCtx), each P a View<T, D> or a scalar of
// a loom dtype (docs/plugins.md lists the messages). Host and nvcc alike.
#pragma once
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "loom/def/check_messages.hpp"
#include "loom/dtype.hpp"

namespace loom {
struct ThreadCtx;
struct BlockCtx;
}  // namespace loom

namespace loom::def::detail {

// ---- kernels ---------------------------------------------------------------------------------

#define LOOM_DEF_KERNEL_SAY_AT(I, ok, text)                                              \
  static_assert((I) != 2 || (ok), "loom::def::kernel: the functor's parameter 2 " text); \
  static_assert((I) != 3 || (ok), "loom::def::kernel: the functor's parameter 3 " text); \
  static_assert((I) != 4 || (ok), "loom::def::kernel: the functor's parameter 4 " text); \
  static_assert((I) != 5 || (ok), "loom::def::kernel: the functor's parameter 5 " text); \
  static_assert((I) != 6 || (ok), "loom::def::kernel: the functor's parameter 6 " text); \
  static_assert((I) != 7 || (ok), "loom::def::kernel: the functor's parameter 7 " text); \
  static_assert((I) != 8 || (ok), "loom::def::kernel: the functor's parameter 8 " text); \
  static_assert((I) != 9 || (ok), "loom::def::kernel: the functor's parameter 9 " text); \
  static_assert((I) <= 9 || (ok), "loom::def::kernel: the functor's parameter 10 or later " text)

// A kernel parameter after the ThreadCtx: View<T, D> (D 1..3, T of a dtype) or an arithmetic
// scalar of a dtype, by value or const& (the launch builds a temporary for each).
template <class P>
constexpr bool kernel_param_kind_ok() {
  using D = std::remove_cvref_t<P>;
  if constexpr (view_parts<D>::is_view) {
    return view_parts<D>::rank >= 1 && view_parts<D>::rank <= 3 &&
           has_dtype<std::remove_const_t<typename view_parts<D>::elem>>;
  } else {
    return std::is_arithmetic_v<D> && has_dtype<D>;
  }
}

template <std::size_t I, class P>
constexpr bool say_kernel_param() {
  constexpr bool kind_ok = kernel_param_kind_ok<P>();
  LOOM_DEF_KERNEL_SAY_AT(I, kind_ok,
                         "is neither a loom::View<T, D> with D from 1 to 3 nor an arithmetic "
                         "scalar, T and the scalar of a loom dtype (bool, int8 ... uint64, "
                         "float, double)");
  LOOM_DEF_KERNEL_SAY_AT(I, in_pass_ok<P>,
                         "is taken by non-const or rvalue reference; take it by value");
  return kind_ok && in_pass_ok<P>;
}

template <class Params, std::size_t... I>
constexpr bool say_kernel_params(std::index_sequence<I...>) {
  return ((say_kernel_param<I + 2, std::tuple_element_t<I + 1, Params>>() ? 1 : 0) & ... & 1) != 0;
}

// One kernel overload: `void operator()(const loom::ThreadCtx&, P...) const` (or BlockCtx), a
// non-template.
template <class F>
constexpr bool check_kernel() {
  if constexpr (!has_call<F>) {
    static_assert(always_false<F>,
                  "loom::def::kernel: the functor has no operator(); write `void operator()(const "
                  "loom::ThreadCtx& t, ...) const`");
    return false;
  } else if constexpr (!plain_call<F>) {
    static_assert(always_false<F>,
                  "loom::def::kernel: the functor's operator() is a template or overloaded; a "
                  "kernel overload is one functor type with one non-template operator(): make "
                  "the struct a template (Axpy<T>) and list Axpy<float>, Axpy<double> in "
                  "def::kernel");
    return false;
  } else {
    using M = member_fn<decltype(&F::operator())>;
    using Params = typename M::params;
    static_assert(M::is_const,
                  "loom::def::kernel: the functor's operator() is not const; declare it `void "
                  "operator()(const loom::ThreadCtx& t, ...) const`");
    static_assert(std::is_void_v<typename M::result>,
                  "loom::def::kernel: the functor's operator() must return void");
    if constexpr (std::tuple_size_v<Params> == 0 ||
                  (!std::is_same_v<std::tuple_element_t<0, Params>, const ThreadCtx&> &&
                   !std::is_same_v<std::tuple_element_t<0, Params>, const BlockCtx&>)) {
      static_assert(always_false<F>,
                    "loom::def::kernel: the functor's first parameter must be `const "
                    "loom::ThreadCtx&` (a thread's view) or `const loom::BlockCtx&` (a block "
                    "kernel written as phases)");
      return false;
    } else if constexpr (std::is_same_v<std::tuple_element_t<0, Params>, const BlockCtx&> &&
                         requires { F::uses_syncthreads; }) {
      static_assert(always_false<F>,
                    "loom::def::kernel: a block kernel (first parameter `const loom::BlockCtx&`) "
                    "must not declare uses_syncthreads: each b.each_thread(...) phase ends with "
                    "the barrier; remove the declaration");
      return false;
    } else {
      const bool params_ok =
          say_kernel_params<Params>(std::make_index_sequence<std::tuple_size_v<Params> - 1>{});
      return M::is_const && std::is_void_v<typename M::result> && params_ok;
    }
  }
}

template <class... Fs>
constexpr bool check_kernels() {
  return ((check_kernel<Fs>() ? 1 : 0) & ... & 1) != 0;
}

#undef LOOM_DEF_KERNEL_SAY_AT

}  // namespace loom::def::detail
