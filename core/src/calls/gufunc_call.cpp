// A gufunc's call on its target: core dimensions bound from the layout, the operands (axes=,
// axis=, keepdims= as views) and the "=min(...)" rules, outputs made or checked, the loop, and a
// checked call's error raised after out= is filled. Its entry and checks: ufunc_call.cpp.
#include <algorithm>

#include "calls/gufunc_checked.hpp"
#include "calls/ufunc_call.hpp"
#include "loom/exec.hpp"
#include "loom/strided.hpp"
#include "runtime/gufunc_plan.hpp"

namespace loom::detail {

Arrays call_gufunc(const OpDesc& op, const Target& t, const Loop& loop,
                   std::span<const Array> inputs, const CallOptions& o) {
  const Layout& L = *op.layout;
  if (o.where) throw ValueError(who(op) + ": where= is not supported for gufuncs (as in NumPy)");
  GufuncCheck check(op, t, loop, o);
  // axes=, axis=, keepdims= and dropped flexible dims become views with the layout's core dims
  // last: the code below and every backend only see trailing core dims.
  const GufuncPlan plan =
      plan_gufunc(op, inputs, std::span<const Array>(o.out.data(), o.out.size()), o);
  Arrays views;  // the loop's view of every given operand, inputs then out= arrays
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
  OutSlots slots;
  Arrays fresh;  // outputs allocated here in the caller's layout (axes=, keepdims=, n?)
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
    slots.push_back(make_out_slot(t, op, k, loop.sig.outputs[k], full,
                                  o.out.empty() ? nullptr : &views[arg], o.casting, false));
  }
  if (t.on_device()) {  // gufunc results are computed on the device, then copied to host outputs
    for (auto& sl : slots) {
      if (!sl.target.device().is_host()) continue;
      if (!sl.out) sl.out = sl.target;
      sl.target = t.rt->empty(sl.target.shape(), sl.target.dtype(), t.device_name(), t.stream);
    }
  }
  Arrays ins;
  for (int i = 0; i < op.nin; ++i) {
    ins.push_back(t.cast(views[i], loop.sig.inputs[i]));
    if (t.on_device()) ins.back() = t.to_device(ins.back());  // gufuncs copy host inputs whole
  }
  // A gufunc reads other elements than the one it writes: any overlap needs a copy.
  resolve_overlap(t, ins, slots, /*identical_ok=*/false);
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
  Arrays res = finish_outputs(t, slots, o);
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

}  // namespace loom::detail
