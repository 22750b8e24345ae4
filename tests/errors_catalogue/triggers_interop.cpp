// Catalogue triggers of interop without copies (issue 14, docs/interop.md): ArrayInterface and
// typestrs, wrap's device check.
#include <cstdint>

#include "catalogue.hpp"
#include "loom/array_interface.hpp"
#include "trigger_helpers.hpp"

namespace loom {

using namespace catalogue;  // NOLINT: the helpers of this file

namespace {

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
};

}  // namespace
}  // namespace loom
