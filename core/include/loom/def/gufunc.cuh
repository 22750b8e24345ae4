// def::gufunc<F, Sigs...>(reg, name, layout, doc), the CUDA twin of gufunc.hpp: the functor is
// called once per instance with the same View / scalar / reference arguments as on the host. Many
// small instances: one thread each (grid-stride over the loop dims). A functor that also has
//   template <class T, class Team> LOOM_HD void operator()(const Team& team, View...) const
// gets a warp per instance instead when an instance is large (its first input has at least
// kTeamMinElements core elements); Team has rank(), size() and reduce(v, op) (Kokkos's team
// policy; on the host a team would be one thread: rank 0 of size 1). A checked call
// (GufuncCall::check) runs checked twins of the thread and team kernels. Only included by .cu
// files.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "loom/def/desc.hpp"
#include "loom/def/launch.cuh"
#include "loom/def/signature_of.hpp"
#include "loom/error.hpp"
#include "loom/layout.hpp"
#include "loom/registry.hpp"
#include "loom/view.hpp"

namespace loom::def {

namespace cu {

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

// ---- staged instances: small packed instances through shared memory --------------------------
// A thread per instance reads its instance at a stride of the instance's own size, so a warp's
// load touches 32 instances' cache lines, and the functor re-reads its views (the compiler cannot
// keep them in registers across writes that might alias). When every operand's instances lie
// packed one after another (C-contiguous core, one loop dim whose stride is the core's size), a
// block instead copies its instances' bytes into shared memory with consecutive threads on
// consecutive words, runs the functor on views of the copies, and copies the outputs back the
// same way. Outputs are copied in too, so that a functor leaving part of an output alone leaves it
// as it was; an output that overlaps an input sees the input as it was before the call.

inline constexpr int kStageBytes = 40 * 1024;  // a block's copies, under the 48 KiB default
inline constexpr int kStageMinInstances = 32;  // fewer per block: not worth staging

template <int NA>
struct StagePlan {
  int per_block = 0;    // instances a block stages at once
  int bytes[NA] = {};   // one instance of operand a, packed
  int stride[NA] = {};  // its copy's size in shared memory (padded against bank conflicts)
  int region[NA] = {};  // operand a's copies: offset in the block's shared memory
  int unit[NA] = {};    // bytes a thread moves at once (the element size, at most 8)
  int nin = 0;          // operands copied back: nin .. NA-1
};

template <class D>
struct elem_of {  // a scalar or reference argument: itself
  using type = D;
};
template <class T, int N>
struct elem_of<View<T, N>> {
  using type = T;
};
template <class D>
constexpr int elem_bytes() {
  return static_cast<int>(sizeof(typename elem_of<D>::type));
}

template <class U>
__device__ __forceinline__ void stage_units(char* smem, char* glob, int count, int bytes,
                                            int stride, bool in) {
  const int total = count * (bytes / static_cast<int>(sizeof(U)));
  for (int w = threadIdx.x; w < total; w += blockDim.x) {
    const int byte = w * static_cast<int>(sizeof(U));
    const int inst = byte / bytes;
    U* sh = reinterpret_cast<U*>(smem + inst * stride + (byte - inst * bytes));
    U* gl = reinterpret_cast<U*>(glob + byte);
    if (in) {
      *sh = *gl;
    } else {
      *gl = *sh;
    }
  }
}

__device__ __forceinline__ void stage_copy(char* smem, char* glob, int count, int bytes, int stride,
                                           int unit, bool in) {
  switch (unit) {
    case 8:
      return stage_units<std::uint64_t>(smem, glob, count, bytes, stride, in);
    case 4:
      return stage_units<std::uint32_t>(smem, glob, count, bytes, stride, in);
    case 2:
      return stage_units<std::uint16_t>(smem, glob, count, bytes, stride, in);
    default:
      return stage_units<std::uint8_t>(smem, glob, count, bytes, stride, in);
  }
}

template <class F, class Targs, class Args, std::size_t... I>
__device__ __forceinline__ void gu_staged_one(const F& f, const GuParams<Args>& p, char* const* ptr,
                                              std::index_sequence<I...>) {
  gufunc_invoke<F, Targs>::call(
      f, make_arg<std::tuple_element_t<I, Args>>(ptr[I], get<I>(p.protos))...);
}

template <class F, class Targs, class Args>
__global__ void gu_staged(F f, GuParams<Args> p, StagePlan<GuParams<Args>::NA> s) {
  constexpr int NA = GuParams<Args>::NA;
  extern __shared__ __align__(16) char loom_stage[];
  const std::int64_t per = s.per_block;
  for (std::int64_t first = blockIdx.x * per; first < p.outer.n; first += gridDim.x * per) {
    const int count = static_cast<int>(p.outer.n - first < per ? p.outer.n - first : per);
#pragma unroll
    for (int a = 0; a < NA; ++a) {
      stage_copy(loom_stage + s.region[a], p.outer.base[a] + first * s.bytes[a], count, s.bytes[a],
                 s.stride[a], s.unit[a], true);
    }
    __syncthreads();
    for (int j = threadIdx.x; j < count; j += blockDim.x) {
      char* ptr[NA];
#pragma unroll
      for (int a = 0; a < NA; ++a) ptr[a] = loom_stage + s.region[a] + j * s.stride[a];
      gu_staged_one<F, Targs>(f, p, ptr, std::make_index_sequence<NA>{});
    }
    __syncthreads();
    for (int a = s.nin; a < NA; ++a) {
      stage_copy(loom_stage + s.region[a], p.outer.base[a] + first * s.bytes[a], count, s.bytes[a],
                 s.stride[a], s.unit[a], false);
    }
    __syncthreads();  // the next round's copies overwrite these
  }
}

// The plan for a call, or per_block = 0 where the operands are not packed (broadcast, strided,
// several loop dims) or an instance is too large to stage enough of them.
template <class Args, std::size_t... I>
StagePlan<static_cast<int>(sizeof...(I))> stage_plan(const GufuncCall& c,
                                                     const std::vector<int>& offsets,
                                                     const std::vector<int>& ixs, int nin,
                                                     std::index_sequence<I...>) {
  constexpr int NA = static_cast<int>(sizeof...(I));
  StagePlan<NA> s;
  if (c.outer.shape.size() != 1) return s;
  bool ok = true;
  int per_instance = 0;
  (
      [&] {
        using D = std::remove_cvref_t<std::tuple_element_t<I, Args>>;
        constexpr int N = arg_rank<D>::value;
        constexpr int S = elem_bytes<D>();
        std::int64_t bytes = S;
        for (int k = N - 1; k >= 0; --k) {  // packed C order (any stride on a dim of 1)
          const std::int64_t dim = c.core_dims[ixs[offsets[I] + k]];
          if (dim != 1 && c.core_steps[offsets[I] + k] != bytes) ok = false;
          bytes *= dim;
        }
        if (bytes == 0 || bytes > kStageBytes / kStageMinInstances) ok = false;
        if (c.outer.shape[0] > 1 && c.outer.strides[I][0] != bytes) ok = false;
        const int unit = S < 8 ? S : 8;
        if (reinterpret_cast<std::uintptr_t>(c.outer.base[I]) % unit != 0) ok = false;
        if (!ok) return;
        // An odd number of elements between copies: consecutive threads' elements fall in
        // different banks.
        const std::int64_t stride = (bytes / S) % 2 == 1 ? bytes : bytes + S;
        s.bytes[I] = static_cast<int>(bytes);
        s.stride[I] = static_cast<int>(stride);
        s.unit[I] = unit;
        per_instance += static_cast<int>(stride);
      }(),
      ...);
  if (!ok) return s;
  int per_block = (kStageBytes - 16 * NA) / per_instance;
  if (per_block > kThreads) per_block = kThreads;
  if (per_block < kStageMinInstances) return s;
  int at = 0;
  for (int a = 0; a < NA; ++a) {
    s.region[a] = at;
    at += (per_block * s.stride[a] + 15) / 16 * 16;
  }
  s.per_block = per_block;
  s.nin = nin;
  return s;
}

template <class F, class Targs, class... P>
constexpr bool team_ok(std::tuple<P...>*) {
  return gufunc_invoke<F, Targs>::template callable<const WarpTeam&, P...>;
}

// What a gufunc loop needs besides its pointers: the functor and each argument's core dims.
template <class F>
struct GuData {
  F f{};
  int nargs = 0;
  int nin = 0;
  std::vector<int> offsets;  // into ixs, per argument
  std::vector<int> ixs;      // core dim index of each argument's core dims
};

template <class Args, std::size_t... I>
void fill_protos(GuParams<Args>& p, const GufuncCall& c, const std::vector<int>& offsets,
                 const std::vector<int>& ixs, std::index_sequence<I...>) {
  (
      [&] {
        using D = std::remove_cvref_t<std::tuple_element_t<I, Args>>;
        constexpr int N = arg_rank<D>::value;
        // A rank-0 View (a "()" argument taken as View<T, 0>) is a view too: its proto is that
        // View with nothing to fill, not the byte that scalars and references get.
        if constexpr (is_view<D>::value) {
          auto& v = get<I>(p.protos);
          v.data = nullptr;
          for (int k = 0; k < N; ++k) {
            v.shape[k] = c.core_dims[ixs[offsets[I] + k]];
            v.strides[k] = c.core_steps[offsets[I] + k];
          }
        } else {
          get<I>(p.protos) = 0;
        }
      }(),
      ...);
}

// The loop of signature Sig.
template <class F, class Sig>
void gu_launch(const GufuncCall& c, const void* data) {
  using Targs = typename gufunc_call<F, Sig>::targs;
  using Args = gufunc_args<F, Sig>;
  constexpr int NA = static_cast<int>(std::tuple_size_v<Args>);
  static_assert(NA <= kMaxOperands, "the CUDA gufunc loops take at most 8 operands");
  const GuData<F>& g = *static_cast<const GuData<F>*>(data);
  const std::int64_t n = c.outer.size();
  if (n <= 0) return;
  GuParams<Args> p;
  p.outer = make_strided<NA>(c.outer, "gufunc CUDA loop");
  fill_protos(p, c, g.offsets, g.ixs, std::make_index_sequence<NA>{});
  const cudaStream_t stream = stream_of(c.stream);
  bool team = false;
  if constexpr (team_ok<F, Targs>(static_cast<Args*>(nullptr))) {
    std::int64_t core = 1;
    using D0 = std::remove_cvref_t<std::tuple_element_t<0, Args>>;
    for (int k = 0; k < arg_rank<D0>::value; ++k) core *= c.core_dims[g.ixs[g.offsets[0] + k]];
    team = arg_rank<D0>::value > 0 && core >= kTeamMinElements;
    if (team && c.check) {  // the checked call runs the functor the fast one would run
      constexpr auto kernel = &gu_team_checked<F, Targs, Args>;
      kernel<<<grid_for<kernel>(n * 32), kThreads, 0, stream>>>(g.f, p, c.check);
    } else if (team) {
      constexpr auto kernel = &gu_team<F, Targs, Args>;
      kernel<<<grid_for<kernel>(n * 32), kThreads, 0, stream>>>(g.f, p);
    }
  }
  if (!team && c.check) {
    constexpr auto kernel = &gu_thread_checked<F, Targs, Args>;
    kernel<<<grid_for<kernel>(n), kThreads, 0, stream>>>(g.f, p, c.check);
  } else if (!team) {
    const StagePlan<NA> plan =
        stage_plan<Args>(c, g.offsets, g.ixs, g.nin, std::make_index_sequence<NA>{});
    if (plan.per_block > 0) {
      constexpr auto kernel = &gu_staged<F, Targs, Args>;
      int smem = 0;
      for (int a = 0; a < NA; ++a) smem += (plan.per_block * plan.stride[a] + 15) / 16 * 16;
      int per_sm = 0;
      if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, smem) !=
          cudaSuccess) {
        (void)cudaGetLastError();
        per_sm = 1;
      }
      const std::int64_t need = (n + plan.per_block - 1) / plan.per_block;
      const std::int64_t full = std::int64_t{current_sms()} * (per_sm > 0 ? per_sm : 1);
      kernel<<<static_cast<int>(need < full ? need : full), kThreads, smem, stream>>>(g.f, p, plan);
    } else {
      constexpr auto kernel = &gu_thread<F, Targs, Args>;
      kernel<<<grid_for<kernel>(n), kThreads, 0, stream>>>(g.f, p);
    }
  }
  check_launch("gufunc kernel launch");
}

}  // namespace cu

