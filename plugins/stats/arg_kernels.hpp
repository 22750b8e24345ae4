// The stats plugin's arg reductions (kernels.hpp): ArgPart's block reductions of chunks of rows
// into (extreme, index) partials and ArgFold's folds of them.
#pragma once
#include <cstdint>

#include "loom/block_ctx.hpp"
#include "loom/thread_ctx.hpp"
#include "row_access.hpp"

namespace loom::stats_plugin {

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
        T best{};
        key_t<T> kb{};
        std::int64_t bi = -1;
        bool nan = false;
        // A thread visits its elements in increasing i, so the first of equal extremes stays
        // (as `before` orders them) with one compare an element.
        const auto use = [&](std::int64_t i, T e) {
          const key_t<T> ke = key(e);
          if (ke != ke) {  // NaN: the first one is the extreme, unless NaNs are left out
            if (!skip && !nan) best = e, kb = ke, bi = i, nan = true;
            return;
          }
          if (nan) return;
          if (bi < 0 || (is_min ? ke < kb : ke > kb)) best = e, kb = ke, bi = i;
        };
        if (const T* row = wide_row(x, r, per)) {
          visit_wide(row, cf, ce, tid, nt, use);
        } else {
          visit(
              run_of(cf, ce, tid, nt, k), [&](std::int64_t i) { return x(r, i); }, use);
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

}  // namespace loom::stats_plugin
