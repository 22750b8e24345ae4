// Reductions with NumPy's semantics (rt.reduce and Ufunc::reduce): axis (not given, one, several,
// all, none), keepdims, initial (the identity, a value, or none), where=, out= whose dtype selects
// the loop, dtype=, and the reorderability rules. docs/methods.md has the table against NumPy.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "runtime/call_common.hpp"
#include "runtime/device_set.hpp"
#include "loom/aliasing.hpp"
#include "loom/exec.hpp"
#include "loom/strided.hpp"
#include "calls/methods_common.hpp"

namespace loom {

namespace detail {

namespace {

std::string initial_str(const Array& v) {
  const Kind k = kind(v.dtype());
  if (k == Kind::floating) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v.item<double>());
    return buf;
  }
  if (k == Kind::unsigned_int) return std::to_string(v.item<std::uint64_t>());
  if (k == Kind::boolean) return v.item<bool>() ? "true" : "false";
  return std::to_string(v.item<std::int64_t>());
}

// initial= as a 0-d array of the loop's dtype, exactly (NumPy converts it as a Python scalar: a
// float into an integer loop truncates; a value outside the integer dtype's range is an error).
Array exact_initial(const Array& v, DType dt, const std::string& who) {
  Array r = empty({}, dt);
  const Kind to = kind(dt), from = kind(v.dtype());
  if (to == Kind::signed_int || to == Kind::unsigned_int) {
    const int bits = static_cast<int>(itemsize(dt)) * 8;
    const bool is_signed = to == Kind::signed_int;
    bool ok = true;
    if (from == Kind::floating) {
      const double d = std::trunc(v.item<double>());
      const double lo = is_signed ? -std::ldexp(1.0, bits - 1) : 0.0;
      const double hi = std::ldexp(1.0, is_signed ? bits - 1 : bits);
      ok = std::isfinite(d) && d >= lo && d < hi;
    } else if (from == Kind::unsigned_int) {
      const std::uint64_t u = v.item<std::uint64_t>();
      ok = bits == 64 ? (!is_signed || u <= static_cast<std::uint64_t>(INT64_MAX))
                      : u < (std::uint64_t{1} << (bits - (is_signed ? 1 : 0)));
    } else if (from == Kind::signed_int) {
      const std::int64_t s = v.item<std::int64_t>();
      if (is_signed) {
        ok = bits == 64 ||
             (s >= -(std::int64_t{1} << (bits - 1)) && s < (std::int64_t{1} << (bits - 1)));
      } else {
        ok = s >= 0 && (bits == 64 || s < (std::int64_t{1} << bits));
      }
    }
    if (!ok) {
      throw ValueError(who + ": initial=" + initial_str(v) + " is out of bounds for the loop's " +
                       "dtype " + std::string(name(dt)) + " (NumPy raises OverflowError)");
    }
    if (from == Kind::floating) {
      const double d = std::trunc(v.item<double>());
      if (is_signed) {
        const std::int64_t s = static_cast<std::int64_t>(d);
        cast_strided(reinterpret_cast<const char*>(&s), 0, DType::int64, r.data(), 0, dt, 1);
      } else {
        const std::uint64_t u = static_cast<std::uint64_t>(d);
        cast_strided(reinterpret_cast<const char*>(&u), 0, DType::uint64, r.data(), 0, dt, 1);
      }
      return r;
    }
  }
  cast_strided(v.data(), 0, v.dtype(), r.data(), 0, dt, 1);
  return r;
}

// The result in `want` (NumPy's result dtype), in out= (cast unsafely, as NumPy's reductions
// do) or in the caller's memory.
Array finish_reduction(const Target& t, Array shaped, DType want, const std::optional<Array>& out) {
  if (shaped.dtype() != want && !(out && out->dtype() == want)) shaped = t.cast(shaped, want);
  if (out) {
    t.copy(shaped, *out);
    return *out;
  }
  return t.on_device() && !t.device_mode ? t.rt->to_host(shaped, t.stream) : shaped;
}

// Whether op(start, identity) gives `start` back bit for bit, run by the call's loop on its
// target. Standing the identity in for masked-out elements is exact only then: gcd(-1, 0) = 1,
// hypot(-3, 0) = 3 and -0.0 + 0.0 = +0.0 are not (the op's own results are: they are what the
// identity is an identity for), and NumPy folds only the selected elements into initial=.
bool identity_keeps_start(const Target& t, const LoopImpl& impl, DType dt, const Array& start,
                          const Array& identity, bool ordered) {
  Array into = t.on_device() ? t.rt->empty({1}, dt, t.device_name(), t.stream) : empty({1}, dt);
  t.copy(start, into);
  const Array part = t.on_device() ? t.to_device(identity.reshape({1})) : identity.reshape({1});
  const Array ops[] = {Array(into.buffer(), dt, {1}, {0}, into.offset()), part};
  ReduceCall call{StridedIter::make(ops, part.shape()), &impl, dt, t.stream.native()};
  call.ordered = ordered;
  t.backend->run_reduce(call, t.device);
  const Array got = t.on_device() ? t.rt->to_host(into, t.stream) : into;
  const Array want = start.reshape({1}).copy();
  return std::memcmp(got.data(), want.data(), itemsize(dt)) == 0;
}

}  // namespace

