// A ufunc's elementwise call on its target: broadcasting, out= slots, casts to the loop,
// read-before-write copies, host operands streamed through a device target, the loop, out=
// filled. Its entry and checks: ufunc_call.cpp.
#include <limits>

#include "calls/ufunc_call.hpp"
#include "loom/aliasing.hpp"
#include "loom/exec.hpp"
#include "loom/strided.hpp"

namespace loom::detail {

Arrays call_ufunc(const OpDesc& op, const Target& t, const Loop& loop,
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
  OutSlots slots;
  for (int k = 0; k < op.nout; ++k) {
    slots.push_back(make_out_slot(t, op, k, loop.sig.outputs[k], shape,
                                  o.out.empty() ? nullptr : &o.out[k], o.casting,
                                  o.where.has_value()));
  }
  Arrays ins;
  for (int i = 0; i < op.nin; ++i) ins.push_back(t.cast(inputs[i], loop.sig.inputs[i]));
  resolve_overlap(t, ins, slots, /*identical_ok=*/true);
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
  Arrays operands;
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
      if (host_operands >> a & 1u) pin_on_reuse(*t.rt, *t.backend, operands[a]);
    }
    t.backend->run_elementwise(call, t.device);
    // Streamed host operands cross once each, in (inputs) or out (outputs), whole.
    for (int a = 0; a < call.iter.nargs(); ++a) {
      if (!(host_operands >> a & 1u)) continue;
      count_transfer(*t.rt, t.device,
                     a < op.nin ? CopyKind::host_to_device : CopyKind::device_to_host,
                     size * static_cast<std::int64_t>(operands[a].itemsize()));
    }
  }
  return finish_outputs(t, slots, o);
}

}  // namespace loom::detail
