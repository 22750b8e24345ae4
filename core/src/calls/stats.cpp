// loom::stats (loom/stats.hpp, docs/stats.md): the input laid out as C-contiguous rows (kept
// axes, then reduced axes), the stats plugin's kernels over them, and the math plugin's
// reductions where a statistic is one (nansum, nanmax, ptp, count_nonzero, average).
#include "loom/stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "loom/error.hpp"

namespace loom::stats {

namespace {

// Chunk shape of the row kernels: k elements a thread, at most kThreads threads a block. The
// block size follows from the row length alone, so the association order (and the bits) does too.
constexpr std::int64_t kPerThread = 16;
constexpr std::int64_t kPerThreadDevice = 64;
constexpr std::int64_t kThreads = 256;
constexpr std::int64_t kMaxBlocks = std::int64_t{1} << 20;  // block-stride loops past this
// Private bins per block in shared memory (uint32): 48 KiB, every GPU's default limit.
constexpr std::int64_t kSharedBins = 12288;

// Flags of the stats plugin's kernels (plugins/stats/kernels.hpp).
constexpr std::int32_t kSkipNan = 1, kMasked = 2, kCenter = 4;
constexpr std::int32_t kArgMin = 1, kArgSkipNan = 2;

bool is_float(DType t) { return kind(t) == Kind::floating; }
bool is_int(DType t) { return kind(t) == Kind::signed_int || kind(t) == Kind::unsigned_int; }
bool is_complex(DType t) { return kind(t) == Kind::complex; }

std::string target_of(const Runtime& rt, const Array& a, const std::string& target) {
  if (!target.empty()) return target;
  if (!a.device().is_host()) return a.device().str();  // a device array runs where it is
  return rt.default_target();
}

bool device_target(const std::string& target) { return target.rfind("cuda", 0) == 0; }

// `a` where the kernels of `target` read it (copied once, not once per launch).
Array on_target(const Runtime& rt, const Array& a, const std::string& target) {
  if (device_target(target) && a.device().is_host()) return rt.to_device(a, target);
  return a;
}

// A C-contiguous copy of `a` in the same memory (a itself when it is one), of dtype `dt`.
Array contiguous(const Runtime& rt, const Array& a, DType dt, const std::string& target) {
  if (a.is_c_contiguous() && a.dtype() == dt) return a;
  const Array dst = a.device().is_host() ? empty(a.shape(), dt) : rt.empty(a.shape(), dt, target);
  rt.copy_to(a, dst);
  return dst;
}

// The result back where the input was.
Array home(const Runtime& rt, const Array& input, const Array& r) {
  if (input.device().is_host() && !r.device().is_host()) return rt.to_host(r);
  return r;
}

std::vector<bool> reduced_axes(const std::string& who, int nd, const Axes& axis) {
  std::vector<bool> red(nd, !axis.given() || axis.all());
  if (!axis.given() || axis.all()) return red;
  for (const int a : axis.list()) {
    const int ax = a < 0 ? a + nd : a;
    if (ax < 0 || ax >= nd) {
      throw ValueError(who + ": axis " + std::to_string(a) +
                       " is out of bounds for an array of dimension " + std::to_string(nd));
    }
    if (red[ax]) throw ValueError(who + ": axis " + std::to_string(a) + " given twice");
    red[ax] = true;
  }
  return red;
}

// The input as rows: (R, N) with the kept axes first (R their product) and the reduced ones
// last (N theirs).
struct Layout {
  Shape shape;  // the result's shape (keepdims as asked)
  std::int64_t R = 1, N = 1;
  std::vector<int> perm;
};

Layout layout_of(const Array& a, const std::vector<bool>& red, bool keepdims) {
  Layout l;
  for (int k = 0; k < a.ndim(); ++k) {
    if (!red[k]) {
      l.perm.push_back(k);
      l.R *= a.shape()[k];
      l.shape.push_back(a.shape()[k]);
    } else if (keepdims) {
      l.shape.push_back(1);
    }
  }
  for (int k = 0; k < a.ndim(); ++k) {
    if (red[k]) {
      l.perm.push_back(k);
      l.N *= a.shape()[k];
    }
  }
  return l;
}

Array rows_of(const Runtime& rt, const Array& a, const Layout& l, DType dt,
              const std::string& target) {
  const Array t = a.ndim() == 0 ? a : a.transpose(l.perm);
  return contiguous(rt, on_target(rt, t, target), dt, target).reshape({l.R, l.N});
}

void check_out(const std::string& who, const std::optional<Array>& out, DType dt,
               const Shape& shape) {
  if (!out) return;
  if (out->dtype() != dt) {
    throw TypeError(who + ": out= has dtype " + std::string(name(out->dtype())) +
                    ", the result's is " + std::string(name(dt)));
  }
  if (out->shape() != shape) {
    throw ShapeError(who + ": out= has shape " + shape_str(out->shape()) +
                     ", the result's shape is " + shape_str(shape));
  }
}

// A new array for the (R,) results on the target.
Array fresh(const Runtime& rt, std::int64_t n, DType dt, const std::string& target) {
  return rt.empty({n}, dt, target);
}

// The (R,) result written where it goes: into out= (any strides, any memory), else reshaped.
Array deliver(const Runtime& rt, const Array& input, const Array& flat, const Shape& shape,
              const std::optional<Array>& out) {
  if (out) {
    rt.copy_to(flat.reshape(shape), *out);
    return *out;
  }
  return home(rt, input, flat.reshape(shape));
}

struct Chunking {
  std::int64_t threads, chunks, k;  // k: elements a thread
};
// Threads a block and chunks a row for rows of length n (at least one chunk: an empty row's sum
// is a block's zero). A GPU thread takes more elements than a host one: with 16, a block's fixed
// tree and the fold launches cost more than its loads (mean of 2^26 float32 at 171 us on an
// H200, 2.5x CuPy). A fold's partials are few: there a GPU thread takes 16, so that one block of
// 256 threads folds 4096 of them (64 a thread, in a block of 64, took 28 us of latency).
Chunking chunking(std::int64_t n, const std::string& target, bool fold = false) {
  const std::int64_t k = device_target(target) && !fold ? kPerThreadDevice : kPerThread;
  std::int64_t nt = 1;
  while (nt < kThreads && nt * k < n) nt *= 2;
  const std::int64_t per = nt * k;
  return {nt, std::max<std::int64_t>(1, (n + per - 1) / per), k};
}

LaunchConfig block_launch(std::int64_t blocks, const Chunking& c, std::size_t item,
                          const std::string& target) {
  return {.blocks = std::min(blocks, kMaxBlocks),
          .threads = c.threads,
          .shared_bytes = static_cast<std::size_t>(c.threads) * (8 + item),
          .target = target};
}

struct Sums {
  Array sum, count;  // (R,) of the accumulator's dtype and int64, on the target
};

// Per row of `rows` (R, N): the sum (in acc) and count of the kept elements.
Sums row_sums(const Runtime& rt, const Array& rows, DType acc, std::int32_t flags,
              const Array& mask, const Array& center, const std::string& target) {
  const std::int64_t R = rows.shape()[0], N = rows.shape()[1];
  const std::size_t item = itemsize(acc);
  Chunking c = chunking(N, target);
  Array ps = rt.empty({R, c.chunks}, acc, target),
        pc = rt.empty({R, c.chunks}, DType::int64, target);
  if (R == 0) return {ps.reshape({0}), pc.reshape({0})};
  rt.kernel(acc == DType::float32 ? "stats_sum_part_f32" : "stats_sum_part_f64")
      .launch(block_launch(R * c.chunks, c, item, target), rows, mask, center, flags, c.k, ps, pc);
  while (ps.shape()[1] > 1) {
    c = chunking(ps.shape()[1], target, true);
    Array s2 = rt.empty({R, c.chunks}, acc, target),
          c2 = rt.empty({R, c.chunks}, DType::int64, target);
    rt.kernel("stats_sum_fold")
        .launch(block_launch(R * c.chunks, c, item, target), ps, pc, c.k, s2, c2);
    ps = s2;
    pc = c2;
  }
  return {ps.reshape({R}), pc.reshape({R})};
}

Array finish(const Runtime& rt, const Sums& s, double ddof, std::int32_t what, DType dt,
             const std::string& target) {
  const std::int64_t R = s.sum.shape()[0];
  Array out = fresh(rt, R, dt, target);
  if (R > 0) {
    rt.kernel("stats_finish")
        .launch({.size = R, .target = target}, s.sum, s.count, ddof, what, out);
  }
  return out;
}

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
  const Sums s = row_sums(rt, rows, acc, flags, mask, none, target);
  Array r;
  if (what == What::mean) {
    r = finish(rt, s, 0, 0, dt, target);
  } else {
    const Array m = finish(rt, s, 0, 0, acc, target);  // the mean, in the accumulator's type
    const Sums d = row_sums(rt, rows, acc, flags | kCenter, mask, m, target);
    r = finish(rt, d, o.ddof, static_cast<std::int32_t>(what), dt, target);
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