// Identities are small integers or values such as -1 (all ones for unsigned, as NumPy's
// bitwise_and): integer loops take them through int64, with wrapping.
Array identity_value(const OpDesc& op, DType dt, const std::string& who) {
  const Kind k = kind(dt);
  return k == Kind::floating || k == Kind::complex
             ? exact_initial(Array(*op.identity), dt, who)
             : Array(static_cast<std::int64_t>(*op.identity)).astype(dt);
}

// np.any, np.all and the logical ops' reduce give bool whatever the input: they reduce its truth
// (x != 0), through their bool loop, as NumPy's logical_or.reduce does (with out= too).
static bool logical_reduction(const OpDesc& op) {
  return op.kind == OpKind::ufunc
             ? (op.name == "logical_and" || op.name == "logical_or" || op.name == "logical_xor")
             : (op.name == "any" || op.name == "all");
}

std::optional<DType> reduction_dtype(const OpDesc& op, DType x, std::optional<DType> forced) {
  // NumPy: dtype= (or out='s dtype) when given; else add and multiply (np.sum, np.prod) reduce
  // bools and integers narrower than 64 bits in 64 bits, by name, as PyUFunc_GenericReduction
  // does; else the loop that the input's dtype resolves to decides.
  if (forced) return forced;
  const bool widens = op.kind == OpKind::ufunc ? (op.name == "add" || op.name == "multiply")
                                               : (op.name == "sum" || op.name == "prod");
  const Kind k = kind(x);
  if (widens && k == Kind::boolean) return DType::int64;
  if (widens && k == Kind::signed_int && itemsize(x) < 8) return DType::int64;
  if (widens && k == Kind::unsigned_int && itemsize(x) < 8) return DType::uint64;
  if (logical_reduction(op)) return DType::bool_;
  return std::nullopt;
}

const Loop& pick_reduce_loop(const OpDesc& op, Family family, DType x, std::optional<DType> want,
                             const std::string& who) {
  // The op's T(T,T) loop for `want` exactly, else the first one `want` (or the input's dtype)
  // casts to safely; the caller casts the result back to `want`.
  const int fam = static_cast<int>(family);
  auto binary = [&](const Loop& l) {
    if (op.kind == OpKind::reduce) return true;
    return l.sig.inputs.size() == 2 && l.sig.outputs.size() == 1 &&
           l.sig.inputs[0] == l.sig.outputs[0] && l.sig.inputs[1] == l.sig.outputs[0];
  };
  if (want) {
    for (const Loop& l : op.loops) {
      if (l.impl[fam].present() && binary(l) && l.sig.outputs[0] == *want) return l;
    }
  }
  const Array probe = empty({}, want ? *want : x);
  const Array two[2] = {probe, probe};
  const Loop& l =
      pick_loop(op, family, std::span<const Array>(two, op.kind == OpKind::reduce ? 1 : 2),
                std::nullopt, "", Casting::same_kind);
  if (!binary(l)) {
    throw TypeError(who + ": the loop " + l.sig.str() + " chosen for " +
                    std::string(name(want ? *want : x)) +
                    " is not of the form T(T,T), so it cannot reduce; pass dtype= to pick one of " +
                    op.signatures());
  }
  return l;
}

