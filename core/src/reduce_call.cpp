// Reductions with NumPy's semantics: axis (one, several, all), keepdims, initial, identity.
#include <algorithm>

#include "call_common.hpp"
#include "loom/exec.hpp"
#include "loom/strided.hpp"

namespace loom {

Array Reduce::operator()(const Array& x, const ReduceOptions& o) const {
  const OpDesc& op = *desc_;
  const std::string who = "reduction '" + op.name + "'";
  const Array* all[2] = {&x, o.out ? &*o.out : nullptr};
  const detail::Target t =
      detail::pick_target(*rt_, o.target, op, std::span(all, o.out ? 2 : 1), o.stream);
  const Loop& loop =
      detail::pick_loop(op, t.family, std::span(&x, 1), o.dtype, "", Casting::same_kind);
  const DType dt = loop.sig.outputs[0];
  const int nd = x.ndim();
  std::vector<bool> reduced(nd, o.axis.empty());
  for (int a : o.axis) {
    const int ax = a < 0 ? a + nd : a;
    if (ax < 0 || ax >= nd) {
      throw ValueError(who + ": axis " + std::to_string(a) +
                       " is out of bounds for an array of dimension " + std::to_string(nd));
    }
    if (reduced[ax]) throw ValueError(who + ": axis " + std::to_string(a) + " given twice");
    reduced[ax] = true;
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
    if (!can_cast(dt, o.out->dtype(), Casting::same_kind)) {
      throw TypeError(who + ": cannot cast the result from " + std::string(name(dt)) +
                      " to out= dtype " + std::string(name(o.out->dtype())) +
                      " with casting rule 'same_kind'");
    }
  }
  std::optional<double> start = o.initial ? o.initial : op.identity;
  if (count == 0 && !start) {
    throw ValueError(who +
                     ": zero-size array to a reduction which has no identity; pass "
                     "initial= to give the result for empty input");
  }
  // On a device target the reduction runs on the device; host inputs are copied in whole.
  Array xin = t.cast(x, dt);
  if (t.on_device()) xin = t.to_device(xin);
  Array res = t.on_device() ? t.rt->empty(kept, dt, t.device_name(), t.stream) : empty(kept, dt);
  const LoopImpl& impl = loop.impl[static_cast<int>(t.family)];
  auto run = [&](const Array& part, const std::optional<double>& hand_start) {
    // folds `part` into res (reduced dims broadcast), or with hand_start into start (op) part
    const Array ops[] = {res.broadcast_to(part.shape()), part};
    ReduceCall call{StridedIter::make(ops, part.shape()), &impl, dt, t.stream.native()};
    if (hand_start) {
      call.has_start = true;
      call.start = *hand_start;
    }
    t.backend->run_reduce(call, t.device);
  };
  if (start) {
    // initial= joins the reduction like one more element (NumPy); the identity changes nothing.
    if (impl.takes_start && xin.size() > 0) {
      run(xin, start);
    } else {
      t.copy(Array(*start).as_strong(), res);
      if (xin.size() > 0) run(xin, std::nullopt);
    }
  } else {
    // No identity (max, min): start from the first element of each reduced slice, then fold the
    // rest exactly once: for each reduced axis in turn, the elements with index >= 1 on it and
    // index 0 on the axes before it.
    Array first = xin;
    for (int k = nd - 1; k >= 0; --k) {
      if (reduced[k]) first = first.slice(k, 0, 1);
    }
    t.copy(first, res);
    Array v = xin;
    for (int k = 0; k < nd; ++k) {
      if (!reduced[k]) continue;
      const Array part = v.slice(k, 1, v.shape()[k]);
      if (part.size() > 0) run(part, std::nullopt);
      v = v.slice(k, 0, 1);
    }
  }
  Array shaped = res.reshape(final_shape);
  if (o.out) {
    t.copy(shaped, *o.out);
    return *o.out;
  }
  return t.on_device() && !t.device_mode ? t.rt->to_host(shaped, t.stream) : shaped;
}

}  // namespace loom
