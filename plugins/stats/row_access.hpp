// The stats kernels' shared pieces (kernels.hpp): flags, element keys, how a thread walks its
// share of a chunk of a row.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "loom/float16.hpp"
#include "loom/hd.hpp"
#include "loom/view.hpp"

namespace loom::stats_plugin {

// flags of SumPart.
inline constexpr std::int32_t kSkipNan = 1;  // NaNs are left out and not counted
inline constexpr std::int32_t kMasked = 2;   // mask(r, i) false: left out
inline constexpr std::int32_t kCenter = 4;   // add (x - center[r])^2 instead of x
// flags of ArgPart / ArgFold.
inline constexpr std::int32_t kArgMin = 1;
inline constexpr std::int32_t kArgSkipNan = 2;

template <class A, class T>
LOOM_HD A to_acc(T v) {
  if constexpr (std::is_same_v<T, float16_t>) {
    return static_cast<A>(static_cast<float>(v));
  } else {
    return static_cast<A>(v);
  }
}

// float16 compares as float; every other type as itself.
template <class T>
using key_t = std::conditional_t<std::is_same_v<T, float16_t>, float, T>;

template <class T>
LOOM_HD key_t<T> key(T v) {
  if constexpr (std::is_same_v<T, float16_t>) {
    return static_cast<float>(v);
  } else {
    return v;
  }
}

// Element i's place in its chunk's per-thread runs. A GPU thread takes every nt-th element
// (neighbouring threads read neighbouring elements: coalesced); a host thread a contiguous run
// (one OS thread runs the block's threads in turn: each streams its own cache lines).
struct Run {
  std::int64_t first, end, step;
};
LOOM_HD inline Run run_of(std::int64_t chunk_first, std::int64_t chunk_end, std::int64_t tid,
                          std::int64_t nt, std::int64_t k) {
#if defined(__CUDA_ARCH__)
  (void)k;
  return {chunk_first + tid, chunk_end, nt};
#else
  (void)nt;
  const std::int64_t f = chunk_first + tid * k;
  return {f, f + k < chunk_end ? f + k : chunk_end, 1};
#endif
}

// Calls use(i, load(i)) for each i of the run, in order. On a GPU the loads of kBatch visits are
// issued before the first is used, so a thread has kBatch loads in flight instead of one (a
// plain loop waits for each load before the next: 46 % of the H200's bandwidth for SumPart).
// The visits and their order are the same, and so are the bits.
inline constexpr int kBatch = 8;
template <class Load, class Use>
LOOM_HD void visit(const Run& run, Load load, Use use) {
  std::int64_t i = run.first;
#if defined(__CUDA_ARCH__)
  using V = decltype(load(i));
  for (; i + (kBatch - 1) * run.step < run.end; i += kBatch * run.step) {
    V v[kBatch];
#pragma unroll
    for (int u = 0; u < kBatch; ++u) v[u] = load(i + u * run.step);
#pragma unroll
    for (int u = 0; u < kBatch; ++u) use(i + u * run.step, v[u]);
  }
#endif
  for (; i < run.end; i += run.step) use(i, load(i));
}

// A GPU thread's share of chunk [cf, ce) of a contiguous row read 16 bytes a load: thread tid
// of nt takes the 16-byte pieces tid, tid + nt, ... (kWide of them in flight), then one each of
// the row's last elements that fill no piece. use(i, x_i) is called in increasing i. 4-byte
// loads, even 8 in flight, left the H200 at 78 % of its bandwidth for SumPart. A chunk's sum
// associates differently than through visit() (the bits differ from the scalar path's, the same
// every run); the caller takes this path when wide_row() gives a row.
inline constexpr int kWide = 4;
// Types of 4 and 8 bytes only: a 16-byte piece of 1- or 2-byte elements unrolls into 32 to 64
// uses a load; with those, sums.cu and args.cu took 151 and 140 s to compile to PTX on the
// project's 2-core machine, without them 98 and 96 s (the longest files of a build).
template <class T>
inline constexpr bool kWideType = sizeof(T) == 4 || sizeof(T) == 8;
template <class T, class Use>
LOOM_HD void visit_wide(const T* row, std::int64_t cf, std::int64_t ce, std::int64_t tid,
                        std::int64_t nt, Use use) {
#if defined(__CUDA_ARCH__)
  if constexpr (kWideType<T>) {
    constexpr int W = 16 / sizeof(T);
    struct alignas(16) Piece {
      T e[W];
    };
    const uint4* pieces = reinterpret_cast<const uint4*>(row);
    const std::int64_t je = ce / W;
    std::int64_t j = cf / W + tid;
    for (; j + (kWide - 1) * nt < je; j += kWide * nt) {
      uint4 raw[kWide];
#pragma unroll
      for (int u = 0; u < kWide; ++u) raw[u] = __ldg(pieces + j + u * nt);
#pragma unroll
      for (int u = 0; u < kWide; ++u) {
        Piece p;
        memcpy(&p, &raw[u], 16);
#pragma unroll
        for (int e = 0; e < W; ++e) use((j + u * nt) * W + e, p.e[e]);
      }
    }
    for (; j < je; j += nt) {
      const uint4 raw = __ldg(pieces + j);
      Piece p;
      memcpy(&p, &raw, 16);
#pragma unroll
      for (int e = 0; e < W; ++e) use(j * W + e, p.e[e]);
    }
    for (std::int64_t t = (je * W > cf ? je * W : cf) + tid; t < ce; t += nt) use(t, row[t]);
  } else {
    (void)row, (void)cf, (void)ce, (void)tid, (void)nt, (void)use;  // wide_row gives none
  }
#else
  (void)row, (void)cf, (void)ce, (void)tid, (void)nt, (void)use;  // wide_row gives none here
#endif
}

// Row r of x as a pointer when a GPU reads it with visit_wide (contiguous, 16-byte aligned,
// chunks of per elements starting on a 16-byte piece), else null.
template <class T>
LOOM_HD const T* wide_row(const View<const T, 2>& x, std::int64_t r, std::int64_t per) {
#if defined(__CUDA_ARCH__)
  constexpr std::int64_t W = 16 / sizeof(T);
  const T* row =
      reinterpret_cast<const T*>(reinterpret_cast<const char*>(x.data) + r * x.strides[0]);
  if (kWideType<T> && x.contiguous_last() && per % W == 0 &&
      reinterpret_cast<std::uintptr_t>(row) % 16 == 0) {
    return row;
  }
#else
  (void)x, (void)r, (void)per;
#endif
  return nullptr;
}

}  // namespace loom::stats_plugin
