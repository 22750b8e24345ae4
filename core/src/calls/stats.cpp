// loom::stats (loom/stats.hpp, docs/stats.md): the input laid out as C-contiguous rows (kept
// axes, then reduced axes), the stats plugin's kernels over them, and the math plugin's
// reductions where a statistic is one (nansum, nanmax, ptp, count_nonzero, average).
#include "loom/stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "calls/stats_rows.hpp"
#include "loom/error.hpp"

namespace loom::stats {

using namespace detail;

namespace {

// What mean/var/std compute and return: the result dtype (NumPy: float inputs keep theirs,
// integers and bool give float64; dtype= picks it) and the accumulator (float32 for float16).
DType result_dtype(const std::string& who, const Array& a, const std::optional<DType>& dtype) {
  if (is_complex(a.dtype())) {
    throw TypeError(who + ": " + std::string(name(a.dtype())) +
                    " input is not supported (real dtypes only; docs/stats.md)");
  }
  if (dtype) {
    if (!is_float(*dtype)) {
      throw TypeError(who + ": dtype " + std::string(name(*dtype)) +
                      " is not a float dtype (float16, float32 or float64)");
    }
    return *dtype;
  }
  return is_float(a.dtype()) ? a.dtype() : DType::float64;
}

enum class What { mean = 0, var = 1, std = 2 };

Array moments(const Runtime& rt, const std::string& who, const Array& a, const StatsOptions& o,
              What what, bool skipnan) {
  if (what != What::mean && !(o.ddof >= 0)) {
    throw ValueError(who + ": ddof (" + std::to_string(o.ddof) + ") must not be negative");
  }
  const DType dt = result_dtype(who, a, o.dtype);
  const DType acc = dt == DType::float64 ? DType::float64 : DType::float32;
  const std::vector<bool> red = reduced_axes(who, a.ndim(), o.axis);
  const Layout l = layout_of(a, red, o.keepdims);
  check_out(who, o.out, dt, l.shape);
  if (o.where && o.where->dtype() != DType::bool_) {
    throw TypeError(who + ": where= has dtype " + std::string(name(o.where->dtype())) +
                    ", it must be bool");
  }
  const std::string target = target_of(rt, a, o.target);
  const Array rows = rows_of(rt, a, l, a.dtype(), target);
  std::int32_t flags = skipnan && is_float(a.dtype()) ? kSkipNan : 0;
  // Read only with kMasked: without where= an unset placeholder (no copy to the device a call).
  Array mask = rt.empty({1, 1}, DType::bool_, target);
  if (o.where) {
    mask = rows_of(rt, o.where->broadcast_to(a.shape()), l, DType::bool_, target);
    flags |= kMasked;
  }
  const Array none = rt.empty({1}, acc, target);
  const Sums s = row_sums(rt, rows, acc, flags, mask, none, target, {.ddof = 0, .what = 0});
  Array r;
  if (what == What::mean) {
    r = finish(rt, s, dt, target);
  } else {
    const Array m = finish(rt, s, acc, target);  // the mean, in the accumulator's type
    const Sums d = row_sums(rt, rows, acc, flags | kCenter, mask, m, target,
                            {.ddof = o.ddof, .what = static_cast<std::int32_t>(what)});
    r = finish(rt, d, dt, target);
  }
  return deliver(rt, a, r, l.shape, o.out);
}

void refuse(const std::string& who, bool given, const char* option) {
  if (given) {
    throw ValueError(who + " takes no " + option + "= (NumPy's does not either; docs/stats.md)");
  }
}

// np.sum's dtype for integers: int64 (uint64 for unsigned), bool counting as int64.
std::optional<DType> sum_dtype(const Array& a, const StatsOptions& o) {
  if (o.dtype || o.out) return o.dtype;
  if (a.dtype() == DType::bool_ || kind(a.dtype()) == Kind::signed_int) return DType::int64;
  if (kind(a.dtype()) == Kind::unsigned_int) return DType::uint64;
  return std::nullopt;
}

// `op` reduced over the elements that are not NaN (and where where= is true).
Array nan_reduce(const Runtime& rt, const std::string& who, const std::string& op, const Array& a,
                 const StatsOptions& o, std::optional<DType> dtype) {
  ReduceOptions ro{.target = o.target,
                   .axis = o.axis.given() ? o.axis : Axes::every(),
                   .keepdims = o.keepdims,
                   .out = o.out,
                   .dtype = dtype};
  if (o.axis.given() && !o.axis.all()) (void)reduced_axes(who, a.ndim(), o.axis);
  // fmax and fmin leave NaNs out themselves (and have no identity for where= to fill with).
  const bool mask_nans = op != "fmax" && op != "fmin";
  if (mask_nans && (is_float(a.dtype()) || is_complex(a.dtype()))) {
    const CallOptions co{.target = o.target};
    Array keep = rt.ufunc("logical_not")(rt.ufunc("isnan")(a, co), co);
    if (o.where) keep = rt.ufunc("logical_and")(keep, *o.where, co);
    ro.where = keep;
  } else if (o.where) {
    ro.where = o.where;
  }
  return rt.ufunc(op).reduce(a, ro);
}

// Arg reductions: the extreme's index per row.
Array arg(const Runtime& rt, const std::string& who, const Array& a, const ArgOptions& o,
          std::int32_t flags) {
  if (is_complex(a.dtype())) {
    throw TypeError(who + ": " + std::string(name(a.dtype())) +
                    " input is not supported (real dtypes only; docs/stats.md)");
  }
  std::vector<bool> red(a.ndim(), true);
  if (o.axis) red = reduced_axes(who, a.ndim(), Axes(*o.axis));
  Layout l = layout_of(a, red, o.keepdims);
  if (l.N == 0) {
    throw ValueError(who + ": attempt to get " + who + " of an empty sequence (" + a.str() + ")");
  }
  check_out(who, o.out, DType::int64, l.shape);
  const std::string target = target_of(rt, a, o.target);
  const Array rows = rows_of(rt, a, l, a.dtype(), target);
  const std::int64_t R = l.R;
  const std::size_t item = a.itemsize();
  Chunking c = chunking(l.N, target);
  Array pv = rt.empty({R, c.chunks}, a.dtype(), target);
  Array pi = rt.empty({R, c.chunks}, DType::int64, target);
  if (R > 0) {
    rt.kernel("stats_arg_part")
        .launch(block_launch(R * c.chunks, c, item, target), rows, flags, c.k, pv, pi);
    while (pv.shape()[1] > 1) {
      c = chunking(pv.shape()[1], target, true);
      Array v2 = rt.empty({R, c.chunks}, a.dtype(), target);
      Array i2 = rt.empty({R, c.chunks}, DType::int64, target);
      rt.kernel("stats_arg_fold")
          .launch(block_launch(R * c.chunks, c, item, target), pv, pi, flags & kArgMin, c.k, v2,
                  i2);
      pv = v2;
      pi = i2;
    }
  }
  const Array idx = pi.reshape({R});
  if (flags & kArgSkipNan) {
    const Array h = rt.to_host(idx);
    const auto* p = h.data<std::int64_t>();
    for (std::int64_t r = 0; r < R; ++r) {
      if (p[r] < 0)
        throw ValueError(who + ": All-NaN slice encountered (row " + std::to_string(r) + ")");
    }
  }
  return deliver(rt, a, idx, l.shape, o.out);
}

}  // namespace

Array mean(const Runtime& rt, const Array& a, const StatsOptions& o) {
  return moments(rt, "mean", a, o, What::mean, false);
}
Array var(const Runtime& rt, const Array& a, const StatsOptions& o) {
  return moments(rt, "var", a, o, What::var, false);
}
Array std(const Runtime& rt, const Array& a, const StatsOptions& o) {
  return moments(rt, "std", a, o, What::std, false);
}
Array nanmean(const Runtime& rt, const Array& a, const StatsOptions& o) {
  return moments(rt, "nanmean", a, o, What::mean, true);
}
Array nanvar(const Runtime& rt, const Array& a, const StatsOptions& o) {
  return moments(rt, "nanvar", a, o, What::var, true);
}
Array nanstd(const Runtime& rt, const Array& a, const StatsOptions& o) {
  return moments(rt, "nanstd", a, o, What::std, true);
}

Array nansum(const Runtime& rt, const Array& a, const StatsOptions& o) {
  refuse("nansum", o.ddof != 0, "ddof");
  return nan_reduce(rt, "nansum", "add", a, o, sum_dtype(a, o));
}
Array nanprod(const Runtime& rt, const Array& a, const StatsOptions& o) {
  refuse("nanprod", o.ddof != 0, "ddof");
  return nan_reduce(rt, "nanprod", "multiply", a, o, sum_dtype(a, o));
}
// fmax / fmin reduce: NaN skipped unless a whole slice is NaN. where= is refused rather than
// dropped: NumPy's nanmax takes it only with initial=, which StatsOptions does not carry.
Array nan_extreme(const Runtime& rt, const char* who, const char* op, const Array& a,
                  const StatsOptions& o) {
  refuse(who, o.ddof != 0, "ddof");
  refuse(who, o.dtype.has_value(), "dtype");
  if (o.where) {
    throw ValueError(std::string(who) +
                     " takes no where= in loom::stats (NumPy's needs initial= with it, which "
                     "StatsOptions does not carry; docs/stats.md)");
  }
  return nan_reduce(rt, who, op, a,
                    {.axis = o.axis, .keepdims = o.keepdims, .out = o.out, .target = o.target},
                    std::nullopt);
}
Array nanmax(const Runtime& rt, const Array& a, const StatsOptions& o) {
  return nan_extreme(rt, "nanmax", "fmax", a, o);
}
Array nanmin(const Runtime& rt, const Array& a, const StatsOptions& o) {
  return nan_extreme(rt, "nanmin", "fmin", a, o);
}

Array ptp(const Runtime& rt, const Array& a, const StatsOptions& o) {
  refuse("ptp", o.ddof != 0, "ddof");
  refuse("ptp", o.dtype.has_value(), "dtype");
  refuse("ptp", o.where.has_value(), "where");
  (void)reduced_axes("ptp", a.ndim(), o.axis);
  const ReduceOptions ro{
      .target = o.target, .axis = o.axis.given() ? o.axis : Axes::every(), .keepdims = o.keepdims};
  const Array hi = rt.ufunc("maximum").reduce(a, ro), lo = rt.ufunc("minimum").reduce(a, ro);
  CallOptions co{.target = o.target};
  if (o.out) {
    check_out("ptp", o.out, hi.dtype(), hi.shape());
    co.out = {*o.out};
  }
  return rt.ufunc("subtract")(hi, lo, co);
}

Array count_nonzero(const Runtime& rt, const Array& a, const StatsOptions& o) {
  refuse("count_nonzero", o.ddof != 0, "ddof");
  refuse("count_nonzero", o.dtype.has_value(), "dtype");
  refuse("count_nonzero", o.where.has_value(), "where");
  (void)reduced_axes("count_nonzero", a.ndim(), o.axis);
  const CallOptions co{.target = o.target};
  const Array nz = rt.ufunc("not_equal")(a, zeros({}, a.dtype()), co);
  return rt.ufunc("add").reduce(nz, {.target = o.target,
                                     .axis = o.axis.given() ? o.axis : Axes::every(),
                                     .keepdims = o.keepdims,
                                     .out = o.out,
                                     .dtype = DType::int64});
}

Array argmax(const Runtime& rt, const Array& a, const ArgOptions& o) {
  return arg(rt, "argmax", a, o, 0);
}
Array argmin(const Runtime& rt, const Array& a, const ArgOptions& o) {
  return arg(rt, "argmin", a, o, kArgMin);
}
Array nanargmax(const Runtime& rt, const Array& a, const ArgOptions& o) {
  return arg(rt, "nanargmax", a, o, kArgSkipNan);
}
Array nanargmin(const Runtime& rt, const Array& a, const ArgOptions& o) {
  return arg(rt, "nanargmin", a, o, kArgMin | kArgSkipNan);
}

}  // namespace loom::stats
