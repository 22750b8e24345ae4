// What every call shares: its target (where it runs; the arrays' devices checked against it) and
// the moves and casts of its arrays there.
#include "runtime/call_common.hpp"

#include "loom/aliasing.hpp"
#include "loom/strided.hpp"

namespace loom::detail {

Target pick_target(const Runtime& rt, const std::string& target, const OpDesc& op,
                   std::span<const Array* const> arrays, const Stream& stream,
                   std::span<const std::string> labels) {
  return pick_target(rt, target, std::string(name(op.kind)) + " '" + op.name + "'", arrays, stream,
                     labels);
}

Target pick_target(const Runtime& rt, const std::string& target, const std::string& what,
                   std::span<const Array* const> arrays, const Stream& stream,
                   std::span<const std::string> labels) {
  auto [backend, device] = rt.resolve_target(target);
  const std::string tname = target.empty() ? rt.default_target() : target;
  const Family fam = backend->family();
  for (const Array* a : arrays) {
    if (!a->valid()) {
      throw ValueError(what + " got an empty (default-constructed) Array");
    }
    const Device d = a->device();
    const bool fits = fam == Family::host
                          ? d.is_host()
                          : (d.is_host() || (d.kind == DeviceKind::cuda && d.index == device));
    if (!fits) {
      throw DeviceError(what + " on target '" + tname + "' got " + a->str() +
                        "; move it with Runtime::to_host / to_device first");
    }
  }
  Target t{backend, device, fam, tname, &rt, stream, false};
  if (fam != Family::host) {
    for (const Array* a : arrays) t.device_mode = t.device_mode || !a->device().is_host();
  }
  if (fam != Family::host && rt.transfer_guard() == TransferGuard::disallow) {
    // 0-d host arrays are the call's scalars (2.0 in x * 2.0): values, not data to move.
    for (std::size_t i = 0; i < arrays.size(); ++i) {
      const Array& a = *arrays[i];
      if (!a.device().is_host() || a.ndim() == 0) continue;
      const std::string label = i < labels.size() ? labels[i] : "array " + std::to_string(i);
      throw TransferError(what + " on target '" + tname + "': " + label + " is a host array (" +
                          a.str() + ") that the call would copy to or from " + t.device_name() +
                          " implicitly, and this runtime disallows implicit transfers " +
                          "(TransferGuard::disallow, LOOM_TRANSFER_GUARD=disallow); move it " +
                          "with Runtime::to_device first, or allow transfers");
    }
  }
  return t;
}

Array Target::alloc(const Shape& shape, DType dtype, bool zero) const {
  if (!device_mode) return zero ? zeros(shape, dtype) : empty(shape, dtype);
  return zero ? rt->zeros(shape, dtype, device_name(), stream)
              : rt->empty(shape, dtype, device_name(), stream);
}

Array Target::cast(const Array& a, DType to) const {
  if (a.dtype() == to) return a;
  if (a.device().is_host()) return a.astype(to);
  Array out = rt->empty(a.shape(), to, a.device().str(), stream);
  rt->copy_to(a, out, stream);
  return out;
}

Array Target::to_device(const Array& a) const { return rt->to_device(a, device_name(), stream); }

void Target::copy(const Array& src, const Array& dst) const {
  if (src.device().is_host() && dst.device().is_host()) return copy_cast(src, dst);
  rt->copy_to(src, dst, stream);
}

void Target::copy_where(const Array& src, const Array& dst, const Array& mask) const {
  if (dst.device().is_host()) return loom::copy_where(src, dst, mask);
  const Shape& shape = dst.shape();
  // Operands that dst's writes could reach are read from copies (a bool where= in out='s memory).
  auto apart = [&](const Array& a) {
    if (a.device().is_host() || !may_share_memory(a, dst) || same_elements(a, dst)) return a;
    Array c = rt->empty(a.shape(), a.dtype(), a.device().str(), stream);
    rt->copy_to(a, c, stream);
    return c;
  };
  const Array ops[] = {apart(src).broadcast_to(shape), dst, apart(mask).broadcast_to(shape)};
  CastCall c{StridedIter::make(ops, shape), src.dtype(), dst.dtype(), stream.native()};
  c.masked = true;
  if (shape_size(shape) > 0) backend->cast(c, device);
}

}  // namespace loom::detail
