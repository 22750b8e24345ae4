// The stats plugin's kernels (docs/stats.md): block reductions of the rows of a C-contiguous
// (rows, n) array, their folds, and the histogram counts. One functor per kernel serves cpu,
// parallel (def/kernel.hpp) and cuda (def/kernel.cuh). loom::stats (core/src/calls/stats.cpp)
// lays the input out as rows and launches these.
//
// Determinism: each block folds a fixed chunk of a row (its length depends on n and the launch's
// block size, which the caller derives from n alone) in a fixed order, and its threads' results
// by a fixed tree; partials are folded the same way. No floating-point atomics: the bits depend
// on the input and the target only. Integer counts use atomics (exact in any order).
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "loom/atomic.hpp"
#include "loom/block_ctx.hpp"
#include "loom/float16.hpp"
#include "loom/thread_ctx.hpp"
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
template <class T, class Use>
LOOM_HD void visit_wide(const T* row, std::int64_t cf, std::int64_t ce, std::int64_t tid,
                        std::int64_t nt, Use use) {
#if defined(__CUDA_ARCH__)
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
  if (16 % sizeof(T) == 0 && x.contiguous_last() && per % W == 0 &&
      reinterpret_cast<std::uintptr_t>(row) % 16 == 0) {
    return row;
  }
#else
  (void)x, (void)r, (void)per;
#endif
  return nullptr;
}

// Folds each block's (sum, count) pairs held by its nt threads in the shared arrays s / m into
// slot 0: a tree of halvings (BlockSum's, plugins/kernels/seeds.hpp), fixed by nt.
template <class A>
LOOM_HD void tree_sum(const BlockCtx& b, View<A> s, View<std::int64_t> m, std::int64_t nt) {
  for (std::int64_t n = nt; n > 1; n = (n + 1) / 2) {
    const std::int64_t half = (n + 1) / 2;
    b.each_thread(n - half, [&](const ThreadCtx& t) {
      const std::int64_t tid = t.thread_rank();
      s(tid) = s(tid) + s(tid + half);
      m(tid) = m(tid) + m(tid + half);
    });
  }
}

// psum(r, c), pcount(r, c) = the sum (as A) and count of the elements x(r, i) of chunk c
// (i in [c * per, c * per + per), per = threads * k) that are kept: all, or those that are not
// NaN (kSkipNan) and where mask(r, i) (kMasked); with kCenter each adds (x - center(r))^2.
// Launch: 1-d blocks, a block-stride loop over rows * chunks; shared_bytes = threads * (8 +
// sizeof(A)).
template <class T, class A>
struct SumPart {
  LOOM_HD void operator()(const BlockCtx& b, View<const T, 2> x, View<const bool, 2> mask,
                          View<const A> center, std::int32_t flags, std::int64_t k, View<A, 2> psum,
                          View<std::int64_t, 2> pcount) const {
    const std::int64_t nt = b.threads(), rows = psum.size(0), chunks = psum.size(1);
    const std::int64_t n = x.size(1), per = nt * k;
    const View<std::int64_t> m = b.shared_array<std::int64_t>(nt);
    const View<A> s = b.shared_array<A>(nt, static_cast<std::size_t>(nt) * 8);
    for (std::int64_t blk = b.blockIdx.x; blk < rows * chunks; blk += b.gridDim.x) {
      const std::int64_t r = blk / chunks, c = blk % chunks;
      const std::int64_t cf = c * per, ce = cf + per < n ? cf + per : n;
      b.each_thread([&](const ThreadCtx& t) {
        const std::int64_t tid = t.thread_rank();
        const Run run = run_of(cf, ce, tid, nt, k);
        A acc = A(0);
        std::int64_t cnt = 0;
        const auto load = [&](std::int64_t i) { return to_acc<A>(x(r, i)); };
        if (flags == 0) {  // the common case: no test per element
          if (const T* row = wide_row(x, r, per)) {
            visit_wide(row, cf, ce, tid, nt, [&](std::int64_t, T v) {
              acc += to_acc<A>(v);
              ++cnt;
            });
          } else {
            visit(run, load, [&](std::int64_t, A v) { acc += v; });
            cnt = run.end > run.first ? (run.end - run.first + run.step - 1) / run.step : 0;
          }
        } else {
          const A mid = (flags & kCenter) ? center(r) : A(0);
          visit(run, load, [&](std::int64_t i, A v) {
            if ((flags & kMasked) && !mask(r, i)) return;
            if ((flags & kSkipNan) && v != v) return;
            if (flags & kCenter) {
              v = v - mid;
              v = v * v;
            }
            acc += v;
            ++cnt;
          });
        }
        s(tid) = acc;
        m(tid) = cnt;
      });
      tree_sum(b, s, m, nt);
      b.each_thread(1, [&](const ThreadCtx&) {
        psum(r, c) = s(0);
        pcount(r, c) = m(0);
      });
    }
  }
};