// NumPy's reduce accumulates in out=: the start value goes into out= first (initial= or the
// identity, cast to out='s dtype; or, for an op without an identity or with initial=None, the
// first element, cast from the input's dtype), then into the loop's dtype with the rest, and
// past its buffer of 8192 elements the partial results pass through out= at each flush. loom
// folds in the loop's dtype and casts once. The two agree where nothing is lost on the way
// through out=: the start value is exact in out='s dtype (the input's dtype casts to it safely,
// for a first element), the loop's dtype does for an input past the buffer, or both are
// integers under + - * & | ^ (which wrap alike). Elsewhere a reduce is refused:
// np.minimum.reduce(int16 [-3, 5], out=<uint8>) is 5 in NumPy (-3 started in out= as 253),
// np.add.reduce(np.full(20000, 0.3), out=<int64>) is 5998. accumulate and reduceat cast each result
// once in NumPy too, so they are not checked.
enum class Start { identity, initial, first_element };
static void require_out_holds_loop(const OpDesc& op, const Array& out, DType loop, DType input,
                                   Start start, const Initial& initial, std::int64_t count,
                                   const std::string& who) {
  static const char* const wrapping[] = {"add",        "subtract",    "multiply", "bitwise_and",
                                         "bitwise_or", "bitwise_xor", "sum",      "prod"};
  const bool wraps =
      std::find(std::begin(wrapping), std::end(wrapping), op.name) != std::end(wrapping);
  auto integer = [](DType t) {
    return kind(t) == Kind::signed_int || kind(t) == Kind::unsigned_int;
  };
  auto holds = [&](DType t) {
    return t == out.dtype() || can_cast(t, out.dtype(), Casting::safe) ||
           (wraps && integer(t) && integer(out.dtype()));
  };
  std::string why;
  const std::string o = std::string(name(out.dtype()));
  constexpr std::int64_t kNumPyBuffer = 8192;  // np.getbufsize()
  if (!holds(loop) && count > kNumPyBuffer) {
    why = std::to_string(count) + " elements exceed NumPy's buffer of " +
          std::to_string(kNumPyBuffer) + ", whose partial results would pass through out=";
  } else if (start == Start::first_element) {
    if (!holds(input)) {
      why = "the first element would start in out= from the input's dtype " +
            std::string(name(input));
    }
  } else {
    // initial= or the identity starts in out=: it must come through unchanged (bitwise_and's -1
    // becomes True in a bool out=, and True & -8 is 0), integers under the wrapping ops into an
    // integer out= aside.
    const Array v = start == Start::initial ? initial.value() : Array(*op.identity);
    const double want = v.astype(DType::float64).item<double>();
    const bool wraps_alike =
        wraps && integer(loop) && integer(out.dtype()) && std::trunc(want) == want;
    if (!wraps_alike && v.astype(out.dtype()).astype(DType::float64).item<double>() != want) {
      why = std::string(start == Start::initial ? "initial=" : "the identity") +
            " would start in out=, and is not exact in " + o;
    }
  }
  if (why.empty()) return;
  const std::string l = std::string(name(loop));
  throw TypeError(who + ": out= of dtype " + o + " cannot hold every value of the loop's dtype " +
                  l + " or of what starts the fold, and NumPy's result would depend on it (" + why +
                  "); give out= of " + l + " or a dtype " + l + " casts to safely, or dtype=" + o +
                  " to compute in " + o + ", or cast the result");
}

