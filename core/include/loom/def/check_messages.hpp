// The checks of a ufunc, reduce or gufunc line with their messages: one static_assert per rule
// broken, naming the def:: function, the rule and the parameter (docs/plugins.md lists them); and
// whether the operator() chosen takes loom::ElementIndex first. Host and nvcc alike.
#pragma once
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "loom/def/call_selection.hpp"
#include "loom/dtype.hpp"

namespace loom::def::detail {

// ---- the messages --------------------------------------------------------------------------

// One static_assert per kind, so that the message starts with the def:: function the user called.
#define LOOM_DEF_SAY(K, ok, text)                                               \
  static_assert((K) != check_kind::ufunc || (ok), "loom::def::ufunc: " text);   \
  static_assert((K) != check_kind::reduce || (ok), "loom::def::reduce: " text); \
  static_assert((K) != check_kind::gufunc || (ok), "loom::def::gufunc: " text)
// The same with the parameter's position I (from 1) in the message.
#define LOOM_DEF_SAY_AT(K, I, ok, before, after)       \
  LOOM_DEF_SAY(K, (I) != 1 || (ok), before "1" after); \
  LOOM_DEF_SAY(K, (I) != 2 || (ok), before "2" after); \
  LOOM_DEF_SAY(K, (I) != 3 || (ok), before "3" after); \
  LOOM_DEF_SAY(K, (I) != 4 || (ok), before "4" after); \
  LOOM_DEF_SAY(K, (I) != 5 || (ok), before "5" after); \
  LOOM_DEF_SAY(K, (I) != 6 || (ok), before "6" after); \
  LOOM_DEF_SAY(K, (I) != 7 || (ok), before "7" after); \
  LOOM_DEF_SAY(K, (I) != 8 || (ok), before "8" after); \
  LOOM_DEF_SAY(K, (I) != 9 || (ok), before "9" after); \
  LOOM_DEF_SAY(K, (I) <= 9 || (ok), before "10 or later" after)

template <class F>
inline constexpr bool always_false = false;

// Parameter I (from 1) of an elementwise functor: P the declared type, T the signature's.
template <check_kind K, std::size_t I, class P, class T, bool Input>
constexpr bool say_ew_param() {
  if constexpr (Input) {
    LOOM_DEF_SAY_AT(K, I, (in_type_ok<P, T>), "the functor's parameter ",
                    " is not the signature's input type at that position; take exactly that "
                    "type (a conversion would compute the loop in another type) or make "
                    "operator() a template");
    LOOM_DEF_SAY_AT(K, I, (in_pass_ok<P>), "the functor's parameter ",
                    " takes an input by non-const or rvalue reference; take it by value");
    return in_type_ok<P, T> && in_pass_ok<P>;
  } else {
    LOOM_DEF_SAY_AT(K, I, (in_type_ok<P, T>), "the functor's parameter ",
                    " is not the signature's output type at that position; take exactly that "
                    "type, by reference (O&), or make operator() a template");
    LOOM_DEF_SAY_AT(K, I, (out_ref_ok<P>), "the functor's parameter ",
                    " is an output not taken as a non-const reference; take it as O& so that "
                    "the result reaches the array");
    return in_type_ok<P, T> && out_ref_ok<P>;
  }
}

template <check_kind K, std::size_t I, class P, class T, bool Input>
constexpr bool say_gu_param() {
  LOOM_DEF_SAY_AT(K, I, (gu_type_ok<P, T>), "the functor's parameter ",
                  " is not of the signature's dtype at that position (a View's element type or "
                  "a scalar's type); take that type or make operator() a template");
  LOOM_DEF_SAY_AT(K, I, (gu_view_by_value<P>), "the functor's parameter ",
                  " takes a View by reference; take it by value (a View is a pointer, a shape "
                  "and strides)");
  if constexpr (Input) {
    LOOM_DEF_SAY_AT(K, I, (gu_view_const_ok<P, true>), "the functor's parameter ",
                    " is an input View of non-const elements; take View<const T, N>");
    LOOM_DEF_SAY_AT(K, I, (gu_pass_ok<P, true>), "the functor's parameter ",
                    " takes an input by non-const or rvalue reference; take it by value or as "
                    "View<const T, N>");
  } else {
    LOOM_DEF_SAY_AT(K, I, (gu_view_const_ok<P, false>), "the functor's parameter ",
                    " is an output View of const elements; take View<T, N>");
    LOOM_DEF_SAY_AT(K, I, (gu_pass_ok<P, false>), "the functor's parameter ",
                    " is a scalar output not taken as a non-const reference; take it as T& (or "
                    "View<T, 0>) so that the result reaches the array");
  }
  return gu_param_ok<P, T, Input>;
}

template <check_kind K, class Params, class Sig, std::size_t... I>
constexpr bool say_params(std::index_sequence<I...>) {
  using S = sig_parts<Sig>;
  using All = typename S::all;
  if constexpr (K == check_kind::gufunc) {
    return (say_gu_param<K, I + 1, std::tuple_element_t<I, Params>, std::tuple_element_t<I, All>,
                         (I < S::nin)>() &
            ... & true);
  } else {
    return (say_ew_param<K, I + 1, std::tuple_element_t<I, Params>, std::tuple_element_t<I, All>,
                         (I < S::nin)>() &
            ... & true);
  }
}

// The messages for operator() M (a member_fn) of functor F and signature Sig; true if it fits.
template <check_kind K, class F, class M, class Sig>
constexpr bool say_member() {
  using S = sig_parts<Sig>;
  using Params = operand_params<K, typename M::params>;
  constexpr std::size_t n = K == check_kind::gufunc ? S::nin + S::nout : call_arity<Sig>();
  LOOM_DEF_SAY(K, M::is_const,
               "the functor's operator() is not const; declare it `... operator()(...) const` "
               "(one instance serves every thread)");
  if constexpr (K != check_kind::ufunc && drop_index<typename M::params>::indexed) {
    LOOM_DEF_SAY(K, always_false<F>,
                 "the functor takes a loom::ElementIndex, which only def::ufunc functors take "
                 "(a reduction folds partial results, a gufunc instance has no one element)");
    return false;
  } else if constexpr (std::tuple_size_v<Params> != n) {
    if constexpr (K == check_kind::gufunc) {
      LOOM_DEF_SAY(K, always_false<F>,
                   "the functor's operator() takes another number of parameters than the "
                   "signature has operands (one per input, then one per output)");
    } else if constexpr (S::multi) {
      LOOM_DEF_SAY(K, always_false<F>,
                   "the functor's operator() takes another number of parameters than the "
                   "signature has operands (the inputs by value, then each output as O&)");
    } else {
      LOOM_DEF_SAY(K, always_false<F>,
                   "the functor's operator() takes another number of parameters than the "
                   "signature has inputs");
    }
    return false;
  } else {
    // A gufunc writes its outputs through its parameters: a returned value would be dropped.
    constexpr bool result_ok =
        K == check_kind::gufunc
            ? std::is_void_v<typename M::result>
            : S::multi || std::is_same_v<std::remove_cvref_t<typename M::result>,
                                         std::tuple_element_t<S::nin, typename S::all>>;
    if constexpr (K == check_kind::gufunc) {
      LOOM_DEF_SAY(K, result_ok,
                   "the functor's operator() returns a value, which the loop would drop; return "
                   "void and write the result into the output parameter (View<T, N> or T&)");
    } else {
      LOOM_DEF_SAY(K, result_ok,
                   "the functor's operator() returns another type than the signature's output; "
                   "return exactly that type (e.g. `T operator()(T x) const`): loom does not "
                   "convert results");
    }
    const bool params_ok = say_params<K, Params, Sig>(std::make_index_sequence<n>{});
    return M::is_const && result_ok && params_ok;
  }
}

// All checks of functor F against signature Sig; true if F fits.
template <check_kind K, class F, class Sig>
constexpr bool check_signature() {
  if constexpr (K == check_kind::reduce && std::is_void_v<typename binary_type<Sig>::type>) {
    static_assert(always_false<F>,
                  "loom::def::reduce: a reduction's signature must be T(T, T), one type for both "
                  "inputs and the output, as float(float, float)");
    return false;
  } else if constexpr (!has_call<F>) {
    LOOM_DEF_SAY(K, always_false<F>,
                 "the functor has no operator(); give it a const call operator taking the "
                 "signature's types (docs/plugins.md, \"What a functor must look like\")");
    return false;
  } else if constexpr (plain_call<F>) {
    using M = member_fn<decltype(&F::operator())>;
    constexpr bool vectorize_ok = K == check_kind::gufunc || !simd_functor<F>;
    LOOM_DEF_SAY(K, vectorize_ok,
                 "the functor declares `vectorize = true` but its operator() is not a template: "
                 "the SIMD loop also calls it with xsimd::batch<T>; make operator() a template "
                 "or drop `vectorize`");
    return say_member<K, F, M, Sig>() && vectorize_ok;
  } else if constexpr (K != check_kind::gufunc &&
                       call_of_type<F, typename exact_member<F, Sig>::type>) {
    return true;  // an overload (or a template deduced from the types) takes exactly Sig's
  } else {
    using List = typename candidates<K, Sig>::type;
    using Fit = typename first_of<K, true, F, Sig, List>::type;
    using Any = typename first_of<K, false, F, Sig, List>::type;
    if constexpr (!std::is_same_v<Fit, no_candidate>) {
      return true;
    } else if constexpr (K == check_kind::ufunc &&
                         call_of_type<F, typename exact_index_member<F, Sig>::type>) {
      return true;  // an overload taking ElementIndex, then exactly Sig's types (after the
                    // templates: probing them with an ElementIndex would instantiate the body
                    // of an `auto` operator() such as math's Half<F> with it)
    } else if constexpr (!std::is_same_v<Any, no_candidate>) {
      return say_member<K, F, typename template_fn<F, Any>::type, Sig>();
    } else if constexpr (K == check_kind::gufunc) {
      LOOM_DEF_SAY(K, always_false<F>,
                   "no operator() of the functor fits this signature: a template operator() must "
                   "instantiate as operator()<T> with T one of the signature's types (or with "
                   "all of them, in order), a non-template one must take this signature's types");
      return false;
    } else {
      LOOM_DEF_SAY(K, always_false<F>,
                   "no operator() of the functor takes this signature's types: a template "
                   "operator() must instantiate as operator()<T> with T one of the signature's "
                   "types (or as operator()<the input types...>), a non-template one must take "
                   "exactly these types");
      return false;
    }
  }
}

// Whether the operator() the checks accept for Sig (found in check_signature's order) takes
// loom::ElementIndex first: the loops then pass each element's index. Never found by calling F
// with an ElementIndex, which would instantiate an `auto` operator()'s body with it.
template <class F, class Sig>
constexpr bool selects_index() {
  if constexpr (!has_call<F>) {
    return false;
  } else if constexpr (plain_call<F>) {
    return drop_index<typename member_fn<decltype(&F::operator())>::params>::indexed;
  } else if constexpr (call_of_type<F, typename exact_member<F, Sig>::type>) {
    return false;
  } else {
    using Fit = typename first_of<check_kind::ufunc, true, F, Sig,
                                  typename candidates<check_kind::ufunc, Sig>::type>::type;
    if constexpr (!std::is_same_v<Fit, no_candidate>) {
      return drop_index<typename template_fn<F, Fit>::type::params>::indexed;
    } else {
      return call_of_type<F, typename exact_index_member<F, Sig>::type>;
    }
  }
}
template <class F, class Sig>
inline constexpr bool takes_index = selects_index<F, Sig>();

// A ufunc functor that takes loom::ElementIndex declares no `vectorize`: a SIMD batch has no one
// element index.
template <check_kind K, class F, class Sig>
constexpr bool check_index() {
  if constexpr (K != check_kind::ufunc || !simd_functor<F>) {
    return true;
  } else {
    static_assert(!takes_index<F, Sig>,
                  "loom::def::ufunc: the functor takes a loom::ElementIndex and declares "
                  "`vectorize = true`; a SIMD batch has no one element index: drop `vectorize`");
    return !takes_index<F, Sig>;
  }
}

// Every signature of one def::ufunc / reduce / gufunc line (each reported, then combined).
template <check_kind K, class F, class... Sigs>
constexpr bool check_signatures() {
  // Not && : every signature is checked (and reported), not just up to the first bad one.
  return ((check_signature<K, F, Sigs>() && check_index<K, F, Sigs>() ? 1 : 0) & ... & 1) != 0;
}

#undef LOOM_DEF_SAY_AT
#undef LOOM_DEF_SAY

}  // namespace loom::def::detail
