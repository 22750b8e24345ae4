// Catalogue triggers of interop without copies (issue 14, docs/interop.md): DLPack import and
// export, ArrayInterface and typestrs, wrap's device check.
#include <cstdint>
#include <vector>

#include "catalogue.hpp"
#include "loom/array_interface.hpp"
#include "loom/dlpack.hpp"
#include "trigger_helpers.hpp"

namespace loom {

using namespace catalogue;  // NOLINT: the helpers of this file

namespace {

// A host tensor over static memory with no deleter (nothing to free when a trigger throws).
DLManagedTensorVersioned* tensor(DLDataType dtype, DLDevice device = {kDLCPU, 0}) {
  static float mem[8];
  static std::int64_t shape[1] = {8};
  static DLManagedTensorVersioned t;
  t = {};
  t.version = {DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
  t.dl_tensor = {mem, device, 1, dtype, shape, nullptr, 0};
  return &t;
}
constexpr DLDataType kF32{kDLFloat, 32, 1};

// A float64 view whose byte strides are not whole elements.
Array odd_strides() {
  alignas(8) static char mem[64];
  return wrap(mem, {3}, DType::float64, {12});
}

const TriggerSet interop = {
    {"E-VALUE-WRAP-DEVICE",
     [] {
       static float d[4];
       wrap(d, {4}, DType::float32, {}, {}, Device{DeviceKind::cuda, -1});
     }},
    {"E-PARSE-TYPESTR", [] { dtype_from_typestr(">f8"); }},
    {"E-VALUE-ELEMENT-STRIDES", [] { interface_of(odd_strides()).element_strides(); }},
    {"E-TYPE-DLPACK-DTYPE",
     [] {
       from_dlpack(tensor({kDLBfloat, 16, 1}));
     }},
    {"E-DEVICE-DLPACK-DEVICE",
     [] {
       from_dlpack(tensor(kF32, {kDLOpenCL, 1}));
     }},
    {"E-VALUE-DLPACK-VERSION",
     [] {
       DLManagedTensorVersioned* t = tensor(kF32);
       t->version = {2, 0};
       from_dlpack(t);
     }},
    {"E-VALUE-DLPACK-NULL", [] { from_dlpack(static_cast<DLManagedTensorVersioned*>(nullptr)); }},
    {"E-VALUE-DLPACK-MALFORMED",
     [] {
       DLManagedTensorVersioned* t = tensor(kF32);
       t->dl_tensor.ndim = -1;
       from_dlpack(t);
     }},
    {"E-SHAPE-DLPACK-STRIDE-OVERFLOW",
     [] {
       static std::int64_t strides[1] = {std::int64_t{1} << 62};
       DLManagedTensorVersioned* t = tensor(kF32);
       t->dl_tensor.strides = strides;
       from_dlpack(t);
     }},
    {"E-VALUE-DLPACK-LEGACY-READONLY",
     [] {
       to_dlpack(zeros({3}).broadcast_to({2, 3}));
     }},
};

}  // namespace
}  // namespace loom
