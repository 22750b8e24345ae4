// The checked twins of the gufunc kernels (GufuncCall::check): every view access is checked and a
// bad one recorded with the operand and instance (kernels.md, "Checked gufunc calls"). Only
// included by .cu files.
#pragma once
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "loom/def/desc.hpp"
#include "loom/def/gufunc_kernels.cuh"
#include "loom/def/launch.cuh"
#include "loom/view.hpp"

namespace loom::def::cu {

// ---- the checked instantiation (GufuncCall::check) ---------------------------------------------
// One ViewCheck per operand in the thread's local memory, naming the operand; the instance's index
// is written into them before the functor runs. A bad access records itself in the call's device
// record (view.hpp, view_check_failed) and reads 0 or writes nowhere. Separate kernels, so that
// the fast ones compile as they did; no staged variant (staging only moves the same bytes through
// shared memory: the checked call runs the functor on the operands themselves).

template <int NA>
__device__ __forceinline__ void init_checks(loom::detail::ViewCheck (&vc)[NA],
                                            loom::detail::CheckRecord* record) {
#pragma unroll
  for (int a = 0; a < NA; ++a) {
    vc[a].record = record;
    vc[a].arg = a;
    vc[a].block[0] = blockIdx.x;
    vc[a].thread[0] = threadIdx.x;
  }
}

template <class P>
__device__ __forceinline__ P checked_arg(char* p,
                                         const typename proto<std::remove_cvref_t<P>>::type& pr,
                                         loom::detail::ViewCheck* c) {
  using D = std::remove_cvref_t<P>;
  if constexpr (std::is_lvalue_reference_v<P> || std::is_arithmetic_v<D>) {
    (void)c;
    return make_arg<P>(p, pr);
  } else {
    D v = make_arg<P>(p, pr);
    v.check = c;
    return v;
  }
}

template <class F, class Targs, class Args, std::size_t... I>
__device__ __forceinline__ void gu_checked_one(const F& f, const GuParams<Args>& p, std::int64_t i,
                                               loom::detail::ViewCheck* vc,
                                               std::index_sequence<I...>) {
  char* ptr[sizeof...(I)];
  offsets_of(p.outer, i, ptr);
#pragma unroll
  for (int a = 0; a < static_cast<int>(sizeof...(I)); ++a) vc[a].instance = i;
  gufunc_invoke<F, Targs>::call(
      f, checked_arg<std::tuple_element_t<I, Args>>(ptr[I], get<I>(p.protos), &vc[I])...);
}

template <class F, class Targs, class Args, std::size_t... I>
__device__ __forceinline__ void gu_checked_team_one(const F& f, const GuParams<Args>& p,
                                                    std::int64_t i, loom::detail::ViewCheck* vc,
                                                    std::index_sequence<I...>) {
  char* ptr[sizeof...(I)];
  offsets_of(p.outer, i, ptr);
#pragma unroll
  for (int a = 0; a < static_cast<int>(sizeof...(I)); ++a) vc[a].instance = i;
  const WarpTeam team{};
  gufunc_invoke<F, Targs>::call(
      f, team, checked_arg<std::tuple_element_t<I, Args>>(ptr[I], get<I>(p.protos), &vc[I])...);
}

template <class F, class Targs, class Args>
__global__ void gu_thread_checked(F f, GuParams<Args> p, loom::detail::CheckRecord* record) {
  constexpr int NA = GuParams<Args>::NA;
  loom::detail::ViewCheck vc[NA];
  init_checks(vc, record);
  const std::int64_t tid = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t nth = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = tid; i < p.outer.n; i += nth) {
    gu_checked_one<F, Targs>(f, p, i, vc, std::make_index_sequence<NA>{});
  }
}

template <class F, class Targs, class Args>
__global__ void gu_team_checked(F f, GuParams<Args> p, loom::detail::CheckRecord* record) {
  constexpr int NA = GuParams<Args>::NA;
  loom::detail::ViewCheck vc[NA];
  init_checks(vc, record);
  const std::int64_t warp = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const std::int64_t nwarps = (static_cast<std::int64_t>(gridDim.x) * blockDim.x) >> 5;
  for (std::int64_t i = warp; i < p.outer.n; i += nwarps) {
    gu_checked_team_one<F, Targs>(f, p, i, vc, std::make_index_sequence<NA>{});
  }
}

}  // namespace loom::def::cu
