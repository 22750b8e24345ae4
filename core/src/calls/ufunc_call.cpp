// Ufunc and gufunc calls with NumPy's semantics: broadcasting, casting to the resolved loop,
// out=, where=, several outputs; gufunc core-dimension binding.
#include <algorithm>
#include <limits>

#include "calls/gufunc_checked.hpp"
#include "calls/methods_common.hpp"
#include "loom/aliasing.hpp"
#include "loom/exec.hpp"
#include "loom/strided.hpp"
#include "loom/type_resolution.hpp"
#include "runtime/call_common.hpp"
#include "runtime/device_set.hpp"
#include "runtime/gufunc_plan.hpp"

namespace loom {

namespace {

std::string who(const OpDesc& op) { return std::string(name(op.kind)) + " '" + op.name + "'"; }

void check_counts(const OpDesc& op, std::span<const Array> inputs, const CallOptions& o) {
  if (static_cast<int>(inputs.size()) != op.nin) {
    throw ValueError(who(op) + " takes " + std::to_string(op.nin) + " input(s), got " +
                     std::to_string(inputs.size()));
  }
  if (!o.out.empty() && static_cast<int>(o.out.size()) != op.nout) {
    throw ValueError(who(op) + " has " + std::to_string(op.nout) + " output(s), out= gave " +
                     std::to_string(o.out.size()));
  }
}

// Fills out= arrays that were computed elsewhere (casting, where=).
detail::Arrays finish(const detail::Target& t, const detail::OutSlots& slots,
                      const CallOptions& o) {
  detail::Arrays res;
  for (const auto& s : slots) {
    if (s.out) {
      if (o.where) {
        Array m = *o.where;
        if (!s.out->device().is_host()) m = t.to_device(m);
        t.copy_where(s.target, *s.out, m);
      } else {
        t.copy(s.target, *s.out);
      }
      res.push_back(*s.out);
    } else {
      res.push_back(s.target);
    }
  }
  return res;
}

detail::Arrays call_ufunc(const OpDesc& op, const detail::Target& t, const Loop& loop,
                          std::span<const Array> inputs, const CallOptions& o) {
  SmallVec<Shape, 4> shapes;
  for (const auto& a : inputs) shapes.push_back(a.shape());
  for (const auto& a : o.out) shapes.push_back(a.shape());
  if (o.where) shapes.push_back(o.where->shape());
  const Shape shape = broadcast_shapes(std::span<const Shape>(shapes.data(), shapes.size()));
  if (o.index_base < 0 ||
      o.index_base > std::numeric_limits<std::int64_t>::max() - shape_size(shape)) {
    throw ValueError(who(op) + ": index_base " + std::to_string(o.index_base) + " with " +
                     std::to_string(shape_size(shape)) + " elements: the elements' indices " +
                     "(loom::ElementIndex) must lie in [0, 2^63 - 1]");
  }
  detail::OutSlots slots;
  for (int k = 0; k < op.nout; ++k) {
    slots.push_back(detail::make_out_slot(t, op, k, loop.sig.outputs[k], shape,
                                          o.out.empty() ? nullptr : &o.out[k], o.casting,
                                          o.where.has_value()));
  }
  detail::Arrays ins;
  for (int i = 0; i < op.nin; ++i) ins.push_back(t.cast(inputs[i], loop.sig.inputs[i]));
  detail::resolve_overlap(t, ins, slots, /*identical_ok=*/true);
  const std::int64_t size = shape_size(shape);
  std::uint32_t host_operands = 0;
  if (t.on_device()) {
    // Device mode: everything on the device. Host mode: full-size host operands are streamed
    // through the backend's pinned buffers (C-contiguous, as ElementwiseCall promises); smaller
    // (broadcast) inputs are copied to the device whole.
    for (int i = 0; i < op.nin; ++i) {
      if (!ins[i].device().is_host()) continue;
      if (!t.device_mode && ins[i].size() == size && size > 0) {
        if (!ins[i].is_c_contiguous() || ins[i].shape() != shape) {
          ins[i] = ins[i].copy().reshape(shape);
        }
        host_operands |= 1u << i;
      } else {
        ins[i] = t.to_device(ins[i]);
      }
    }
    for (int k = 0; k < op.nout; ++k) {
      auto& sl = slots[k];
      if (!sl.target.device().is_host()) continue;
      if (!sl.target.is_c_contiguous()) {  // a strided out=: stream into a contiguous temporary
        if (!sl.out) sl.out = sl.target;
        sl.target = empty(shape, sl.target.dtype());
      }
      host_operands |= 1u << (op.nin + k);
    }
  }
  detail::Arrays operands;
  for (auto& a : ins) operands.push_back(a.broadcast_to(shape));
  for (auto& s : slots) operands.push_back(s.target);
  if (size > 0) {
    ElementwiseCall call{
        StridedIter::make(std::span<const Array>(operands.data(), operands.size()), shape),
        &loop.impl[static_cast<int>(t.family)],
        t.stream.native(),
        host_operands,
        op.nin,
        o.index_base};
    if (host_operands && size == 1) {  // a lone element has stride 0; give host operands theirs
      for (int a = 0; a < call.iter.nargs(); ++a) {
        if (host_operands >> a & 1u) call.iter.strides[a].back() = operands[a].itemsize();
      }
    }
    for (int a = 0; a < call.iter.nargs(); ++a) {
      if (host_operands >> a & 1u) detail::pin_on_reuse(*t.rt, *t.backend, operands[a]);
    }
    t.backend->run_elementwise(call, t.device);
    // Streamed host operands cross once each, in (inputs) or out (outputs), whole.
    for (int a = 0; a < call.iter.nargs(); ++a) {
      if (!(host_operands >> a & 1u)) continue;
      detail::count_transfer(*t.rt, t.device,
                             a < op.nin ? CopyKind::host_to_device : CopyKind::device_to_host,
                             size * static_cast<std::int64_t>(operands[a].itemsize()));
    }
  }
  return finish(t, slots, o);
}

// The common small call without the general path's steps: a ufunc on host arrays of one shape
// (0-d inputs, scalars, broadcast), whose dtypes are the resolved loop's own (a 0-d input of
// another dtype is cast into a local value), outputs fresh or given with that shape and dtype and
// not overlapping the inputs, no where= or overrides. Anything else returns false before a side
// effect, and the general path then does (and checks) everything: the errors a call can raise
// come from one place, in one order. The checks that can throw here (the target, the loop) are
// the general path's own functions, reached in the same order.
bool fast_call(const Runtime& rt, const OpDesc& op, std::span<const Array* const> in,
               const CallOptions& o, SmallVec<Array, 4>& res) {
  constexpr int kMax = 8;
  const int nin = op.nin, nout = op.nout;
  if (op.kind != OpKind::ufunc || o.where || o.dtype || !o.signature.empty() || !o.axes.empty() ||
      o.axis || o.keepdims || o.index_base != 0 || nin < 1 || nin + nout > kMax ||
      static_cast<int>(in.size()) != nin ||
      (!o.out.empty() && static_cast<int>(o.out.size()) != nout)) {
    return false;
  }
  for (const auto& a : o.out) {
    if (!a.writeable()) return false;
  }
  // A named device (cuda:1) or a set of them (cuda:all): the general path.
  if ((o.target.empty() ? rt.default_target() : o.target).find(':') != std::string::npos) {
    return false;
  }
  const auto [backend, device] = rt.resolve_target(o.target);
  if (backend->family() != Family::host) return false;
  int full = 0;  // an input of the call's shape: the first that is not 0-d
  while (full + 1 < nin && in[full]->ndim() == 0) ++full;
  const Shape& shape = in[full]->shape();
  DType dts[kMax];
  bool weak[kMax], scalar[kMax];
  bool contiguous = true;
  for (int i = 0; i < nin; ++i) {
    const Array& a = *in[i];
    if (!a.valid() || !a.device().is_host()) return false;
    scalar[i] = a.ndim() == 0 && !shape.empty();
    if (!scalar[i] && !(a.shape() == shape)) return false;
    dts[i] = a.dtype();
    weak[i] = a.weak();
    contiguous = contiguous && (scalar[i] || a.is_c_contiguous());
  }
  for (const auto& a : o.out) {
    if (!a.valid() || !a.device().is_host() || !(a.shape() == shape)) return false;
    contiguous = contiguous && a.is_c_contiguous();
    // An out= whose elements may overlap: the general path refuses it (require_no_self_overlap).
    if (!a.is_c_contiguous() && !clearly_distinct(a)) return false;
  }
  const ResolveRequest r{Family::host,
                         std::span<const DType>(dts, nin),
                         std::span<const bool>(weak, nin),
                         std::nullopt,
                         std::string(),
                         o.casting};
  const Loop& loop = op.loops[resolve_loop(op, r)];
  for (int i = 0; i < nin; ++i) {
    if (loop.sig.inputs[i] != dts[i] && !scalar[i]) return false;
  }
  if (!o.out.empty()) {
    for (int k = 0; k < nout; ++k) {
      const Array& out = o.out[k];
      if (out.dtype() != loop.sig.outputs[k]) return false;
      for (int i = 0; i < nin; ++i) {
        if (may_share_memory(*in[i], out) && !same_elements(*in[i], out)) return false;
      }
    }
  }
  // Past every check: the call runs here.
  const std::int64_t size = shape_size(shape);
  for (int k = 0; k < nout; ++k) {
    res.push_back(o.out.empty() ? empty(shape, loop.sig.outputs[k]) : o.out[k]);
  }
  if (size == 0) return true;
  // 0-d inputs of another dtype than the loop's, cast as the general path's astype casts them.
  alignas(16) char values[kMax][16];
  char* base[kMax];
  for (int a = 0; a < nin + nout; ++a) {
    if (a < nin && loop.sig.inputs[a] != dts[a]) {
      cast_strided(in[a]->data(), 0, dts[a], values[a], 0, loop.sig.inputs[a], 1);
      base[a] = values[a];
    } else {
      base[a] = a < nin ? in[a]->data() : res[a - nin].data();
    }
  }
  ElementwiseCall call{{}, &loop.impl[static_cast<int>(Family::host)], o.stream.native(), 0, nin};
  StridedIter& it = call.iter;
  if (contiguous) {
    // What StridedIter::make coalesces them to, without its work; one element gets its itemsize
    // as step too (make gives 0), so that it reaches the loop's contiguous path directly.
    it.shape.push_back(size);
    for (int a = 0; a < nin + nout; ++a) {
      const DType t = a < nin ? loop.sig.inputs[a] : loop.sig.outputs[a - nin];
      it.base.push_back(base[a]);
      it.strides.push_back(
          Shape{a < nin && scalar[a] ? 0 : static_cast<std::int64_t>(itemsize(t))});
    }
  } else {
    SmallVec<Shape, kMax> strides;
    for (int a = 0; a < nin + nout; ++a) {
      if (a < nin && scalar[a]) {
        strides.push_back(Shape(shape.size(), 0));
      } else {
        strides.push_back(a < nin ? in[a]->strides() : res[a - nin].strides());
      }
    }
    it = StridedIter::make(std::span<char* const>(base, nin + nout),
                           std::span<const Shape>(strides.data(), strides.size()), shape);
  }
  backend->run_elementwise(call, device);
  return true;
}

detail::Arrays call_gufunc(const OpDesc& op, const detail::Target& t, const Loop& loop,
                           std::span<const Array> inputs, const CallOptions& o) {
  const Layout& L = *op.layout;
  if (o.where) throw ValueError(who(op) + ": where= is not supported for gufuncs (as in NumPy)");
  detail::GufuncCheck check(op, t, loop, o);
  // axes=, axis=, keepdims= and dropped flexible dims become views with the layout's core dims
  // last: the code below and every backend only see trailing core dims.
  const detail::GufuncPlan plan =
      detail::plan_gufunc(op, inputs, std::span<const Array>(o.out.data(), o.out.size()), o);
  detail::Arrays views;  // the loop's view of every given operand, inputs then out= arrays
  for (int i = 0; i < op.nin; ++i) views.push_back(plan.loop_view(i, inputs[i]));
  for (int k = 0; k < static_cast<int>(o.out.size()); ++k) {
    views.push_back(plan.loop_view(op.nin + k, o.out[k]));
  }
  std::vector<std::int64_t> dims = L.dim_sizes;
  for (std::size_t ix = 0; ix < dims.size(); ++ix) {
    if (plan.missing[ix]) dims[ix] = 1;
  }
  std::vector<int> bound_by(dims.size(), -1);
  constexpr int kByRule = -2;  // bound_by: the dim's "=min(...)" rule
  auto min_rule = [&](std::size_t ix) {
    std::string r = L.dim_names[ix] + " = min(";
    for (std::size_t i = 0; i < L.dim_min_of[ix].size(); ++i) {
      const int of = L.dim_min_of[ix][i];
      r += (i ? ", " : "") + L.dim_names[of] + "=" + std::to_string(dims[of]);
    }
    return r + ")";
  };
  std::vector<Shape> loop_shapes;
  auto bind = [&](const Array& a, int arg) {
    const int nc = L.core_num_dims[arg];
    const Array& caller = arg < op.nin ? inputs[arg] : o.out[arg - op.nin];
    for (int j = 0; j < nc; ++j) {
      const int ix = L.core_dim_ixs[L.core_offsets[arg] + j];
      const std::int64_t n = a.shape()[a.ndim() - nc + j];
      if (dims[ix] < 0) {
        dims[ix] = n;
        bound_by[ix] = arg;
      } else if (dims[ix] != n) {
        const std::string from = bound_by[ix] == kByRule ? min_rule(ix) + " of the inputs"
                                 : bound_by[ix] < 0
                                     ? "fixed by the layout"
                                     : "from argument " + std::to_string(bound_by[ix]);
        std::string msg = who(op) + " with layout " + L.str() + ": core dimension '" +
                          L.dim_names[ix] + "' is " + std::to_string(dims[ix]) + " (" + from +
                          ") but " + std::to_string(n) + " in argument " + std::to_string(arg) +
                          " (its axis " + std::to_string(plan.caller_axis(arg, caller.ndim(), j)) +
                          ")";
        if (bound_by[ix] == kByRule) {  // only an out= meets a rule: say the shape it needs
          Shape want(a.shape().begin(), a.shape().end() - nc);
          for (int c = 0; c < nc; ++c) {
            const int cx = L.core_dim_ixs[L.core_offsets[arg] + c];
            want.push_back(dims[cx] >= 0 ? dims[cx] : a.shape()[a.ndim() - nc + c]);
          }
          msg += "; out= " + std::to_string(arg - op.nin) + " needs shape " + shape_str(want);
        }
        throw ShapeError(msg);
      }
    }
    loop_shapes.emplace_back(a.shape().begin(), a.shape().end() - nc);
  };
  for (int a = 0; a < op.nin; ++a) bind(views[a], a);
  // Output dims with a rule ("k=min(m,n)") take their size from the inputs' dims, so that an out=
  // of another size is refused (it would get no result) and no out= is needed.
  for (std::size_t ix = 0; ix < L.dim_min_of.size(); ++ix) {
    if (L.dim_min_of[ix].empty() || dims[ix] >= 0) continue;
    std::int64_t v = dims[L.dim_min_of[ix][0]];
    for (int of : L.dim_min_of[ix]) v = std::min(v, dims[of]);
    dims[ix] = v;
    bound_by[ix] = kByRule;
  }
  for (int a = op.nin; a < static_cast<int>(views.size()); ++a) bind(views[a], a);
  const Shape loop_shape = broadcast_shapes(loop_shapes);
  detail::OutSlots slots;
  detail::Arrays fresh;  // outputs allocated here in the caller's layout (axes=, keepdims=, n?)
  for (int k = 0; k < op.nout; ++k) {
    const int arg = op.nin + k;
    Shape full = loop_shape;
    for (int j = 0; j < L.core_num_dims[arg]; ++j) {
      const int ix = L.core_dim_ixs[L.core_offsets[arg] + j];
      if (dims[ix] < 0) {
        throw ValueError(who(op) + " with layout " + L.str() + ": output core dimension '" +
                         L.dim_names[ix] + "' appears in no input; pass out= to give its size");
      }
      full.push_back(dims[ix]);
    }
    if (o.out.empty() && plan.transforms(arg)) {
      fresh.push_back(t.alloc(plan.caller_shape(arg, full), loop.sig.outputs[k], false));
      slots.push_back({plan.loop_view(arg, fresh.back()), {}});
      continue;
    }
    if (!o.out.empty() && views[arg].shape() != full) {
      // Reported in the caller's layout where the ranks allow, with the shapes the caller knows.
      const bool same_rank = views[arg].ndim() == static_cast<int>(full.size());
      const Shape want = same_rank ? plan.caller_shape(arg, full) : full;
      throw ShapeError(who(op) + ": out= array " + std::to_string(k) + " has shape " +
                       shape_str(o.out[k].shape()) + " but the result has shape " +
                       shape_str(want));
    }
    fresh.push_back(Array());
    slots.push_back(detail::make_out_slot(t, op, k, loop.sig.outputs[k], full,
                                          o.out.empty() ? nullptr : &views[arg], o.casting, false));
  }
  if (t.on_device()) {  // gufunc results are computed on the device, then copied to host outputs
    for (auto& sl : slots) {
      if (!sl.target.device().is_host()) continue;
      if (!sl.out) sl.out = sl.target;
      sl.target = t.rt->empty(sl.target.shape(), sl.target.dtype(), t.device_name(), t.stream);
    }
  }
  detail::Arrays ins;
  for (int i = 0; i < op.nin; ++i) {
    ins.push_back(t.cast(views[i], loop.sig.inputs[i]));
    if (t.on_device()) ins.back() = t.to_device(ins.back());  // gufuncs copy host inputs whole
  }
  // A gufunc reads other elements than the one it writes: any overlap needs a copy.
  detail::resolve_overlap(t, ins, slots, /*identical_ok=*/false);
  std::vector<const Array*> args;
  for (auto& a : ins) args.push_back(&a);
  for (auto& s : slots) args.push_back(&s.target);
  SmallVec<char*, 4> base;
  SmallVec<Shape, 4> outer_strides;
  GufuncCall call{{}, dims, {}, &loop.impl[static_cast<int>(t.family)], t.stream.native()};
  const int nl = static_cast<int>(loop_shape.size());
  for (int a = 0; a < static_cast<int>(args.size()); ++a) {
    const Array& arr = *args[a];
    const int nc = L.core_num_dims[a];
    const int lead = arr.ndim() - nc;
    Shape st(nl, 0);
    for (int k = 0; k < lead; ++k) {
      if (arr.shape()[k] != 1) st[nl - lead + k] = arr.strides()[k];
    }
    base.push_back(arr.data());
    outer_strides.push_back(st);
    for (int j = 0; j < nc; ++j) call.core_steps.push_back(arr.strides()[lead + j]);
  }
  call.outer = StridedIter::make(std::span<char* const>(base.data(), base.size()),
                                 std::span<const Shape>(outer_strides.data(), outer_strides.size()),
                                 loop_shape);
  if (shape_size(loop_shape) > 0) {
    call.check = check.arm();
    t.backend->run_gufunc(call, t.device);
  }
  detail::Arrays res = finish(t, slots, o);
  // After the results reached out=, as after a checked kernel launch.
  check.raise_if_failed(call, loop_shape);
  for (int k = 0; k < op.nout; ++k) {  // the caller's arrays, not the loop's views of them
    if (!o.out.empty()) {
      res[k] = o.out[k];
    } else if (fresh[k].valid()) {
      res[k] = fresh[k];
    }
  }
  return res;
}

}  // namespace

// The general path: every check, broadcasting, casts, overlap copies, where=, every target.
static SmallVec<Array, 4> general_call(const Runtime& rt, const OpDesc& op,
                                       std::span<const Array> inputs, const CallOptions& o) {
  if (detail::names_device_set(o.target.empty() ? rt.default_target() : o.target)) {
    CallOptions so = o;
    if (so.target.empty()) so.target = rt.default_target();
    return detail::device_set_call(rt, op, inputs, so, &general_call);
  }
  check_counts(op, inputs, o);
  for (std::size_t k = 0; k < o.out.size(); ++k) {
    if (!o.out[k].writeable()) {
      require_writeable(o.out[k], who(op), "out= array " + std::to_string(k));
    }
    require_no_self_overlap(o.out[k], who(op), "out= array " + std::to_string(k));
  }
  SmallVec<const Array*, 8> all;
  SmallVec<std::string, 8> labels;
  for (const auto& a : inputs) {
    labels.push_back("argument " + std::to_string(all.size()));
    all.push_back(&a);
  }
  for (const auto& a : o.out) {
    labels.push_back("out= array " + std::to_string(all.size() - inputs.size()));
    all.push_back(&a);
  }
  if (o.where) {
    labels.push_back("where=");
    all.push_back(&*o.where);
  }
  const detail::Target t =
      detail::pick_target(rt, o.target, op, std::span<const Array* const>(all.data(), all.size()),
                          o.stream, std::span<const std::string>(labels.data(), labels.size()));
  if (op.kind != OpKind::gufunc) detail::refuse_gufunc_options(op, o);
  if (o.where) detail::where_mask(*o.where, who(op));
  const Loop& loop = detail::pick_loop(op, t.family, inputs, o.dtype, o.signature, o.casting);
  return op.kind == OpKind::gufunc ? call_gufunc(op, t, loop, inputs, o)
                                   : call_ufunc(op, t, loop, inputs, o);
}

SmallVec<Array, 4> Ufunc::run(std::span<const Array> inputs, const CallOptions& o) const {
  SmallVec<const Array*, 8> in;
  for (const auto& a : inputs) in.push_back(&a);
  SmallVec<Array, 4> res;
  if (fast_call(*rt_, *desc_, std::span<const Array* const>(in.data(), in.size()), o, res)) {
    return res;
  }
  return general_call(*rt_, *desc_, inputs, o);
}

std::vector<Array> Ufunc::call(const std::vector<Array>& inputs, const CallOptions& o) const {
  auto r = run(inputs, o);
  return std::vector<Array>(std::make_move_iterator(r.begin()), std::make_move_iterator(r.end()));
}

Array Ufunc::one(std::initializer_list<const Array*> inputs, const CallOptions& o) const {
  if (desc_->nout != 1) {
    throw ValueError(who(*desc_) + " has " + std::to_string(desc_->nout) +
                     " outputs; use .call(inputs) to get all of them");
  }
  SmallVec<Array, 4> res;
  if (!fast_call(*rt_, *desc_, std::span<const Array* const>(inputs.begin(), inputs.size()), o,
                 res)) {
    SmallVec<Array, 8> in;
    for (const Array* a : inputs) in.push_back(*a);
    res = general_call(*rt_, *desc_, std::span<const Array>(in.data(), in.size()), o);
  }
  return std::move(res[0]);
}

}  // namespace loom
