// Staged gufunc instances: small packed instances copied through shared memory by a block, the
// functor run on views of the copies (gufunc.cuh picks this plan when the operands allow). Only
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

}  // namespace loom::def::cu
