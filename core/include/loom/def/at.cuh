// at's CUDA loops (AtCall), the unbuffered in-place updates of a binary op T(T,T): atomics for
// reorderable ops on 4- and 8-byte types (native atomicAdd for a functor declared an add), else the
// indices sorted stably (cub::DeviceRadixSort) and each index's updates applied in their original
// order. methods.cuh has the rules. Only included by .cu files.
#pragma once
#include <cstdint>
#include <cstring>
#include <cub/device/device_radix_sort.cuh>
#include <string>
#include <type_traits>

#include "loom/def/device_access.cuh"
#include "loom/def/device_fold.cuh"
#include "loom/def/launch.cuh"
#include "loom/registry.hpp"

namespace loom::def::cu {

// Declares a functor an add (f(a, b) == a + b with the type's own +): at() may then use the
// native atomicAdd for float64 and the integer types. Specialize it in the .cu file that
// registers the op, before the op table is instantiated:
//   template <> struct loom::def::cu::device_add<MyAdd> : std::true_type {};
template <class F>
struct device_add : std::false_type {};

// ---- at ---------------------------------------------------------------------------------------

struct AtParams {
  char* a;
  std::int64_t a_step;
  const std::int64_t* idx;
  std::int64_t m;
  const char* b;
  std::int64_t b_step;
  int nr;  // trailing dims (a's after the first), C order
  std::int64_t rshape[kMaxDims];
  std::int64_t ra[kMaxDims];
  std::int64_t rb[kMaxDims];
  std::int64_t R;        // trailing elements per index
  const unsigned* gate;  // nonzero verdict: an index is outside, update nothing (AtCall::gate)
};

inline AtParams at_params(const AtCall& c) {
  if (c.rest.size() > static_cast<std::size_t>(kMaxDims)) {
    throw DeviceError("at CUDA loop: the array has " + std::to_string(c.rest.size() + 1) +
                      " dimensions; the CUDA loops take at most " + std::to_string(kMaxDims + 1));
  }
  AtParams p{};
  p.a = c.a;
  p.a_step = c.a_step;
  p.idx = c.idx;
  p.m = c.m;
  p.b = c.b;
  p.b_step = c.b_step;
  p.gate = c.gate;
  p.nr = static_cast<int>(c.rest.size());
  p.R = 1;
  for (int k = 0; k < p.nr; ++k) {
    p.rshape[k] = c.rest[k];
    p.ra[k] = c.a_rest_strides[k];
    p.rb[k] = c.b_rest_strides[k];
    p.R *= c.rest[k];
  }
  return p;
}

template <class T>
using cas_word = std::conditional_t<sizeof(T) == 4, unsigned, unsigned long long>;

// *p = f(*p, v) as one atomic step.
template <class F, class T>
__device__ __forceinline__ void atomic_apply(const F& f, T* p, T v) {
  if constexpr (device_add<F>::value && std::is_same_v<T, double>) {
    atomicAdd(p, v);
  } else if constexpr (device_add<F>::value && std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    // Two's complement: the unsigned add wraps to the signed sum's bits.
    atomicAdd(reinterpret_cast<cas_word<T>*>(p), static_cast<cas_word<T>>(v));
  } else {
    using W = cas_word<T>;
    W* q = reinterpret_cast<W*>(p);
    W old = *reinterpret_cast<volatile W*>(q);
    while (true) {
      T cur;
      memcpy(&cur, &old, sizeof(T));
      const T next = f(cur, v);
      W nw;
      memcpy(&nw, &next, sizeof(T));
      const W seen = atomicCAS(q, old, nw);
      if (seen == old) break;
      old = seen;
    }
  }
}

template <class F, class T>
__global__ void at_atomic(F f, AtParams p) {
  if (p.gate && *p.gate) return;
  const std::int64_t tid = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t nth = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  const std::int64_t items = p.m * p.R;
  for (std::int64_t item = tid; item < items; item += nth) {
    std::int64_t j = item, ra = 0, rb = 0;
    if (p.R != 1) {
      j = item / p.R;
      offset_pair(item - j * p.R, p.nr, p.rshape, p.ra, p.rb, ra, rb);
    }
    char* dst = p.a + p.idx[j] * p.a_step + ra;
    const char* src = p.b + j * p.b_step + rb;
    atomic_apply(f, reinterpret_cast<T*>(dst), load_as<T>(src));
  }
}

// After a stable sort of the indices (keys, with perm the original positions): a thread per
// (first occurrence of an index, trailing element) applies that index's updates in their original
// order.
template <class F, class T>
__global__ void at_sorted(F f, AtParams p, const std::uint64_t* keys, const std::int64_t* perm) {
  if (p.gate && *p.gate) return;
  const std::int64_t tid = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t nth = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  const std::int64_t items = p.m * p.R;
  for (std::int64_t item = tid; item < items; item += nth) {
    const std::int64_t r = item / p.m, k = item - r * p.m;
    const std::uint64_t key = keys[k];
    if (k > 0 && keys[k - 1] == key) continue;
    std::int64_t ra, rb;
    offset_pair(r, p.nr, p.rshape, p.ra, p.rb, ra, rb);
    T* dst = reinterpret_cast<T*>(p.a + static_cast<std::int64_t>(key) * p.a_step + ra);
    T acc = *dst;
    for (std::int64_t kk = k; kk < p.m && keys[kk] == key; ++kk) {
      acc = f(acc, load_as<T>(p.b + perm[kk] * p.b_step + rb));
    }
    *dst = acc;
  }
}

template <class I>
__global__ void iota_kernel(I* out, std::int64_t n) {
  const std::int64_t nth = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += nth) {
    out[i] = static_cast<I>(i);
  }
}

