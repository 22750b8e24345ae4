// What the CUDA def headers share (only ever included by .cu files): error checks that raise
// loom::DeviceError, grid sizing from the device's multiprocessors and the kernel's occupancy, a
// trivially copyable strided iteration for kernel parameters, and a small device tuple.
#pragma once
#include <cuda_runtime.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "loom/error.hpp"
#include "loom/exec.hpp"
#include "loom/hd.hpp"
#include "loom/strided.hpp"

namespace loom::def::cu {

inline constexpr int kMaxDims = 8;      // iteration dims after coalescing
inline constexpr int kMaxOperands = 8;  // operands of one kernel
inline constexpr int kThreads = 256;    // threads per block of the grid-stride kernels

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    (void)cudaGetLastError();  // clear a non-sticky error so that the next call starts clean
    throw DeviceError(std::string(what) + " failed: " + cudaGetErrorString(e) + " (" +
                      cudaGetErrorName(e) + ")");
  }
}

// Multiprocessors of the current device, cached: the launchers ask on every call.
inline int current_sms() {
  int dev = 0;
  check(cudaGetDevice(&dev), "cudaGetDevice");
  static std::atomic<int> cache[64] = {};
  if (dev >= 0 && dev < 64) {
    int v = cache[dev].load(std::memory_order_relaxed);
    if (v > 0) return v;
  }
  int sms = 0;
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev),
        "cudaDeviceGetAttribute(MultiProcessorCount)");
  if (dev >= 0 && dev < 64) cache[dev].store(sms, std::memory_order_relaxed);
  return sms;
}

// Blocks for a grid-stride kernel: enough to fill every multiprocessor at the kernel's
// occupancy (asked once per kernel), fewer when the work is smaller.
template <auto Kernel>
int grid_for(std::int64_t work_threads, int threads = kThreads) {
  static const int per_sm = [threads] {
    int b = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, Kernel, threads, 0) != cudaSuccess) {
      (void)cudaGetLastError();
      b = 0;
    }
    return b > 0 ? b : 1;
  }();
  const std::int64_t need = (work_threads + threads - 1) / threads;
  const std::int64_t full = static_cast<std::int64_t>(current_sms()) * per_sm;
  return static_cast<int>(need < 1 ? 1 : (need < full ? need : full));
}

inline void check_launch(const char* what) { check(cudaGetLastError(), what); }

inline cudaStream_t stream_of(void* s) { return static_cast<cudaStream_t>(s); }

// ---- a tuple usable in device code (aggregate, trivially copyable) ---------------------------

template <std::size_t I, class T>
struct Leaf {
  T v;
};
template <class Seq, class... T>
struct TupImpl;
template <std::size_t... I, class... T>
struct TupImpl<std::index_sequence<I...>, T...> : Leaf<I, T>... {};
template <class... T>
using Tup = TupImpl<std::index_sequence_for<T...>, T...>;
template <std::size_t I, class T>
LOOM_HD T& get(Leaf<I, T>& l) {
  return l.v;
}
template <std::size_t I, class T>
LOOM_HD const T& get(const Leaf<I, T>& l) {
  return l.v;
}

// ---- strided iteration as a kernel parameter -------------------------------------------------

// NA operands over an nd-dim shape (C order), byte strides.
template <int NA>
struct Strided {
  std::int64_t n = 0;
  int nd = 0;
  std::int64_t shape[kMaxDims] = {};
  std::int64_t strides[NA][kMaxDims] = {};
  char* base[NA] = {};
};

inline std::string dims_error(const StridedIter& it, const char* who) {
  return std::string(who) + ": the iteration has " + std::to_string(it.shape.size()) +
         " dimensions after merging contiguous ones (shape " + shape_str(it.shape) +
         "); the CUDA loops take at most " + std::to_string(kMaxDims) +
         ": make the operands contiguous (copy()) first";
}

template <int NA>
Strided<NA> make_strided(const StridedIter& it, const char* who) {
  if (it.nargs() != NA) {
    throw DeviceError(std::string(who) + ": the loop takes " + std::to_string(NA) +
                      " operands, the call has " + std::to_string(it.nargs()));
  }
  if (it.shape.size() > static_cast<std::size_t>(kMaxDims)) throw DeviceError(dims_error(it, who));
  Strided<NA> p;
  p.nd = static_cast<int>(it.shape.size());
  p.n = it.size();
  for (int k = 0; k < p.nd; ++k) p.shape[k] = it.shape[k];
  for (int a = 0; a < NA; ++a) {
    p.base[a] = it.base[a];
    for (int k = 0; k < p.nd; ++k) p.strides[a][k] = it.strides[a][k];
  }
  return p;
}

// Byte offsets of flat C-order index i, for every operand. 32-bit division where the values fit
// (the usual case): 64-bit division is several times slower on the GPU.
template <int NA>
__device__ __forceinline__ void offsets_of(const Strided<NA>& p, std::int64_t i, char** ptr) {
#pragma unroll
  for (int a = 0; a < NA; ++a) ptr[a] = p.base[a];
  for (int k = p.nd - 1; k >= 0; --k) {
    const std::int64_t s = p.shape[k];
    std::int64_t q, r;
    if (((i | s) >> 32) == 0) {
      const auto ui = static_cast<std::uint32_t>(i), us = static_cast<std::uint32_t>(s);
      q = ui / us;
      r = ui - static_cast<std::uint32_t>(q) * us;
    } else {
      q = i / s;
      r = i - q * s;
    }
#pragma unroll
    for (int a = 0; a < NA; ++a) ptr[a] += r * p.strides[a][k];
    i = q;
  }
}

// The offset of flat index j over `nd` dims given by shape/strides (one operand).
__device__ __forceinline__ std::int64_t offset_1(std::int64_t j, int nd, const std::int64_t* shape,
                                                 const std::int64_t* strides) {
  if (nd == 1) return j * strides[0];
  std::int64_t off = 0;
  for (int k = nd - 1; k >= 0; --k) {
    const std::int64_t s = shape[k];
    std::int64_t q, r;
    if (((j | s) >> 32) == 0) {
      const auto uj = static_cast<std::uint32_t>(j), us = static_cast<std::uint32_t>(s);
      q = uj / us;
      r = uj - static_cast<std::uint32_t>(q) * us;
    } else {
      q = j / s;
      r = j - q * s;
    }
    off += r * strides[k];
    j = q;
  }
  return off;
}

template <class F>
const F* instance() {
  static const F f{};  // lives as long as the plugin (loaded RTLD_NODELETE)
  return &f;
}

}  // namespace loom::def::cu
