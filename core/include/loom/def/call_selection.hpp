// Which operator() of a functor a signature's loop calls: the template arguments tried in order,
// the exact member types looked for, and how a gufunc loop calls the one chosen. Host and nvcc
// alike.
#pragma once
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "loom/def/signature_rules.hpp"

namespace loom::def::detail {

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

}  // namespace loom::def::detail