ReduceTypes resolve_reduction(const OpDesc& op, Family family, const Array& x,
                              std::optional<DType> dtype, const std::optional<Array>& out,
                              const std::string& who) {
  if (dtype) {
    // dtype= is the loop's dtype (NumPy casts the input to it unsafely). Without a loop of it,
    // the input is cast to it first and the first loop it casts to safely runs, its result cast
    // back: what dtype='s own loop gives for +, -, *, max, min. An integer or bool dtype= with
    // only float loops left is refused, as NumPy has no such loop (divide).
    const Loop& l = pick_reduce_loop(op, family, x.dtype(), dtype, who);
    const DType dt = l.sig.outputs[0];
    const Kind want = kind(*dtype), got = kind(dt);
    if (want != Kind::floating && want != Kind::complex &&
        (got == Kind::floating || got == Kind::complex)) {
      throw TypeError(
          who + ": no loop for dtype=" + std::string(name(*dtype)) +
          " (the first loop it casts to is " + l.sig.str() +
          ", which computes in floating point); its signatures are: " + op.signatures());
    }
    return {&l, dt, *dtype, dt != *dtype, *dtype};
  }
  if (out) {
    // NumPy resolves the loop from (out.dtype, x.dtype) and casts the result into out= unsafely.
    const DType od = out->dtype();
    if (logical_reduction(op)) {  // the bool loop, its result cast into out=
      const Loop& r = pick_reduce_loop(op, family, x.dtype(), DType::bool_, who);
      return {&r, DType::bool_, od, false, DType::bool_};
    }
    const Array probes[2] = {empty({}, op.kind == OpKind::reduce ? promote(od, x.dtype()) : od),
                             empty({}, x.dtype())};
    const Loop& l =
        pick_loop(op, family, std::span<const Array>(probes, op.kind == OpKind::reduce ? 1 : 2),
                  std::nullopt, "", Casting::same_kind);
    const Loop& r = pick_reduce_loop(op, family, x.dtype(), l.sig.outputs[0], who);
    // NumPy's own loop: for sum, prod, max and min (whose loops here may be wider than
    // NumPy's add, multiply, maximum and minimum loops) the promoted dtype itself.
    const DType numpy_loop = op.kind == OpKind::reduce ? probes[0].dtype() : l.sig.outputs[0];
    return {&r, r.sig.outputs[0], od, false, numpy_loop};
  }
  const std::optional<DType> widened = reduction_dtype(op, x.dtype(), std::nullopt);
  const Loop& l = pick_reduce_loop(op, family, x.dtype(), widened, who);
  const DType dt = l.sig.outputs[0];
  return {&l, dt, widened ? *widened : dt, false, widened ? *widened : dt};
}

Array cast_for_loop(const Target& t, const Array& x, const ReduceTypes& rt) {
  return rt.cast_first ? t.cast(t.cast(x, rt.want), rt.dt) : t.cast(x, rt.dt);
}