// What `what` asks of a row's sum s and count c: 0 the mean s / c, 1 the variance
// s / max(c - ddof, 0), 2 its square root, 3 the sum s; in A.
template <class A>
LOOM_HD A finish_value(A s, std::int64_t count, double ddof, std::int32_t what) {
  using std::sqrt;
  const double c = static_cast<double>(count);
  if (what == 0) return s / static_cast<A>(c);
  if (what == 3) return s;
  const double d = c - ddof > 0 ? c - ddof : 0.0;
  const A v = s / static_cast<A>(d);
  return what == 2 ? sqrt(v) : v;
}

// The same over partials: osum(r, c), ocount(r, c) = the sums of psum(r, i), pcount(r, i) over
// chunk c of the partials. With what >= 0 (a fold to one chunk a row) it also writes fin(r) =
// finish_value(..., ddof, what): the finish a launch of its own cost (2.6 us on an H200).
template <class A>
struct SumFold {
  LOOM_HD void operator()(const BlockCtx& b, View<const A, 2> psum, View<const std::int64_t, 2> pc,
                          std::int64_t k, double ddof, std::int32_t what, View<A, 2> osum,
                          View<std::int64_t, 2> ocount, View<A> fin) const {
    const std::int64_t nt = b.threads(), rows = osum.size(0), chunks = osum.size(1);
    const std::int64_t n = psum.size(1), per = nt * k;
    const View<std::int64_t> m = b.shared_array<std::int64_t>(nt);
    const View<A> s = b.shared_array<A>(nt, static_cast<std::size_t>(nt) * 8);
    for (std::int64_t blk = b.blockIdx.x; blk < rows * chunks; blk += b.gridDim.x) {
      const std::int64_t r = blk / chunks, c = blk % chunks;
      const std::int64_t cf = c * per, ce = cf + per < n ? cf + per : n;
      b.each_thread([&](const ThreadCtx& t) {
        const std::int64_t tid = t.thread_rank();
        const Run run = run_of(cf, ce, tid, nt, k);
        A acc = A(0);
        std::int64_t cnt = 0;
        visit(
            run, [&](std::int64_t i) { return psum(r, i); },
            [&](std::int64_t i, A v) {
              acc += v;
              cnt += pc(r, i);
            });
        s(tid) = acc;
        m(tid) = cnt;
      });
      tree_sum(b, s, m, nt);
      b.each_thread(1, [&](const ThreadCtx&) {
        osum(r, c) = s(0);
        ocount(r, c) = m(0);
        if (what >= 0) fin(r) = finish_value(s(0), m(0), ddof, what);
      });
    }
  }
};

template <class O, class A>
LOOM_HD O to_out(A v) {
  if constexpr (std::is_same_v<O, float16_t>) {
    return float16_t(static_cast<float>(v));
  } else {
    return static_cast<O>(v);
  }
}

// out(r) from sum(r) and count(r) (finish_value), computed in A, then rounded once to O (NumPy:
// float16 results are computed in float32).
template <class A, class O>
struct Finish {
  LOOM_HD void operator()(const ThreadCtx& t, View<const A> sum, View<const std::int64_t> count,
                          double ddof, std::int32_t what, View<O> out) const {
    for (const std::int64_t r : t.grid_stride(out.size())) {
      out(r) = to_out<O>(finish_value(sum(r), count(r), ddof, what));
    }
  }
};

// Whether (a, ia) goes before (b, ib) for argmax (argmin with is_min): a NaN first (NumPy's
// argmax returns the first NaN), then the larger (smaller) value, then the lower index. An order
// of the pairs, so any tree of it gives the first extreme: the result is the same on every
// target.
template <class K>
LOOM_HD bool before(K a, std::int64_t ia, K b, std::int64_t ib, bool is_min) {
  const bool na = a != a, nb = b != b;
  if (na || nb) return na && nb ? ia < ib : na;
  if (a == b) return ia < ib;
  return is_min ? a < b : a > b;
}

// Folds the block's (value, index) pairs in the shared arrays v / ix into slot 0 (index -1: no
// element).
template <class T>
LOOM_HD void tree_arg(const BlockCtx& b, View<T> v, View<std::int64_t> ix, std::int64_t nt,
                      bool is_min) {
  for (std::int64_t n = nt; n > 1; n = (n + 1) / 2) {
    const std::int64_t half = (n + 1) / 2;
    b.each_thread(n - half, [&](const ThreadCtx& t) {
      const std::int64_t tid = t.thread_rank(), o = tid + half;
      if (ix(o) >= 0 && (ix(tid) < 0 || before(key(v(o)), ix(o), key(v(tid)), ix(tid), is_min))) {
        v(tid) = v(o);
        ix(tid) = ix(o);
      }
    });
  }
}

