// The rules of "What a functor must look like" (docs/plugins.md) as booleans: whether a parameter
// fits an elementwise or gufunc operand, and whether one operator() fits a signature. Host and nvcc
// alike.
#pragma once
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "loom/def/functor_parts.hpp"
#include "loom/element_index.hpp"

namespace loom::def::detail {

// ---- the rules, as booleans ----------------------------------------------------------------

// An input of an elementwise loop: exactly its type, by value or const&.
template <class P, class A>
inline constexpr bool in_type_ok = std::is_same_v<std::remove_cvref_t<P>, A>;
template <class P>
inline constexpr bool in_pass_ok =
    !std::is_reference_v<P> ||
    (std::is_lvalue_reference_v<P> && std::is_const_v<std::remove_reference_t<P>>);
// An output taken as a parameter: exactly its type, as a non-const lvalue reference.
template <class P>
inline constexpr bool out_ref_ok =
    std::is_lvalue_reference_v<P> && !std::is_const_v<std::remove_reference_t<P>>;

// A ufunc functor's optional first parameter, loom::ElementIndex by value or const&: the loop
// passes the element's index there (docs/random.md, "Ufuncs that draw"); it is no operand.
template <class P>
inline constexpr bool index_param = std::is_same_v<std::remove_cvref_t<P>, ElementIndex>;
template <class Params>
struct drop_index {
  static constexpr bool indexed = false;
  using type = Params;
};
template <class P0, class... P>
struct drop_index<std::tuple<P0, P...>> {
  static constexpr bool indexed = index_param<P0>;
  using type = std::conditional_t<indexed, std::tuple<P...>, std::tuple<P0, P...>>;
};
// The parameters that stand for operands: a ufunc's without its leading ElementIndex.
template <check_kind K, class Params>
using operand_params =
    std::conditional_t<K == check_kind::ufunc, typename drop_index<Params>::type, Params>;

// A gufunc parameter: View<const T, N> or T for an input, View<T, N> or T& for an output, views
// by value (make_arg builds them), T the signature's dtype at that position.
template <class P>
using gu_view = view_parts<std::remove_cvref_t<P>>;
template <class P, class T>
inline constexpr bool gu_type_ok =
    gu_view<P>::is_view ? std::is_same_v<std::remove_const_t<typename gu_view<P>::elem>, T>
                        : std::is_same_v<std::remove_cvref_t<P>, T>;
template <class P>
inline constexpr bool gu_view_by_value = !gu_view<P>::is_view || !std::is_reference_v<P>;
template <class P, bool Input>
inline constexpr bool gu_view_const_ok =
    !gu_view<P>::is_view || std::is_const_v<typename gu_view<P>::elem> == Input;
template <class P, bool Input>
inline constexpr bool gu_pass_ok = gu_view<P>::is_view || (Input ? in_pass_ok<P> : out_ref_ok<P>);

template <class P, class T, bool Input>
inline constexpr bool gu_param_ok =
    gu_type_ok<P, T>&& gu_view_by_value<P>&& gu_view_const_ok<P, Input>&& gu_pass_ok<P, Input>;

template <class Params, class Sig, std::size_t... I>
constexpr bool ew_params_ok(std::index_sequence<I...>) {
  using S = sig_parts<Sig>;
  using All = typename S::all;
  return ((I < S::nin ? in_type_ok<std::tuple_element_t<I, Params>, std::tuple_element_t<I, All>> &&
                            in_pass_ok<std::tuple_element_t<I, Params>>
                      : in_type_ok<std::tuple_element_t<I, Params>, std::tuple_element_t<I, All>> &&
                            out_ref_ok<std::tuple_element_t<I, Params>>)&&...);
}
template <class Params, class Sig, std::size_t... I>
constexpr bool gu_params_ok(std::index_sequence<I...>) {
  using S = sig_parts<Sig>;
  return (gu_param_ok<std::tuple_element_t<I, Params>, std::tuple_element_t<I, typename S::all>,
                      (I < S::nin)> &&
          ...);
}

template <class Sig>
constexpr std::size_t call_arity() {
  return sig_parts<Sig>::multi ? sig_parts<Sig>::nin + sig_parts<Sig>::nout : sig_parts<Sig>::nin;
}

// M (a member_fn) fits Sig as a ufunc (K ufunc or reduce) or gufunc functor would.
template <check_kind K, class M, class Sig>
constexpr bool fits() {
  using S = sig_parts<Sig>;
  using Params = operand_params<K, typename M::params>;
  if constexpr (!M::ok || !M::is_const) {
    return false;
  } else if constexpr (K != check_kind::ufunc && drop_index<typename M::params>::indexed) {
    return false;
  } else if constexpr (K == check_kind::gufunc) {
    if constexpr (std::tuple_size_v<Params> != S::nin + S::nout ||
                  !std::is_void_v<typename M::result>) {
      return false;
    } else {
      return gu_params_ok<Params, Sig>(std::make_index_sequence<S::nin + S::nout>{});
    }
  } else if constexpr (std::tuple_size_v<Params> != call_arity<Sig>()) {
    return false;
  } else {
    constexpr bool result_ok =
        S::multi || std::is_same_v<std::remove_cvref_t<typename M::result>,
                                   std::tuple_element_t<S::nin, typename S::all>>;
    return result_ok && ew_params_ok<Params, Sig>(std::make_index_sequence<call_arity<Sig>()>{});
  }
}

}  // namespace loom::def::detail
