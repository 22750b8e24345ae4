// The pieces the checks (checks.hpp) take a functor and a signature apart into: the parts of a
// member function pointer's type, whether F declares an operator() at all, a View's element and
// rank, a signature's inputs and outputs. Host and nvcc alike.
#pragma once
#include <cstddef>
#include <tuple>
#include <type_traits>

#include "loom/def/signature_of.hpp"
#include "loom/view.hpp"

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

}  // namespace loom::def::detail