// pval(r, c), pidx(r, c) = the extreme of chunk c of row r and its index in the row (flags:
// kArgMin for the minimum, kArgSkipNan to leave NaNs out; -1 when the chunk has no element
// left). shared_bytes = threads * (8 + sizeof(T)).
template <class T>
struct ArgPart {
  LOOM_HD void operator()(const BlockCtx& b, View<const T, 2> x, std::int32_t flags, std::int64_t k,
                          View<T, 2> pval, View<std::int64_t, 2> pidx) const {
    const std::int64_t nt = b.threads(), rows = pval.size(0), chunks = pval.size(1);
    const std::int64_t n = x.size(1), per = nt * k;
    const bool is_min = (flags & kArgMin) != 0, skip = (flags & kArgSkipNan) != 0;
    const View<std::int64_t> ix = b.shared_array<std::int64_t>(nt);
    const View<T> v = b.shared_array<T>(nt, static_cast<std::size_t>(nt) * 8);
    for (std::int64_t blk = b.blockIdx.x; blk < rows * chunks; blk += b.gridDim.x) {
      const std::int64_t r = blk / chunks, c = blk % chunks;
      const std::int64_t cf = c * per, ce = cf + per < n ? cf + per : n;
      b.each_thread([&](const ThreadCtx& t) {
        const std::int64_t tid = t.thread_rank();
        const Run run = run_of(cf, ce, tid, nt, k);
        T best{};
        std::int64_t bi = -1;
        const auto use = [&](std::int64_t i, T e) {
          const auto ke = key(e);
          if (skip && ke != ke) return;
          if (bi < 0 || before(ke, i, key(best), bi, is_min)) {
            best = e;
            bi = i;
          }
        };
        if (const T* row = wide_row(x, r, per)) {
          visit_wide(row, cf, ce, tid, nt, use);  // the same extreme: `before` orders the pairs
        } else {
          visit(
              run, [&](std::int64_t i) { return x(r, i); }, use);
        }
        v(tid) = best;
        ix(tid) = bi;
      });
      tree_arg(b, v, ix, nt, is_min);
      b.each_thread(1, [&](const ThreadCtx&) {
        pval(r, c) = v(0);
        pidx(r, c) = ix(0);
      });
    }
  }
};

// The same over partials (value, index) pairs.
template <class T>
struct ArgFold {
  LOOM_HD void operator()(const BlockCtx& b, View<const T, 2> pv, View<const std::int64_t, 2> pi,
                          std::int32_t flags, std::int64_t k, View<T, 2> oval,
                          View<std::int64_t, 2> oidx) const {
    const std::int64_t nt = b.threads(), rows = oval.size(0), chunks = oval.size(1);
    const std::int64_t n = pv.size(1), per = nt * k;
    const bool is_min = (flags & kArgMin) != 0;
    const View<std::int64_t> ix = b.shared_array<std::int64_t>(nt);
    const View<T> v = b.shared_array<T>(nt, static_cast<std::size_t>(nt) * 8);
    for (std::int64_t blk = b.blockIdx.x; blk < rows * chunks; blk += b.gridDim.x) {
      const std::int64_t r = blk / chunks, c = blk % chunks;
      const std::int64_t cf = c * per, ce = cf + per < n ? cf + per : n;
      b.each_thread([&](const ThreadCtx& t) {
        const std::int64_t tid = t.thread_rank();
        const Run run = run_of(cf, ce, tid, nt, k);
        T best{};
        std::int64_t bi = -1;
        struct Pair {
          T v;
          std::int64_t j;
        };
        visit(
            run,
            [&](std::int64_t i) {
              return Pair{pv(r, i), pi(r, i)};
            },
            [&](std::int64_t, Pair p) {
              if (p.j < 0) return;
              if (bi < 0 || before(key(p.v), p.j, key(best), bi, is_min)) {
                best = p.v;
                bi = p.j;
              }
            });
        v(tid) = best;
        ix(tid) = bi;
      });
      tree_arg(b, v, ix, nt, is_min);
      b.each_thread(1, [&](const ThreadCtx&) {
        oval(r, c) = v(0);
        oidx(r, c) = ix(0);
      });
    }
  }
};

