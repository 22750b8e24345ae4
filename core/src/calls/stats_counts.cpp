// loom::stats's weighted and binned counts (average with weights, bincount, histogram): the
// math plugin's reductions for average, the stats plugin's count kernels for the others.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "calls/stats_rows.hpp"
#include "loom/error.hpp"

namespace loom::stats {

using namespace detail;

Array average(const Runtime& rt, const Array& a, const AverageOptions& o) {
  if (!o.weights) return mean(rt, a, {.axis = o.axis, .keepdims = o.keepdims, .target = o.target});
  const std::string who = "average";
  if (is_complex(a.dtype()) || is_complex(o.weights->dtype())) {
    throw TypeError(who + ": complex input is not supported (real dtypes only; docs/stats.md)");
  }
  const std::vector<bool> red = reduced_axes(who, a.ndim(), o.axis);
  Array w = *o.weights;
  if (w.shape() != a.shape()) {
    // NumPy: 1-d weights along the one axis given.
    const bool one_axis = o.axis.given() && o.axis.single() && w.ndim() == 1;
    const int ax =
        one_axis ? (o.axis.list()[0] < 0 ? o.axis.list()[0] + a.ndim() : o.axis.list()[0]) : 0;
    if (!one_axis || w.shape()[0] != a.shape()[ax]) {
      throw ShapeError(who + ": weights of shape " + shape_str(w.shape()) + " differ from a's " +
                       shape_str(a.shape()) + "; 1-d weights need one axis given and its length");
    }
    Shape s(a.ndim(), 1);
    s[ax] = a.shape()[ax];
    w = w.reshape(s).broadcast_to(a.shape());
  }
  const DType dt = DType::float64;  // NumPy: result_type(a, weights, float64) for real inputs
  const std::string target = target_of(rt, a, o.target);
  const CallOptions co{.target = target, .signature = "float64(float64,float64)"};
  const ReduceOptions ro{.target = target,
                         .axis = o.axis.given() ? o.axis : Axes::every(),
                         .keepdims = o.keepdims,
                         .dtype = dt};
  const Array wsum = rt.ufunc("add").reduce(w, ro);
  const Array num = rt.ufunc("add").reduce(rt.ufunc("multiply")(a, w, co), ro);
  const Array hw = rt.to_host(wsum);
  for (const double v : hw.to_vector<double>()) {
    if (v == 0.0) throw ValueError(who + ": weights sum to zero, can't be normalized");
  }
  (void)red;
  return home(rt, a, rt.ufunc("divide")(num, wsum, co));
}

namespace {

// Weighted counts per bin without floating-point atomics: chunks of x into rows of part (chunks,
// bins) in element order, then each bin's column summed in order by the row kernels.
Array weighted_counts(const Runtime& rt, const Array& x, const Array& w, const Array& edges,
                      double norm, bool hist, std::int64_t bins, const std::string& target) {
  const std::int64_t n = x.size();
  const std::int64_t per = std::max<std::int64_t>(4096, (n + 1023) / 1024);
  const std::int64_t chunks = std::max<std::int64_t>(1, (n + per - 1) / per);
  const Array part = rt.empty({chunks, bins}, DType::float64, target);
  rt.kernel("stats_weighted_part")
      .launch({.size = chunks, .target = target}, x, w, edges, norm, hist, per, part);
  const Array cols = contiguous(rt, part.transpose(), DType::float64, target);
  const Sums s = row_sums(rt, cols, DType::float64, 0, rt.empty({1, 1}, DType::bool_, target),
                          rt.empty({1}, DType::float64, target), target);
  return s.sum;
}

Array counts_of(const Runtime& rt, const std::string& shared, const std::string& global,
                const Array& x, std::int64_t bins, const std::string& target,
                const auto&... extra) {
  const Array counts = rt.zeros({bins}, DType::int64, target);
  if (x.size() == 0 || bins == 0) return counts;
  if (bins <= kSharedBins) {
    rt.kernel(shared).launch(
        {.threads = kThreads, .shared_bytes = static_cast<std::size_t>(bins) * 4, .target = target},
        x, extra..., counts);
  } else {
    rt.kernel(global).launch({.threads = kThreads, .target = target}, x, extra..., counts);
  }
  return counts;
}

// x flattened, contiguous, where the kernels of `target` read it.
Array flat_on(const Runtime& rt, const Array& x, DType dt, const std::string& target) {
  return contiguous(rt, on_target(rt, x, target), dt, target).reshape({x.size()});
}

Array weights_on(const Runtime& rt, const std::string& who, const Array& x, const Array& w,
                 const std::string& target) {
  if (w.shape() != x.shape()) {
    throw ShapeError(who + ": weights of shape " + shape_str(w.shape()) + " differ from " +
                     shape_str(x.shape()) + ", the input's");
  }
  if (is_complex(w.dtype())) {
    throw TypeError(who + ": complex weights are not supported (docs/stats.md)");
  }
  return flat_on(rt, w, DType::float64, target);
}

}  // namespace

Array bincount(const Runtime& rt, const Array& x, const BincountOptions& o) {
  const std::string who = "bincount";
  if (x.ndim() != 1) {
    throw ShapeError(who + ": x must be 1-d, not of shape " + shape_str(x.shape()));
  }
  if (!is_int(x.dtype()) && x.dtype() != DType::bool_) {
    throw TypeError(who + ": x has dtype " + std::string(name(x.dtype())) +
                    ", it must be an integer dtype (NumPy casts safely to int64)");
  }
  if (o.minlength < 0) {
    throw ValueError(who + ": minlength (" + std::to_string(o.minlength) +
                     ") must not be negative");
  }
  const std::string target = target_of(rt, x, o.target);
  std::int64_t bins = o.minlength;
  if (x.size() > 0) {
    const ReduceOptions ro{.target = target, .axis = Axes::every()};
    if (kind(x.dtype()) == Kind::signed_int) {  // unsigned values are never negative
      const std::int64_t lo =
          rt.to_host(rt.ufunc("minimum").reduce(x, ro)).to_vector<std::int64_t>()[0];
      if (lo < 0) {
        throw ValueError(who + ": x has a negative element (" + std::to_string(lo) +
                         "); it counts non-negative integers");
      }
    }
    const Array hi = rt.to_host(rt.ufunc("maximum").reduce(x, ro));
    if (x.dtype() == DType::uint64 &&
        hi.to_vector<std::uint64_t>()[0] >
            static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max() - 1)) {
      throw ValueError(who + ": the largest element does not fit int64");
    }
    bins = std::max(bins, hi.to_vector<std::int64_t>()[0] + 1);
  }
  const Array xs = flat_on(rt, x, x.dtype(), target);
  Array r;
  if (o.weights) {
    const Array w = weights_on(rt, who, x, *o.weights, target);
    if (x.size() == 0 || bins == 0) {
      r = rt.zeros({bins}, DType::float64, target);
    } else {
      const Array no_edges = on_target(rt, zeros({2}), target);
      r = weighted_counts(rt, xs, w, no_edges, 0.0, false, bins, target);
    }
  } else {
    r = counts_of(rt, "stats_bincount_shared", "stats_bincount_global", xs, bins, target);
  }
  return home(rt, x, r);
}

