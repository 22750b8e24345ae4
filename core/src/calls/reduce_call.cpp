// Reductions with NumPy's semantics (rt.reduce and Ufunc::reduce): axis (not given, one, several,
// all, none), keepdims, initial (the identity, a value, or none), where=, out= whose dtype selects
// the loop, dtype=, and the reorderability rules. docs/methods.md has the table against NumPy.
// The types (loop, initial=, out='s dtype): reduce_types.cpp.
#include <algorithm>
#include <cstring>
#include <numeric>

#include "calls/reduce_types.hpp"
#include "loom/aliasing.hpp"
#include "loom/exec.hpp"
#include "loom/strided.hpp"
#include "runtime/call_common.hpp"
#include "runtime/device_set.hpp"

namespace loom {

namespace detail {

namespace {

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
    // Checked against NumPy's loop dtype (dtype=, or resolved from out= and the input) first:
    // np.prod(x, initial=-8.0, dtype=np.uint8) and np.sum(int8 x, out=<int8>, initial=300) are
    // OverflowErrors even though the loop that runs (sum's, prod's) is wider.
    const DType checked = types.numpy_loop;
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
  // A non-reorderable op (one reduced axis, folded in order along it whatever the walk) walks in
  // memory order too, as NumPy's iterator does: whether the reduced axis ends up innermost decides
  // between a fold along it and elementwise steps, which round every step (float16 divide).
  if (nd > 1) {
    constexpr std::int64_t kLongKept = 16;
    std::vector<int> perm(nd);
    std::iota(perm.begin(), perm.end(), 0);
    std::stable_sort(perm.begin(), perm.end(), [&](int a, int b) {
      return std::llabs(xin.strides()[a]) > std::llabs(xin.strides()[b]);
    });
    const int inner = perm[nd - 1];
    if (op.reorderable && (reduced[inner] || x.shape()[inner] < kLongKept)) {
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
  std::shared_ptr<const OpDesc> keep;
  return detail::run_reduction(*rt_, rt_->current_op(desc_, gen_, o.target, keep), x, o,
                               /*default_all=*/true);
}

Array Ufunc::reduce(const Array& x, const ReduceOptions& o) const {
  std::shared_ptr<const OpDesc> keep;
  const OpDesc& op = rt_->current_op(desc_, gen_, o.target, keep);
  detail::require_binary(op, "reduce");
  return detail::run_reduction(*rt_, op, x, o, /*default_all=*/false);
}

}  // namespace loom
