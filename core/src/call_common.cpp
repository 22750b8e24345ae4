// Shared steps of ufunc, gufunc and reduce calls.
#include "call_common.hpp"

#include "loom/strided.hpp"

namespace loom::detail {

Target pick_target(const Runtime& rt, const std::string& target, const OpDesc& op,
                   std::span<const Array* const> arrays) {
  auto [backend, device] = rt.resolve_target(target);
  const std::string tname = target.empty() ? rt.default_target() : target;
  const Family fam = backend->family();
  for (const Array* a : arrays) {
    if (!a->valid()) {
      throw ValueError(std::string(name(op.kind)) + " '" + op.name +
                       "' got an empty (default-constructed) Array");
    }
    const Device d = a->device();
    const bool fits = fam == Family::host ? d.is_host()
                                          : (d.is_host() || (d.kind == DeviceKind::cuda && d.index == device));
    if (!fits) {
      throw DeviceError(std::string(name(op.kind)) + " '" + op.name + "' on target '" + tname +
                        "' got " + a->str() + "; move it with Runtime::to_host / to_device first");
    }
  }
  return {backend, device, fam, tname};
}

const Loop& pick_loop(const OpDesc& op, Family family, std::span<const Array> inputs,
                      std::optional<DType> dtype, const std::string& signature, Casting casting) {
  SmallVec<DType, 8> dts;
  SmallVec<char, 8> weak;
  for (const auto& a : inputs) {
    dts.push_back(a.dtype());
    weak.push_back(a.weak());
  }
  ResolveRequest r{family, std::span<const DType>(dts.data(), dts.size()),
                   std::span<const bool>(reinterpret_cast<const bool*>(weak.data()), weak.size()),
                   dtype, signature, casting};
  return op.loops[resolve_loop(op, r)];
}

Array cast_input(const Array& a, DType to) { return a.dtype() == to ? a : a.astype(to); }

OutSlot make_out_slot(const OpDesc& op, int k, DType loop_dtype, const Shape& shape,
                      const Array* given, Casting casting, bool masked) {
  if (!given) return {masked ? zeros(shape, loop_dtype) : empty(shape, loop_dtype), {}};
  if (given->shape() != shape) {
    throw ShapeError(std::string(name(op.kind)) + " '" + op.name + "': out= array " +
                     std::to_string(k) + " has shape " + shape_str(given->shape()) +
                     " but the result has shape " + shape_str(shape));
  }
  if (!can_cast(loop_dtype, given->dtype(), casting)) {
    throw TypeError(std::string(name(op.kind)) + " '" + op.name + "': cannot cast output " +
                    std::to_string(k) + " from " + std::string(name(loop_dtype)) + " to out= dtype " +
                    std::string(name(given->dtype())) + " with casting rule '" +
                    std::string(name(casting)) + "'");
  }
  if (given->dtype() == loop_dtype && !masked) return {*given, {}};
  return {empty(shape, loop_dtype), *given};
}

void resolve_overlap(Arrays& inputs, const OutSlots& outs, bool identical_ok) {
  for (auto& in : inputs) {
    for (const auto& o : outs) {
      const Array& t = o.target;
      if (in.buffer() != t.buffer() || in.size() == 0 || t.size() == 0) continue;
      const auto [a0, a1] = in.byte_extent();
      const auto [b0, b1] = t.byte_extent();
      if (a1 <= b0 || b1 <= a0) continue;
      if (identical_ok && in.data() == t.data() && in.strides() == t.strides() &&
          in.shape() == t.shape()) {
        continue;
      }
      Array c = empty(in.shape(), in.dtype());
      copy_cast(in, c);
      in = c;
      break;
    }
  }
}

}  // namespace loom::detail