HistogramResult histogram(const Runtime& rt, const Array& a, std::int64_t bins,
                          const HistogramOptions& o) {
  const std::string who = "histogram";
  if (bins <= 0) {
    throw ValueError(who + ": bins (" + std::to_string(bins) + ") must be a positive integer");
  }
  if (is_complex(a.dtype())) {
    throw TypeError(who + ": complex input is not supported (docs/stats.md)");
  }
  const std::string target = target_of(rt, a, o.target);
  double lo = 0, hi = 1;  // NumPy: an empty array without range= has the range (0, 1)
  if (o.range) {
    lo = o.range->first;
    hi = o.range->second;
    if (lo > hi) {
      throw ValueError(who + ": max must be larger than min in range parameter (range=(" +
                       std::to_string(lo) + ", " + std::to_string(hi) + "))");
    }
  } else if (a.size() > 0) {
    const ReduceOptions ro{.target = target, .axis = Axes::every(), .dtype = DType::float64};
    lo = rt.to_host(rt.ufunc("minimum").reduce(a, ro)).to_vector<double>()[0];
    hi = rt.to_host(rt.ufunc("maximum").reduce(a, ro)).to_vector<double>()[0];
  }
  if (!std::isfinite(lo) || !std::isfinite(hi)) {
    throw ValueError(who + ": " + (o.range ? "range" : "autodetected range") + " of [" +
                     std::to_string(lo) + ", " + std::to_string(hi) + "] is not finite");
  }
  if (lo == hi) {  // NumPy widens an empty range by 0.5 each side
    lo -= 0.5;
    hi += 0.5;
  }
  const Array edges = linspace(lo, hi, bins + 1);
  const double norm = static_cast<double>(bins) / (hi - lo);
  const Array dedges = on_target(rt, edges, target);
  const Array xs = flat_on(rt, a, a.dtype(), target);
  Array r;
  if (o.weights) {
    const Array w = weights_on(rt, who, a, *o.weights, target);
    r = a.size() == 0 ? rt.zeros({bins}, DType::float64, target)
                      : weighted_counts(rt, xs, w, dedges, norm, true, bins, target);
  } else {
    r = counts_of(rt, "stats_histogram_shared", "stats_histogram_global", xs, bins, target, dedges,
                  norm);
  }
  return {home(rt, a, r), edges};
}

}  // namespace loom::stats