// The registration functions' own namespace (inline: still loom::def::gufunc): a program that
// defines ops for both families links this and the host twin into one executable, where two
// definitions of one mangled name would be an ODR violation (the linker keeps one of them).
inline namespace cuda_family {

template <class F, class... Sigs>
void gufunc(Registrar& reg, std::string name, const std::string& layout, std::string doc) {
  static std::vector<std::unique_ptr<cu::GuData<F>>> keep;  // plugin lifetime
  auto g = std::make_unique<cu::GuData<F>>();
  OpDesc d =
      gufunc_desc<F, Sigs...>(std::move(name), layout, std::move(doc), [&](LoopImpl* impl, auto t) {
        using T = typename decltype(t)::type;
        impl[static_cast<int>(Family::cuda)].device_gufunc = &cu::gu_launch<F, T>;
        impl[static_cast<int>(Family::cuda)].device_checks = true;
        impl[static_cast<int>(Family::cuda)].data = g.get();
      });
  g->nargs = d.layout->nargs();
  g->nin = d.layout->nin;
  g->offsets = d.layout->core_offsets;
  g->ixs = d.layout->core_dim_ixs;
  keep.push_back(std::move(g));
  reg.add(std::move(d));
}

}  // namespace cuda_family

}  // namespace loom::def