// counts(x(i)) += 1 for every i (the caller checked 0 <= x(i) < counts.size()), into a private
// copy per block in shared memory (shared_bytes = 4 * bins; the caller picks this kernel only
// where that fits), then added to counts: integer atomics, exact in any order.
template <class T>
struct BincountShared {
  LOOM_HD void operator()(const BlockCtx& b, View<const T> x, View<std::int64_t> counts) const {
    const std::int64_t bins = counts.size(), nt = b.threads();
    const View<std::uint32_t> local = b.shared_array<std::uint32_t>(bins);
    b.each_thread([&](const ThreadCtx& t) {
      for (std::int64_t j = t.thread_rank(); j < bins; j += nt) local(j) = 0;
    });
    b.each_thread([&](const ThreadCtx& t) {
      for (const std::int64_t i : t.grid_stride(x.size())) {
        atomic_add(&local(static_cast<std::int64_t>(x(i))), std::uint32_t{1});
      }
    });
    b.each_thread([&](const ThreadCtx& t) {
      for (std::int64_t j = t.thread_rank(); j < bins; j += nt) {
        if (local(j) != 0) atomic_add(&counts(j), static_cast<std::int64_t>(local(j)));
      }
    });
  }
};

// The same straight into counts, for more bins than shared memory holds.
template <class T>
struct BincountGlobal {
  LOOM_HD void operator()(const ThreadCtx& t, View<const T> x, View<std::int64_t> counts) const {
    for (const std::int64_t i : t.grid_stride(x.size())) {
      atomic_add(&counts(static_cast<std::int64_t>(x(i))), std::int64_t{1});
    }
  }
};

// NumPy's bin of v for equal bins (np.histogram's fast path): -1 outside [edges(0),
// edges(bins)]; the index from (v - lo) * norm, then moved by one where the edges say otherwise;
// the last bin is closed on the right.
LOOM_HD inline std::int64_t equal_bin(double v, View<const double> edges, double norm) {
  const std::int64_t bins = edges.size() - 1;
  const double lo = edges(0), hi = edges(bins);
  if (!(v >= lo && v <= hi)) return -1;  // NaN too
  auto j = static_cast<std::int64_t>((v - lo) * norm);
  if (j >= bins) j = bins - 1;
  if (j < 0) j = 0;
  if (v < edges(j)) --j;
  if (j + 1 < bins && v >= edges(j + 1)) ++j;
  return j;
}

// counts(bin of x(i)) += 1 over equal bins given by their edges (bins + 1 of them), with a
// private copy per block (shared_bytes = 4 * bins).
template <class T>
struct HistogramShared {
  LOOM_HD void operator()(const BlockCtx& b, View<const T> x, View<const double> edges, double norm,
                          View<std::int64_t> counts) const {
    const std::int64_t bins = counts.size(), nt = b.threads();
    const View<std::uint32_t> local = b.shared_array<std::uint32_t>(bins);
    b.each_thread([&](const ThreadCtx& t) {
      for (std::int64_t j = t.thread_rank(); j < bins; j += nt) local(j) = 0;
    });
    b.each_thread([&](const ThreadCtx& t) {
      for (const std::int64_t i : t.grid_stride(x.size())) {
        const std::int64_t j = equal_bin(to_acc<double>(x(i)), edges, norm);
        if (j >= 0) atomic_add(&local(j), std::uint32_t{1});
      }
    });
    b.each_thread([&](const ThreadCtx& t) {
      for (std::int64_t j = t.thread_rank(); j < bins; j += nt) {
        if (local(j) != 0) atomic_add(&counts(j), static_cast<std::int64_t>(local(j)));
      }
    });
  }
};

template <class T>
struct HistogramGlobal {
  LOOM_HD void operator()(const ThreadCtx& t, View<const T> x, View<const double> edges,
                          double norm, View<std::int64_t> counts) const {
    for (const std::int64_t i : t.grid_stride(x.size())) {
      const std::int64_t j = equal_bin(to_acc<double>(x(i)), edges, norm);
      if (j >= 0) atomic_add(&counts(j), std::int64_t{1});
    }
  }
};

// Weighted counts without floating-point atomics: thread c adds the weights of its contiguous
// chunk of x ([c * per, c * per + per)) into row c of part (chunks, bins) in element order; the
// caller then sums part's rows in order (SumPart over its transpose). bin(i) is x(i) (bincount,
// hist = false) or its equal bin (histogram, hist = true; -1: dropped).
template <class T>
struct WeightedPart {
  LOOM_HD void operator()(const ThreadCtx& t, View<const T> x, View<const double> w,
                          View<const double> edges, double norm, bool hist, std::int64_t per,
                          View<double, 2> part) const {
    const std::int64_t bins = part.size(1), n = x.size();
    for (const std::int64_t c : t.grid_stride(part.size(0))) {
      for (std::int64_t j = 0; j < bins; ++j) part(c, j) = 0.0;
      const std::int64_t end = (c + 1) * per < n ? (c + 1) * per : n;
      for (std::int64_t i = c * per; i < end; ++i) {
        const std::int64_t j =
            hist ? equal_bin(to_acc<double>(x(i)), edges, norm) : to_acc<std::int64_t>(x(i));
        if (j >= 0) part(c, j) += w(i);
      }
    }
  }
};

}  // namespace loom::stats_plugin
