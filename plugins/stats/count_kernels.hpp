// The stats plugin's counts (kernels.hpp): bincount and equal-bin histograms, with private
// per-block bins in shared memory where they fit, and weighted counts without float atomics.
#pragma once
#include <cstdint>

#include "loom/atomic.hpp"
#include "loom/block_ctx.hpp"
#include "loom/thread_ctx.hpp"
#include "row_access.hpp"

namespace loom::stats_plugin {

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
