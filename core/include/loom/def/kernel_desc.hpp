// Descriptor building for custom kernels, shared by the host (kernel.hpp) and CUDA (kernel.cuh)
// def headers: a functor's parameters (after the ThreadCtx) as KernelParams, and the unpacking
// of a KernelArg into the View or scalar a parameter wants.
#pragma once
#include <cstring>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "loom/block_ctx.hpp"
#include "loom/def/checks.hpp"
#include "loom/def/desc.hpp"
#include "loom/kernel.hpp"
#include "loom/thread_ctx.hpp"

namespace loom::def {

namespace detail {

template <class P>
struct kernel_param_traits {  // a scalar
  using T = std::remove_cvref_t<P>;
  static_assert(std::is_arithmetic_v<T>,
                "a kernel parameter is a loom::View<T, N> or an arithmetic scalar");
  static KernelParam param() { return {false, dtype_v<T>, 0, false}; }
  LOOM_HD static T get(const KernelArg& a) {
    T v;
    memcpy(&v, a.value, sizeof(T));
    return v;
  }
};

template <class E, int N>
struct kernel_param_traits<View<E, N>> {
  static_assert(N >= 1 && N <= 3, "kernel views have 1 to 3 dimensions");
  static KernelParam param() {
    return {true, dtype_v<std::remove_const_t<E>>, N, !std::is_const_v<E>};
  }
  LOOM_HD static View<E, N> get(const KernelArg& a) {
    View<E, N> v;
    v.data = static_cast<E*>(a.data);
    for (int k = 0; k < N; ++k) {
      v.shape[k] = a.shape[k];
      v.strides[k] = a.strides[k];
    }
    return v;
  }
};

// The parameters after the ThreadCtx of F::operator() const (checks.hpp's check_kernel has made
// sure that it is one).
template <class Params>
struct kernel_member;
template <class Ctx, class... P>
struct kernel_member<std::tuple<Ctx, P...>> {
  using params = std::tuple<std::remove_cvref_t<P>...>;
};

template <class F>
using kernel_params =
    typename kernel_member<typename member_fn<decltype(&F::operator())>::params>::params;

// A block kernel: its call operator takes a BlockCtx (block_ctx.hpp).
template <class F>
constexpr bool is_block_kernel() {
  using P = typename member_fn<decltype(&F::operator())>::params;
  return std::is_same_v<std::tuple_element_t<0, P>, const BlockCtx&>;
}

template <class F>
constexpr bool uses_syncthreads() {
  if constexpr (requires { F::uses_syncthreads; }) {
    return F::uses_syncthreads;
  } else {
    return false;
  }
}

template <class Tuple, std::size_t... I>
std::vector<KernelParam> params_of(std::index_sequence<I...>) {
  return {kernel_param_traits<std::tuple_element_t<I, Tuple>>::param()...};
}

}  // namespace detail

// The functor's call operator must be `void operator()(const loom::ThreadCtx&, P...) const` with
// each P a View<T, N> (N in 1..3) or an arithmetic scalar, else checks.hpp's static_asserts say
// what to change (and nothing is built). fill(KernelImpl*, type_identity<F>) sets the build's
// family slot of each overload (one per functor type, in order).
template <class... Fs, class Fill>
KernelDesc kernel_desc(std::string name, std::string doc, Fill&& fill) {
  static_assert(sizeof...(Fs) > 0, "a kernel needs at least one functor");
  KernelDesc d;
  d.name = std::move(name);
  d.doc = std::move(doc);
  if constexpr (detail::check_kernels<Fs...>()) {
    (
        [&] {
          using Params = detail::kernel_params<Fs>;
          KernelOverload o;
          o.params =
              detail::params_of<Params>(std::make_index_sequence<std::tuple_size_v<Params>>{});
          o.uses_syncthreads = detail::uses_syncthreads<Fs>();
          o.host_path = detail::is_block_kernel<Fs>() ? HostPath::block_phases
                        : o.uses_syncthreads          ? HostPath::fibers
                                                      : HostPath::thread_loop;
          fill(o.impl, std::type_identity<Fs>{});
          d.overloads.push_back(std::move(o));
        }(),
        ...);
  }
  return d;
}

// The call's arguments unpacked as F's parameters want them (Views and scalars), once a launch
// rather than once a thread.
template <class F, std::size_t... I>
LOOM_HD detail::kernel_params<F> unpack_args(const KernelArg* args, std::index_sequence<I...>) {
  using Params = detail::kernel_params<F>;
  return Params{detail::kernel_param_traits<std::tuple_element_t<I, Params>>::get(args[I])...};
}

// A checked launch's instantiation: every View argument points at the thread's (or the host
// loop's) ViewCheck; scalars are left alone.
template <class P>
LOOM_HD void set_check(P&, loom::detail::ViewCheck*) {}
template <class E, int N>
LOOM_HD void set_check(View<E, N>& v, loom::detail::ViewCheck* c) {
  v.check = c;
}
template <class Params, std::size_t... I>
LOOM_HD void set_checks(Params& p, loom::detail::ViewCheck* c, std::index_sequence<I...>) {
  (set_check(std::get<I>(p), c), ...);
}

// Calls f(ctx, args...): ctx is the ThreadCtx, or a BlockCtx made from it for a block kernel.
template <class F, class Params, std::size_t... I>
LOOM_HD void invoke_unpacked(const F& f, const ThreadCtx& t, const Params& p,
                             std::index_sequence<I...>, const void* call = nullptr) {
  if constexpr (detail::is_block_kernel<F>()) {
    f(BlockCtx(t, call), std::get<I>(p)...);
  } else {
    (void)call;
    f(t, std::get<I>(p)...);
  }
}

// The fast instantiation's argument: a copy whose check is a null written at the call, which the
// compiler folds before it vectorizes the loop around it (a null stored further away, in the
// unpacked tuple, was folded too late and left the add_kernel thread loop scalar).
template <class P>
LOOM_HD P unchecked(P v) {
  if constexpr (requires { v.check; }) v.check = nullptr;
  return v;
}

// invoke_unpacked for one instantiation: the checked one passes the Views as they are (each
// pointing at its ViewCheck), the fast one passes copies with a literal null check.
template <bool Checked, class F, class Params, std::size_t... I>
LOOM_HD void invoke_as(const F& f, const ThreadCtx& t, const Params& p,
                       std::index_sequence<I...> seq, const void* call = nullptr) {
  if constexpr (Checked) {
    invoke_unpacked(f, t, p, seq, call);
  } else {
    ThreadCtx u = t;
    u.check = nullptr;
    if constexpr (detail::is_block_kernel<F>()) {
      f(BlockCtx(u, call), unchecked(std::get<I>(p))...);
    } else {
      (void)call;
      f(u, unchecked(std::get<I>(p))...);
    }
  }
}

}  // namespace loom::def
