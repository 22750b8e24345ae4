// The kernels of a CUDA gufunc loop (gufunc.cuh): a thread per instance, or a warp per instance
// (WarpTeam) for a functor that takes a team; the views' prototypes a kernel fills per instance.
// Only included by .cu files.
#pragma once
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "loom/def/desc.hpp"
#include "loom/def/launch.cuh"
#include "loom/view.hpp"

namespace loom::def::cu {

inline constexpr std::int64_t kTeamMinElements = 32;

// A warp as a team: member `rank()` of `size()`; reduce() folds one value per member in a tree
// fixed by the ranks (lower ranks on the left) and gives the result to every member.
struct WarpTeam {
  LOOM_HD int rank() const {
#if defined(__CUDA_ARCH__)
    return static_cast<int>(threadIdx.x & 31);
#else
    return 0;
#endif
  }
  LOOM_HD static constexpr int size() { return 32; }
  template <class U, class Op>
  LOOM_HD U reduce(U v, const Op& op) const {
#if defined(__CUDA_ARCH__)
    const int lane = rank();
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
      const U o = __shfl_down_sync(0xffffffffu, v, off);
      if (lane + off < 32) v = op(v, o);
    }
    return __shfl_sync(0xffffffffu, v, 0);
#else
    (void)op;
    return v;
#endif
  }
  LOOM_HD void sync() const {
#if defined(__CUDA_ARCH__)
    __syncwarp();
#endif
  }
};

using detail::arg_rank;  // the traits are shared with the host build (def/desc.hpp)
using detail::gufunc_args;
using detail::gufunc_call;
using detail::gufunc_invoke;

// What a view argument's kernel parameter holds: the view with its core shape and strides (data
// set per instance); a scalar or reference argument needs nothing (a byte).
template <class P>
struct proto {
  using type = char;
};
template <class T, int N>
struct proto<View<T, N>> {
  using type = View<T, N>;
};
template <class P>
struct is_view : std::false_type {};
template <class T, int N>
struct is_view<View<T, N>> : std::true_type {};

template <class Args>
struct protos_of;
template <class... P>
struct protos_of<std::tuple<P...>> {
  using type = Tup<typename proto<std::remove_cvref_t<P>>::type...>;
};

template <class Args>
struct GuParams {
  static constexpr int NA = static_cast<int>(std::tuple_size_v<Args>);
  Strided<NA> outer;
  typename protos_of<Args>::type protos;
};

template <class P, class Proto>
__device__ __forceinline__ P make_arg(char* p, const Proto& proto) {
  using D = std::remove_cvref_t<P>;
  if constexpr (std::is_lvalue_reference_v<P>) {
    return *reinterpret_cast<D*>(p);
  } else if constexpr (std::is_arithmetic_v<D>) {
    return *reinterpret_cast<const D*>(p);
  } else {
    D v = proto;
    v.data = reinterpret_cast<decltype(v.data)>(p);
    return v;
  }
}

// Targs: the template arguments of the operator() the signature uses (void: a non-template one),
// as checks.hpp's gufunc_call picks them; a class type, not the signature's function type, which
// nvcc's host stubs mis-print (ufunc.cuh).
template <class F, class Targs, class Args, std::size_t... I>
__device__ __forceinline__ void gu_one(const F& f, const GuParams<Args>& p, std::int64_t i,
                                       std::index_sequence<I...>) {
  char* ptr[sizeof...(I)];
  offsets_of(p.outer, i, ptr);
  gufunc_invoke<F, Targs>::call(
      f, make_arg<std::tuple_element_t<I, Args>>(ptr[I], get<I>(p.protos))...);
}

template <class F, class Targs, class Args, std::size_t... I>
__device__ __forceinline__ void gu_team_one(const F& f, const GuParams<Args>& p, std::int64_t i,
                                            std::index_sequence<I...>) {
  char* ptr[sizeof...(I)];
  offsets_of(p.outer, i, ptr);
  const WarpTeam team{};
  gufunc_invoke<F, Targs>::call(
      f, team, make_arg<std::tuple_element_t<I, Args>>(ptr[I], get<I>(p.protos))...);
}

template <class F, class Targs, class Args>
__global__ void gu_thread(F f, GuParams<Args> p) {
  const std::int64_t tid = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t nth = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = tid; i < p.outer.n; i += nth) {
    gu_one<F, Targs>(f, p, i, std::make_index_sequence<GuParams<Args>::NA>{});
  }
}

template <class F, class Targs, class Args>
__global__ void gu_team(F f, GuParams<Args> p) {
  const std::int64_t warp = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const std::int64_t nwarps = (static_cast<std::int64_t>(gridDim.x) * blockDim.x) >> 5;
  for (std::int64_t i = warp; i < p.outer.n; i += nwarps) {
    gu_team_one<F, Targs>(f, p, i, std::make_index_sequence<GuParams<Args>::NA>{});
  }
}

}  // namespace loom::def::cu
