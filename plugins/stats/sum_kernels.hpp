// The stats plugin's sums (kernels.hpp): SumPart's block reductions of chunks of rows into
// (sum, count) partials, SumFold's folds of them (the last one finishing the rows), and Finish.
#pragma once
#include <cmath>
#include <cstdint>

#include "loom/block_ctx.hpp"
#include "loom/thread_ctx.hpp"
#include "row_access.hpp"

namespace loom::stats_plugin {

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
// sizeof(A)). On a GPU a contiguous, aligned row is read 16 bytes a load (visit_wide), and with
// kCenter, kSkipNan or kMasked too.
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
        const A mid = (flags & kCenter) ? center(r) : A(0);
        const auto use = [&](std::int64_t i, A v) {
          if ((flags & kMasked) && !mask(r, i)) return;
          if ((flags & kSkipNan) && v != v) return;
          if (flags & kCenter) {
            v = v - mid;
            v = v * v;
          }
          acc += v;
          ++cnt;
        };
        if (const T* row = wide_row(x, r, per)) {
          if (flags == 0) {
            visit_wide(row, cf, ce, tid, nt, [&](std::int64_t, T v) {
              acc += to_acc<A>(v);
              ++cnt;
            });
          } else {
            visit_wide(row, cf, ce, tid, nt, [&](std::int64_t i, T v) { use(i, to_acc<A>(v)); });
          }
        } else if (flags == 0) {  // the common case on the host: no test per element
          visit(run, load, [&](std::int64_t, A v) { acc += v; });
          cnt = run.end > run.first ? (run.end - run.first + run.step - 1) / run.step : 0;
        } else {
          visit(run, load, use);
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

}  // namespace loom::stats_plugin
