// NumPy's statistics on any target (docs/stats.md): mean, var, std, their nan* forms, argmax,
// argmin, ptp, count_nonzero, average, bincount and histogram. Host API; the kernels are the
// stats plugin's (plugins/stats), the rest are the math plugin's reductions and ufuncs.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "loom/array.hpp"
#include "loom/runtime.hpp"

namespace loom::stats {

// NumPy's keyword arguments of the reductions. The result lives where the input does.
struct StatsOptions {
  Axes axis{};                   // not given or Axes::every(): every axis; an int; {list}
  bool keepdims = false;         // keep the reduced axes with length 1
  std::optional<DType> dtype{};  // mean/var/std: the result's float dtype (and what accumulates)
  std::optional<Array> out{};    // write here (the result's shape and dtype)
  std::optional<Array> where{};  // bool, broadcast to the input: elements left out where false
  double ddof = 0;               // var, std, nanvar, nanstd: divide by count - ddof
  std::string target{};          // "" = the runtime's default
};

Array mean(const Runtime& rt, const Array& a, const StatsOptions& o = {});
Array var(const Runtime& rt, const Array& a, const StatsOptions& o = {});
Array std(const Runtime& rt, const Array& a, const StatsOptions& o = {});
// NaNs left out: an all-NaN (or empty) slice gives NaN, as NumPy's value.
Array nanmean(const Runtime& rt, const Array& a, const StatsOptions& o = {});
Array nanvar(const Runtime& rt, const Array& a, const StatsOptions& o = {});
Array nanstd(const Runtime& rt, const Array& a, const StatsOptions& o = {});
// add / multiply / fmax / fmin reductions with NaNs left out (an all-NaN slice: 0, 1, NaN, NaN).
Array nansum(const Runtime& rt, const Array& a, const StatsOptions& o = {});
Array nanprod(const Runtime& rt, const Array& a, const StatsOptions& o = {});
Array nanmax(const Runtime& rt, const Array& a, const StatsOptions& o = {});
Array nanmin(const Runtime& rt, const Array& a, const StatsOptions& o = {});
// max - min in the input's dtype (integers wrap, as NumPy's).
Array ptp(const Runtime& rt, const Array& a, const StatsOptions& o = {});
// int64 count of elements that are not zero (where= and dtype= are not taken).
Array count_nonzero(const Runtime& rt, const Array& a, const StatsOptions& o = {});

// argmax/argmin take one axis or none (NumPy: the flat index); the result is int64.
struct ArgOptions {
  std::optional<int> axis{};  // not given: the index into the flattened array
  bool keepdims = false;
  std::optional<Array> out{};  // int64, the result's shape
  std::string target{};
};
// The first extreme; the first NaN where there is one (NumPy).
Array argmax(const Runtime& rt, const Array& a, const ArgOptions& o = {});
Array argmin(const Runtime& rt, const Array& a, const ArgOptions& o = {});
// NaNs left out; a slice of NaNs only is a ValueError (NumPy: "All-NaN slice encountered").
Array nanargmax(const Runtime& rt, const Array& a, const ArgOptions& o = {});
Array nanargmin(const Runtime& rt, const Array& a, const ArgOptions& o = {});

// np.average(a, axis, weights): weights of a's shape, or 1-d along the one axis given.
struct AverageOptions {
  Axes axis{};
  std::optional<Array> weights{};
  bool keepdims = false;
  std::string target{};
};
Array average(const Runtime& rt, const Array& a, const AverageOptions& o = {});

struct BincountOptions {
  std::optional<Array> weights{};  // float64 result when given (x's shape)
  std::int64_t minlength = 0;
  std::string target{};
};
// np.bincount of a 1-d array of non-negative integers: int64 counts (float64 with weights).
Array bincount(const Runtime& rt, const Array& x, const BincountOptions& o = {});

struct HistogramOptions {
  std::optional<std::pair<double, double>> range{};  // not given: (min, max) of the data
  std::optional<Array> weights{};                    // float64 result when given (a's shape)
  std::string target{};
};
struct HistogramResult {
  Array hist;       // int64 counts (float64 sums of weights) per bin
  Array bin_edges;  // float64, bins + 1 edges (host)
};
// np.histogram(a, bins) over equal bins of the range: the last bin is closed on the right,
// values outside the range are dropped; a is flattened.
HistogramResult histogram(const Runtime& rt, const Array& a, std::int64_t bins = 10,
                          const HistogramOptions& o = {});

}  // namespace loom::stats
