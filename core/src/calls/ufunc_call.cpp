// Ufunc and gufunc calls with NumPy's semantics, their entry: the fast path for small host calls,
// and the general path's checks of the options, its target and loop; then the elementwise call
// (elementwise_call.cpp) or the gufunc call (gufunc_call.cpp).
#include "calls/ufunc_call.hpp"

#include <algorithm>

#include "calls/methods_common.hpp"
#include "loom/aliasing.hpp"
#include "loom/exec.hpp"
#include "loom/strided.hpp"
#include "loom/type_resolution.hpp"
#include "ops/pick_loop.hpp"
#include "runtime/call_common.hpp"
#include "runtime/device_set.hpp"
#include "runtime/gufunc_plan.hpp"

namespace loom {

namespace {

using detail::who;

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
  // A weak int its loop cannot hold: the general path compares it by value or refuses it.
  if (!detail::weak_ints_fit(loop, in)) return false;
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
  return op.kind == OpKind::gufunc ? detail::call_gufunc(op, t, loop, inputs, o)
                                   : detail::call_ufunc(op, t, loop, inputs, o);
}

SmallVec<Array, 4> Ufunc::run(std::span<const Array> inputs, const CallOptions& o) const {
  SmallVec<const Array*, 8> in;
  for (const auto& a : inputs) in.push_back(&a);
  SmallVec<Array, 4> res;
  std::shared_ptr<const OpDesc> keep;
  const OpDesc& op = rt_->current_op(desc_, gen_, o.target, keep);
  if (fast_call(*rt_, op, std::span<const Array* const>(in.data(), in.size()), o, res)) {
    return res;
  }
  return general_call(*rt_, op, inputs, o);
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
  // The op's current descriptor where a library opened since this handle was made added loops.
  std::shared_ptr<const OpDesc> keep;
  const OpDesc& op = rt_->current_op(desc_, gen_, o.target, keep);
  if (!fast_call(*rt_, op, std::span<const Array* const>(inputs.begin(), inputs.size()), o, res)) {
    SmallVec<Array, 8> in;
    for (const Array* a : inputs) in.push_back(*a);
    res = general_call(*rt_, op, std::span<const Array>(in.data(), in.size()), o);
  }
  return std::move(res[0]);
}

}  // namespace loom