Array run_reduction(const Runtime& rt, const OpDesc& op, const Array& x, const ReduceOptions& o,
                    bool default_all) {
  if (names_device_set(o.target.empty() ? rt.default_target() : o.target)) {
    ReduceOptions so = o;
    if (so.target.empty()) so.target = rt.default_target();
    return device_set_reduce(rt, op, x, so, default_all);
  }
  const std::string who = "reduction '" + op.name + "'";
  if (o.out) {
    require_writeable(*o.out, who, "out=");
    require_no_self_overlap(*o.out, who, "out=");
  }
  SmallVec<const Array*, 4> all{&x};
  std::vector<std::string> labels{"the input"};
  if (o.out) all.push_back(&*o.out), labels.emplace_back("out=");
  if (o.where) all.push_back(&*o.where), labels.emplace_back("where=");
  const Target t = pick_target(
      rt, o.target, op, std::span<const Array* const>(all.data(), all.size()), o.stream, labels);
  const ReduceTypes types = resolve_reduction(op, t.family, x, o.dtype, o.out, who);
  const Loop& loop = *types.loop;
  const DType dt = types.dt, want = types.want;
  const int nd = x.ndim();

  // Axes: not given is every axis (np.sum) or axis 0 (np.add.reduce); axis=None every axis.
  std::vector<bool> reduced(nd, false);
  int naxes = 0;
  if (!o.axis.given() ? default_all : o.axis.all()) {
    std::fill(reduced.begin(), reduced.end(), true);
    naxes = nd;
  } else if (nd == 0 && (!o.axis.given() ||
                         (o.axis.single() && (o.axis.list()[0] == 0 || o.axis.list()[0] == -1)))) {
    // NumPy takes an int axis 0 or -1 of a 0-d array (ufunc.reduce's default) as reducing
    // nothing; a tuple (0,) is out of bounds there.
  } else {
    const std::vector<int> list = o.axis.given() ? o.axis.list() : std::vector<int>{0};
    for (int a : list) {
      const int ax = a < 0 ? a + nd : a;
      if (ax < 0 || ax >= nd) {
        throw ValueError(who + ": axis " + std::to_string(a) +
                         " is out of bounds for an array of dimension " + std::to_string(nd));
      }
      if (reduced[ax]) throw ValueError(who + ": axis " + std::to_string(a) + " given twice");
      reduced[ax] = true;
    }
    naxes = static_cast<int>(list.size());
  }
  if (!op.reorderable && naxes > 1) {
    throw ValueError(who + " is not reorderable, so at most one axis may be given (got " +
                     std::to_string(naxes) + " axes of an array of dimension " +
                     std::to_string(nd) +
                     "); reduce one axis at a time, or declare the op reorderable where it is " +
                     "defined if it is associative and commutative");
  }
  Shape kept, final_shape;
  std::int64_t count = 1;
  for (int k = 0; k < nd; ++k) {
    kept.push_back(reduced[k] ? 1 : x.shape()[k]);
    if (reduced[k]) count *= x.shape()[k];
    if (!reduced[k] || o.keepdims) final_shape.push_back(kept.back());
  }
  if (o.out) {
    if (o.out->shape() != final_shape) {
      throw ShapeError(who + ": out= has shape " + shape_str(o.out->shape()) +
                       " but the result has shape " + shape_str(final_shape));
    }
  }
  // The start value: initial= exactly, else the identity unless initial=None.
  std::optional<Array> start;
  if (o.initial.given() && !o.initial.is_none()) {
    // Checked against NumPy's dtype (dtype=, out='s) first: np.prod(x, initial=-8.0,
    // dtype=np.uint8) is an OverflowError even though the loop that runs is wider.
    const DType checked = types.cast_first ? want : dt;
    start = exact_initial(o.initial.value(), checked, who);
    if (checked != dt) start = start->astype(dt);
  } else if (!o.initial.given() && op.identity) {
    start = identity_value(op, dt, who);
  }
  std::optional<Array> mask;
  if (o.where) {
    mask = where_mask(*o.where, who);
    if (!start) {
      throw ValueError(who + " has no identity, so where= needs initial= (NumPy: 'to use a where " +
                       "mask one has to specify initial')");
    }
    try {
      (void)mask->broadcast_to(x.shape());
    } catch (const ShapeError&) {
      throw ShapeError(who + ": where= of shape " + shape_str(mask->shape()) +
                       " does not broadcast to the input's shape " + shape_str(x.shape()));
    }
  }
  if (count == 0 && !start) {
    throw ValueError(who +
                     ": zero-size array to a reduction which has no identity; pass "
                     "initial= to give the result for empty input");
  }
  if (o.out) {
    const Start from = o.initial.given() && !o.initial.is_none() ? Start::initial
                       : (o.initial.given() || !op.identity)     ? Start::first_element
                                                                 : Start::identity;
    require_out_holds_loop(op, *o.out, types.numpy_loop, x.dtype(), from, o.initial, x.size(), who);
  }
  // The input in the loop's dtype (NumPy casts it unsafely), on the call's device; masked-out
  // elements replaced by the identity, which changes nothing.
  Array xin = cast_for_loop(t, x, types);
  if (t.on_device()) xin = t.to_device(xin);
  const LoopImpl& impl = loop.impl[static_cast<int>(t.family)];
  const bool start_is_identity = !(o.initial.given() && !o.initial.is_none());
  if (mask &&
      (!op.identity || (!start_is_identity &&
                        !identity_keeps_start(t, impl, dt, *start, identity_value(op, dt, who),
                                              !op.reorderable)))) {
    // No value stands in for a masked-out element: fold the selected ones of each output.
    Array res = t.on_device() ? t.rt->empty(kept, dt, t.device_name(), t.stream) : empty(kept, dt);
    t.copy(*start, res);
    masked_fold(t, impl, dt, xin, mask->device().is_host() ? *mask : t.rt->to_host(*mask), reduced,
                op.reorderable, res);
    return finish_reduction(t, res.reshape(final_shape), want, o.out);
  }
  if (mask) {
    Array filled = t.on_device() ? t.rt->empty(x.shape(), dt, t.device_name(), t.stream)
                                 : empty(x.shape(), dt);
    t.copy(identity_value(op, dt, who), filled);
    Array m = *mask;
    if (t.on_device()) m = t.to_device(m);
    t.copy_where(xin, filled, m);
    xin = filled;
  }
  Array res = t.on_device() ? t.rt->empty(kept, dt, t.device_name(), t.stream) : empty(kept, dt);
  // Reorderable ops walk the input in memory order (largest strides outside), with the kept dims
  // outside the reduced ones unless the innermost dim in memory is a long kept one (then rows are
  // added elementwise, as NumPy does): each output's runs then follow each other, so the host
  // loops fold them pairwise (exec.cpp) whatever the layout, and a split over outputs on
  // `parallel` gives the same bits.
  Array xv = xin, rv = res;
  std::vector<bool> red = reduced;
  if (op.reorderable && nd > 1) {
    constexpr std::int64_t kLongKept = 16;
    std::vector<int> perm(nd);
    std::iota(perm.begin(), perm.end(), 0);
    std::stable_sort(perm.begin(), perm.end(), [&](int a, int b) {
      return std::llabs(xin.strides()[a]) > std::llabs(xin.strides()[b]);
    });
    const int inner = perm[nd - 1];
    if (reduced[inner] || x.shape()[inner] < kLongKept) {
      std::stable_partition(perm.begin(), perm.end(), [&](int k) { return !reduced[k]; });
    }
    xv = xin.transpose(perm);
    rv = res.transpose(perm);
    for (int k = 0; k < nd; ++k) red[k] = reduced[perm[k]];
  }
  auto run = [&](const Array& part, const Array& into, bool hand_start) {
    // folds `part` into `into` (reduced dims broadcast), or with hand_start into start (op) part
    const Array ops[] = {into.broadcast_to(part.shape()), part};
    ReduceCall call{StridedIter::make(ops, part.shape()), &impl, dt, t.stream.native()};
    call.ordered = !op.reorderable;
    if (hand_start) {
      call.has_start = true;
      call.start = start->item<double>();
    }
    t.backend->run_reduce(call, t.device);
  };
  if (start) {
    // initial= joins the reduction like one more element (NumPy); the identity changes nothing.
    if (impl.takes_start && xv.size() > 0 && kind(dt) == Kind::floating) {
      run(xv, rv, true);
    } else {
      t.copy(*start, res);
      if (xv.size() > 0) run(xv, rv, false);
    }
  } else {
    // No start value: begin with the first element of each reduced slice, then fold the rest
    // exactly once: for each reduced axis in turn, the elements with index >= 1 on it and index 0
    // on the reduced axes before it (in order along the axis for a non-reorderable op).
    Array first = xv;
    for (int k = nd - 1; k >= 0; --k) {
      if (red[k]) first = first.slice(k, 0, 1);
    }
    t.copy(first, rv);
    Array v = xv;
    for (int k = 0; k < nd; ++k) {
      if (!red[k]) continue;
      const Array part = v.slice(k, 1, v.shape()[k]);
      if (part.size() > 0) run(part, rv, false);
      v = v.slice(k, 0, 1);
    }
  }
  return finish_reduction(t, res.reshape(final_shape), want, o.out);
}

}  // namespace detail

Array Reduce::operator()(const Array& x, const ReduceOptions& o) const {
  return detail::run_reduction(*rt_, *desc_, x, o, /*default_all=*/true);
}

Array Ufunc::reduce(const Array& x, const ReduceOptions& o) const {
  detail::require_binary(*desc_, "reduce");
  return detail::run_reduction(*rt_, *desc_, x, o, /*default_all=*/false);
}

}  // namespace loom
