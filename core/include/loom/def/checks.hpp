// Compile-time checks of a def:: table line: every declared signature must fit what the functor
// accepts for that loop, else a static_assert names the rule broken, the parameter (counted from
// 1) and what to write instead. docs/plugins.md, "What a functor must look like", lists the rules
// and these messages. The desc builders (desc.hpp, kernel_desc.hpp) run the checks and build no
// loop when they fail, so a wrong functor gives these errors and not template errors from deep
// inside the loops. Host and nvcc alike: no xsimd or CUDA header.
//
// Exact types, no conversions: a double(double) signature on a float functor would compute the
// float64 loop in float, an int64 parameter on a float signature would read 8 bytes from a 4-byte
// element. NumPy's and Numba's loops compute in the declared types; so do loom's.
#pragma once
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "loom/def/signature_of.hpp"
#include "loom/dtype.hpp"
#include "loom/element_index.hpp"
#include "loom/hd.hpp"
#include "loom/view.hpp"

namespace loom {
struct ThreadCtx;
struct BlockCtx;
}  // namespace loom

namespace loom::def::detail {

template <class... T>
struct type_list {};

enum class check_kind { ufunc, reduce, gufunc };

// The parts of a member function pointer's type; `is_const`: callable on a const functor.
template <class M>
struct member_fn {
  static constexpr bool ok = false;
  static constexpr bool is_const = false;
  using result = void;
  using params = std::tuple<>;
};
#define LOOM_DEF_MEMBER_FN(QUAL, CONST)     \
  template <class C, class R, class... P>   \
  struct member_fn<R (C::*)(P...) QUAL> {   \
    static constexpr bool ok = true;        \
    static constexpr bool is_const = CONST; \
    using result = R;                       \
    using params = std::tuple<P...>;        \
  };
LOOM_DEF_MEMBER_FN(, false)
LOOM_DEF_MEMBER_FN(const, true)
LOOM_DEF_MEMBER_FN(&, false)
LOOM_DEF_MEMBER_FN(const&, true)
LOOM_DEF_MEMBER_FN(&&, false)
LOOM_DEF_MEMBER_FN(const&&, false)
LOOM_DEF_MEMBER_FN(noexcept, false)
LOOM_DEF_MEMBER_FN(const noexcept, true)
LOOM_DEF_MEMBER_FN(&noexcept, false)
LOOM_DEF_MEMBER_FN(const& noexcept, true)
LOOM_DEF_MEMBER_FN(&&noexcept, false)
LOOM_DEF_MEMBER_FN(const&& noexcept, false)
#undef LOOM_DEF_MEMBER_FN

// One non-template operator() (the only overload).
template <class F>
concept plain_call = requires {
  &F::operator();
};
// operator()<T...> names one specialization. (Through decltype: nvcc's front end takes
// `requires { &F::template operator()<T...>; }` as false.)
template <class F, class... T>
concept template_call = requires {
  typename std::void_t<decltype(&F::template operator()<T...>)>;
};
// Some operator() (a non-template overload or a template specialization) has exactly type M.
template <class F, class M>
concept call_of_type = requires {
  static_cast<M>(&F::operator());
};

// Whether F declares any operator(): in a class derived from F and from one with an operator(),
// the name is ambiguous exactly when F has one. A final class is assumed to have one.
struct call_probe {
  void operator()(call_probe) const;
};
template <class F>
struct probed : F, call_probe {};
template <class F>
concept has_call = std::is_class_v<F> &&
    (std::is_final_v<F> || !requires { &probed<F>::operator(); });

template <class T>
concept has_dtype = requires {
  dtype_of<T>::value;
};

template <class T>
struct view_parts {
  static constexpr bool is_view = false;
  using elem = T;
};
template <class E, int N>
struct view_parts<View<E, N>> {
  static constexpr bool is_view = true;
  static constexpr int rank = N;
  using elem = E;
};

// A signature's operands: ins, outs (type_list), all (tuple, inputs first), several outputs.
template <class Sig>
struct sig_parts;
template <class R, class... A>
struct sig_parts<R(A...)> {
  using ins = type_list<A...>;
  using outs = type_list<R>;
  using all = std::tuple<A..., R>;
  static constexpr std::size_t nin = sizeof...(A);
  static constexpr std::size_t nout = 1;
  static constexpr bool multi = false;
};
template <class... O, class... A>
struct sig_parts<outs<O...>(A...)> {
  using ins = type_list<A...>;
  using outs = type_list<O...>;
  using all = std::tuple<A..., O...>;
  static constexpr std::size_t nin = sizeof...(A);
  static constexpr std::size_t nout = sizeof...(O);
  static constexpr bool multi = true;
};

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

// ---- which operator() a signature uses -----------------------------------------------------

// The template arguments tried, in order: every operand type (inputs, then outputs; for a
// gufunc or a several-output ufunc), the input types, then each operand type alone. The first
// specialization that fits the signature is used; a single-output ufunc's outputs are never a
// template argument of their own list, as a call cannot deduce them.
template <check_kind K, class Sig>
struct candidates;
template <check_kind K, class R, class... A>
struct candidates<K, R(A...)> {
  using type = std::conditional_t<
      K == check_kind::gufunc,
      type_list<type_list<A..., R>, type_list<A...>, type_list<A>..., type_list<R>>,
      type_list<type_list<A...>, type_list<A>..., type_list<R>>>;
};
template <check_kind K, class... O, class... A>
struct candidates<K, outs<O...>(A...)> {
  using type = type_list<type_list<A..., O...>, type_list<A...>, type_list<A>..., type_list<O>...>;
};

struct no_candidate {};

template <class F, class C>
struct template_fn;
template <class F, class... T>
struct template_fn<F, type_list<T...>> {
  using type = member_fn<decltype(&F::template operator()<T...>)>;
};

// The first candidate that fits (Fit true) or, for the messages, the first that resolves; each
// candidate is only tried when the ones before it did not do, since instantiating a template
// with `auto` result compiles its body.
template <check_kind K, bool Fit, class F, class Sig, class... C>
struct first_candidate {
  using type = no_candidate;
};
template <check_kind K, bool Fit, class F, class Sig, class... T, class... C>
struct first_candidate<K, Fit, F, Sig, type_list<T...>, C...> {
  static constexpr auto pick() {
    if constexpr (template_call<F, T...>) {
      if constexpr (!Fit || fits<K, typename template_fn<F, type_list<T...>>::type, Sig>()) {
        return std::type_identity<type_list<T...>>{};
      } else {
        return std::type_identity<typename first_candidate<K, Fit, F, Sig, C...>::type>{};
      }
    } else {
      return std::type_identity<typename first_candidate<K, Fit, F, Sig, C...>::type>{};
    }
  }
  using type = typename decltype(pick())::type;
};
template <check_kind K, bool Fit, class F, class Sig, class List>
struct first_of;
template <check_kind K, bool Fit, class F, class Sig, class... C>
struct first_of<K, Fit, F, Sig, type_list<C...>> {
  using type = typename first_candidate<K, Fit, F, Sig, C...>::type;
};

// The exact member function type of an operator() taking Sig's types by value (outputs by
// reference) and returning its output (void for several outputs).
template <class F, class Sig>
struct exact_member;
template <class F, class R, class... A>
struct exact_member<F, R(A...)> {
  using type = R (F::*)(A...) const;
};
template <class F, class... O, class... A>
struct exact_member<F, outs<O...>(A...)> {
  using type = void (F::*)(A..., O&...) const;
};
// The same with a leading loom::ElementIndex (a ufunc that draws).
template <class F, class Sig>
struct exact_index_member;
template <class F, class R, class... A>
struct exact_index_member<F, R(A...)> {
  using type = R (F::*)(ElementIndex, A...) const;
};
template <class F, class... O, class... A>
struct exact_index_member<F, outs<O...>(A...)> {
  using type = void (F::*)(ElementIndex, A..., O&...) const;
};

// How a gufunc loop calls F for Sig: `targs` the template arguments (void: a non-template
// operator()), `params` the parameters the loop builds.
template <class F, class Sig>
struct gufunc_call {
  static constexpr bool plain = plain_call<F>;
  using targs = typename std::conditional_t<
      plain, std::type_identity<void>,
      first_of<check_kind::gufunc, true, F, Sig,
               typename candidates<check_kind::gufunc, Sig>::type>>::type;
};
template <class F, class Targs>
struct gufunc_invoke;
template <class F>
struct gufunc_invoke<F, void> {
  using params = typename member_fn<decltype(&F::operator())>::params;
  template <class... X>
  static constexpr bool callable = requires(const F& f, X&&... x) {
    f(static_cast<X&&>(x)...);
  };
  template <class... X>
  LOOM_HD static void call(const F& f, X&&... x) {
    f(static_cast<X&&>(x)...);
  }
};
template <class F, class... T>
struct gufunc_invoke<F, type_list<T...>> {
  using params = typename member_fn<decltype(&F::template operator()<T...>)>::params;
  template <class... X>
  static constexpr bool callable = requires(const F& f, X&&... x) {
    f.template operator()<T...>(static_cast<X&&>(x)...);
  };
  template <class... X>
  LOOM_HD static void call(const F& f, X&&... x) {
    f.template operator()<T...>(static_cast<X&&>(x)...);
  }
};
// The parameters of the operator() a gufunc loop calls for Sig, and the call itself (extra
// leading arguments, such as a team, are passed before the operands).
template <class F, class Sig>
using gufunc_fn = gufunc_invoke<F, typename gufunc_call<F, Sig>::targs>;
template <class F, class Sig>
using gufunc_args = typename gufunc_fn<F, Sig>::params;

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
#undef LOOM_DEF_SAY_AT
#undef LOOM_DEF_SAY

}  // namespace loom::def::detail
