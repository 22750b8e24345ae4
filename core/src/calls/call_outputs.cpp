// A ufunc's or gufunc's outputs: see call_outputs.hpp.
#include "calls/call_outputs.hpp"

#include "loom/aliasing.hpp"
#include "loom/strided.hpp"

namespace loom::detail {

OutSlot make_out_slot(const Target& t, const OpDesc& op, int k, DType loop_dtype,
                      const Shape& shape, const Array* given, Casting casting, bool masked) {
  // where= without out=: the loop writes a scratch array and the masked-in elements go into a
  // zero-filled result (documented: zeros where the mask is false).
  if (!given) {
    if (masked) return {t.alloc(shape, loop_dtype, false), t.alloc(shape, loop_dtype, true)};
    return {t.alloc(shape, loop_dtype, false), {}};
  }
  if (given->shape() != shape) {
    throw ShapeError(std::string(name(op.kind)) + " '" + op.name + "': out= array " +
                     std::to_string(k) + " has shape " + shape_str(given->shape()) +
                     " but the result has shape " + shape_str(shape));
  }
  if (!can_cast(loop_dtype, given->dtype(), casting)) {
    throw TypeError(std::string(name(op.kind)) + " '" + op.name + "': cannot cast output " +
                    std::to_string(k) + " from " + std::string(name(loop_dtype)) +
                    " to out= dtype " + std::string(name(given->dtype())) + " with casting rule '" +
                    std::string(name(casting)) + "'");
  }
  // Written in place only where the loop can write it: same dtype, and in the call's memory.
  const bool here = given->device().is_host() != t.device_mode;
  if (given->dtype() == loop_dtype && !masked && here) return {*given, {}};
  return {t.alloc(shape, loop_dtype, false), *given};
}

void resolve_overlap(const Target& t, Arrays& inputs, const OutSlots& outs, bool identical_ok) {
  for (auto& in : inputs) {
    for (const auto& o : outs) {
      // By address, not by buffer: two wraps of one memory overlap too.
      const Array& w = o.target;
      if (!may_share_memory(in, w) || (identical_ok && same_elements(in, w))) continue;
      Array c = in.device().is_host()
                    ? empty(in.shape(), in.dtype())
                    : t.rt->empty(in.shape(), in.dtype(), in.device().str(), t.stream);
      t.copy(in, c);
      in = c;
      break;
    }
  }
}

Arrays finish_outputs(const Target& t, const OutSlots& slots, const CallOptions& o) {
  Arrays res;
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

}  // namespace loom::detail