// The m indices sorted stably, with their original positions: keys and perm point into `block`
// (free it with cudaFreeAsync on the stream). The same code for every op and type. The indices are
// non-negative, so their unsigned order is their order.
struct SortedIndices {
  void* block = nullptr;
  const std::uint64_t* keys = nullptr;
  const std::int64_t* perm = nullptr;
};

template <class K = std::uint64_t>
SortedIndices sort_indices(const std::int64_t* idx, std::int64_t m, cudaStream_t stream) {
  const K* keys_in = reinterpret_cast<const K*>(idx);
  std::size_t bytes = 0;
  check(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys_in, static_cast<K*>(nullptr),
                                        static_cast<const std::int64_t*>(nullptr),
                                        static_cast<std::int64_t*>(nullptr), m, 0, 63, stream),
        "cub::DeviceRadixSort::SortPairs (temporary storage size)");
  const std::size_t line = (static_cast<std::size_t>(m) * 8 + 255) / 256 * 256;
  SortedIndices s;
  check(cudaMallocAsync(&s.block, 3 * line + bytes, stream), "cudaMallocAsync (at: sort scratch)");
  char* base = static_cast<char*>(s.block);
  auto* keys = reinterpret_cast<K*>(base);
  auto* perm_in = reinterpret_cast<std::int64_t*>(base + line);
  auto* perm = reinterpret_cast<std::int64_t*>(base + 2 * line);
  constexpr auto io = &iota_kernel<std::int64_t>;
  io<<<grid_for<io>(m), kThreads, 0, stream>>>(perm_in, m);
  cudaError_t err = cudaGetLastError();
  if (err == cudaSuccess) {
    err = cub::DeviceRadixSort::SortPairs(base + 3 * line, bytes, keys_in, keys, perm_in, perm, m,
                                          0, 63, stream);
  }
  if (err != cudaSuccess) {
    (void)cudaFreeAsync(s.block, stream);
    check(err, "at: sorting the indices (cub::DeviceRadixSort::SortPairs)");
  }
  s.keys = keys;
  s.perm = perm;
  return s;
}

// The loop of a non-reorderable op: ordered per index.
template <class F, class T>
void at_ordered_launch(const AtCall& c, const void* data) {
  const F& f = *static_cast<const F*>(data);
  const AtParams p = at_params(c);
  if (p.m <= 0 || p.R <= 0) return;
  const cudaStream_t stream = stream_of(c.stream);
  const SortedIndices s = sort_indices(c.idx, p.m, stream);
  constexpr auto kernel = &at_sorted<F, T>;
  kernel<<<grid_for<kernel>(p.m * p.R), kThreads, 0, stream>>>(f, p, s.keys, s.perm);
  const cudaError_t err = cudaGetLastError();
  (void)cudaFreeAsync(s.block, stream);
  check(err, "at kernel launch");
}

// The loop of a reorderable op: atomics on 4- and 8-byte types, else ordered.
template <class F, class T>
void at_launch(const AtCall& c, const void* data) {
  if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
    if (c.reorderable) {
      const F& f = *static_cast<const F*>(data);
      const AtParams p = at_params(c);
      if (p.m <= 0 || p.R <= 0) return;
      constexpr auto kernel = &at_atomic<F, T>;
      kernel<<<grid_for<kernel>(p.m * p.R), kThreads, 0, stream_of(c.stream)>>>(f, p);
      check_launch("at kernel launch");
      return;
    }
  }
  at_ordered_launch<F, T>(c, data);
}

}  // namespace loom::def::cu
