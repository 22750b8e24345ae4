// NumPy's accumulate, reduceat and outer for ufuncs with two inputs and one output, on every
// target. The rules, and where they differ from NumPy's, are in docs/methods.md.
#include <algorithm>
#include <string_view>
#include <vector>

#include "calls/methods_common.hpp"
#include "loom/aliasing.hpp"
#include "loom/exec.hpp"
#include "loom/strided.hpp"

namespace loom {

namespace detail {

void require_binary(const OpDesc& op, const char* method) {
  // outer is an elementwise call over the outer shape, whose elements have indices; the other
  // methods apply the op to partial results, which have none (docs/random.md, "Ufuncs that draw").
  if (op.kind == OpKind::ufunc && op.takes_index() && std::string_view(method) != "outer") {
    throw TypeError(std::string(method) + " of ufunc '" + op.name + "': its functor takes a " +
                    "loom::ElementIndex, and " + method + " applies the op to partial results " +
                    "that are no element of an output; call the ufunc elementwise (or outer)");
  }
  if (op.kind == OpKind::ufunc && op.nin == 2 && op.nout == 1) return;
  const std::string what = op.kind == OpKind::gufunc  ? "gufunc '"
                           : op.kind == OpKind::ufunc ? "ufunc '"
                                                      : "reduction '";
  throw ValueError(std::string(method) + " is only supported for ufuncs with two inputs and one " +
                   "output (NumPy: 'only supported for binary functions'); " + what + op.name +
                   "' has " + std::to_string(op.nin) + " input(s) and " + std::to_string(op.nout) +
                   " output(s)" + (op.kind == OpKind::gufunc ? " and a core layout" : ""));
}

const Array& where_mask(const Array& mask, const std::string& who) {
  if (mask.valid() && mask.dtype() != DType::bool_) {
    throw TypeError(who + ": where= must be a bool array, got " + std::string(name(mask.dtype())) +
                    " (NumPy cannot cast it to bool under the rule 'safe'); compare it, e.g. "
                    "mask != 0, to make one");
  }
  return mask;
}

namespace {

int normalize_axis(int axis, int nd, const std::string& who) {
  const int ax = axis < 0 ? axis + nd : axis;
  if (ax < 0 || ax >= nd) {
    throw ValueError(who + ": axis " + std::to_string(axis) +
                     " is out of bounds for an array of dimension " + std::to_string(nd));
  }
  return ax;
}

void check_out(const std::string& who, const std::optional<Array>& out, const Shape& shape,
               DType dt) {
  if (!out) return;
  if (out->shape() != shape) {
    throw ShapeError(who + ": out= has shape " + shape_str(out->shape()) +
                     " but the result has shape " + shape_str(shape));
  }
  (void)dt;  // NumPy casts the result into out= unsafely
}

// The result in `want` (NumPy's result dtype), in the caller's memory or in out= (cast unsafely).
Array deliver(const Target& t, Array res, DType want, const std::optional<Array>& out) {
  if (res.dtype() != want && !(out && out->dtype() == want)) res = t.cast(res, want);
  if (out) {
    t.copy(res, *out);
    return *out;
  }
  return t.on_device() && !t.device_mode ? t.rt->to_host(res, t.stream) : res;
}

Array alloc_in_call(const Target& t, const Shape& shape, DType dt) {
  return t.on_device() ? t.rt->empty(shape, dt, t.device_name(), t.stream) : empty(shape, dt);
}

// Indices as host int64 (integer arrays only, as NumPy's 'safe' cast to intp).
std::vector<std::int64_t> host_indices(const Runtime& rt, const Array& idx,
                                       const std::string& who) {
  const Kind k = kind(idx.dtype());
  if (k != Kind::signed_int && k != Kind::unsigned_int) {
    throw TypeError(who + ": indices must be an integer array, got " +
                    std::string(name(idx.dtype())));
  }
  if (idx.ndim() > 1) {
    throw ValueError(who + ": indices must be 0-d or 1-d, got " + idx.str());
  }
  const Array h = idx.device().is_host() ? idx : rt.to_host(idx);
  if (k == Kind::unsigned_int) {  // values from 2^63 up do not fit int64: out of bounds anyway
    for (std::uint64_t u : h.to_vector<std::uint64_t>()) {
      if (u > static_cast<std::uint64_t>(INT64_MAX)) {
        throw IndexError(who + ": index " + std::to_string(u) + " is out of bounds");
      }
    }
  }
  return h.to_vector<std::int64_t>();
}

}  // namespace

}  // namespace detail

Array Ufunc::accumulate(const Array& x, const AccumulateOptions& o) const {
  std::shared_ptr<const OpDesc> keep;
  const OpDesc& op = rt_->current_op(desc_, gen_, o.target, keep);
  detail::require_binary(op, "accumulate");
  const std::string who = "ufunc '" + op.name + "'.accumulate";
  if (o.out) {
    require_writeable(*o.out, who, "out=");
    require_no_self_overlap(*o.out, who, "out=");
  }
  SmallVec<const Array*, 2> all{&x};
  if (o.out) all.push_back(&*o.out);
  const detail::Target t = detail::pick_target(
      *rt_, o.target, op, std::span<const Array* const>(all.data(), all.size()), o.stream);
  if (x.ndim() == 0) throw ValueError(who + ": cannot accumulate on a 0-d array (NumPy: scalar)");
  const int ax = detail::normalize_axis(o.axis, x.ndim(), who);
  const detail::ReduceTypes types = detail::resolve_reduction(op, t.family, x, o.dtype, o.out, who);
  const Loop& loop = *types.loop;
  const DType dt = types.dt, want = types.want;
  detail::check_out(who, o.out, x.shape(), dt);
  Array xin = detail::cast_for_loop(t, x, types);
  if (t.on_device()) xin = t.to_device(xin);
  const Array res = detail::alloc_in_call(t, x.shape(), dt);
  if (x.size() > 0) {
    ScanCall c;
    c.out = res.data();
    c.x = xin.data();
    for (int k = 0; k < x.ndim(); ++k) {
      if (k == ax) continue;
      c.outer_shape.push_back(x.shape()[k]);
      c.outer_out_strides.push_back(res.strides()[k]);
      c.outer_x_strides.push_back(xin.strides()[k]);
    }
    c.n = x.shape()[ax];
    c.out_step = res.strides()[ax];
    c.x_step = xin.strides()[ax];
    c.loop = &loop.impl[static_cast<int>(t.family)];
    c.dtype = dt;
    c.reorderable = op.reorderable;
    c.stream = t.stream.native();
    t.backend->run_scan(c, t.device);
  }
  return detail::deliver(t, res, want, o.out);
}

Array Ufunc::reduceat(const Array& x, const Array& indices, const AccumulateOptions& o) const {
  std::shared_ptr<const OpDesc> keep;
  const OpDesc& op = rt_->current_op(desc_, gen_, o.target, keep);
  detail::require_binary(op, "reduceat");
  const std::string who = "ufunc '" + op.name + "'.reduceat";
  if (o.out) {
    require_writeable(*o.out, who, "out=");
    require_no_self_overlap(*o.out, who, "out=");
  }
  SmallVec<const Array*, 3> all{&x, &indices};
  if (o.out) all.push_back(&*o.out);
  const detail::Target t = detail::pick_target(
      *rt_, o.target, op, std::span<const Array* const>(all.data(), all.size()), o.stream);
  if (x.ndim() == 0) throw ValueError(who + ": cannot reduceat a 0-d array (NumPy: scalar)");
  const int ax = detail::normalize_axis(o.axis, x.ndim(), who);
  if (indices.ndim() != 1) {
    throw ValueError(who + ": indices must be a 1-d array (NumPy), got " + indices.str());
  }
  const std::vector<std::int64_t> idx = detail::host_indices(*rt_, indices, who);
  const std::int64_t n = x.shape()[ax];
  for (std::int64_t i : idx) {
    if (i < 0 || i >= n) {
      throw IndexError(who + ": index " + std::to_string(i) + " is out of bounds [0, " +
                       std::to_string(n) + ") for axis " + std::to_string(ax));
    }
  }
  const detail::ReduceTypes types = detail::resolve_reduction(op, t.family, x, o.dtype, o.out, who);
  const Loop& loop = *types.loop;
  const DType dt = types.dt, want = types.want;
  Shape shape = x.shape();
  shape[ax] = static_cast<std::int64_t>(idx.size());
  detail::check_out(who, o.out, shape, dt);
  Array xin = detail::cast_for_loop(t, x, types);
  if (t.on_device()) xin = t.to_device(xin);
  const Array res = detail::alloc_in_call(t, shape, dt);
  const LoopImpl& impl = loop.impl[static_cast<int>(t.family)];
  // Segment i starts from its first element and folds the rest of [idx[i], idx[i+1]) in order
  // (NumPy: an index not below the next one gives that element alone; the last runs to the end).
  const std::int64_t m = static_cast<std::int64_t>(idx.size());
  // The reduced axis last, so that each segment folds along it (in the loop's fold type, rounded
  // once: NumPy's float16 divide keeps its quotient in float) rather than as elementwise steps
  // over the other axes, which round every step.
  std::vector<int> last;
  for (int k = 0; k < x.ndim(); ++k) {
    if (k != ax) last.push_back(k);
  }
  last.push_back(ax);
  for (std::int64_t i = 0; i < m; ++i) {
    const std::int64_t s0 = idx[i];
    const std::int64_t s1 = i + 1 < m ? (idx[i + 1] > s0 ? idx[i + 1] : s0 + 1) : n;
    const Array into = res.slice(ax, i, i + 1);
    t.copy(xin.slice(ax, s0, s0 + 1), into);
    if (s1 - s0 < 2) continue;
    const Array part = xin.slice(ax, s0 + 1, s1);
    if (part.size() == 0) continue;
    const Array ops[] = {into.broadcast_to(part.shape()).transpose(last), part.transpose(last)};
    ReduceCall call{StridedIter::make(ops, ops[1].shape()), &impl, dt, t.stream.native()};
    call.ordered = !op.reorderable;
    t.backend->run_reduce(call, t.device);
  }
  return detail::deliver(t, res, want, o.out);
}

Array Ufunc::outer(const Array& a, const Array& b, const CallOptions& o) const {
  detail::require_binary(*desc_, "outer");
  // NumPy's outer takes its operands through np.asarray: a Python scalar is a strong int64 or
  // float64 there, not weak (np.add.outer(int8 x, 300) is int64 [301]).
  auto strong = [](const Array& x) {
    if (!x.valid() || !x.weak()) return x;
    return kind(x.dtype()) == Kind::floating ? x.as_strong() : x.astype(DType::int64);
  };
  const Array sa = strong(a), sb = strong(b);
  // a as a.shape + (1,)*b.ndim (a view with zero strides); b broadcasts from the left.
  if (!sa.valid() || !sb.valid() || sa.ndim() == 0) return one({&sa, &sb}, o);
  Shape shape = sa.shape(), strides = sa.strides();
  for (int k = 0; k < sb.ndim(); ++k) shape.push_back(1), strides.push_back(0);
  const Array wide(sa.buffer(), sa.dtype(), shape, strides, sa.offset());
  return one({&wide, &sb}, o);
}

}  // namespace loom
