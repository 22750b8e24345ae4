// DLPack import (from_dlpack) and export (to_dlpack, to_dlpack_versioned) without copies.
#include "loom/dlpack.hpp"

#include <array>
#include <cstdio>
#include <memory>
#include <vector>

#include "loom/array_interface.hpp"

namespace loom {

namespace {

constexpr int kMaxDims = 64;  // NumPy's NPY_MAXDIMS: a larger ndim is a corrupt tensor

std::string code_name(std::uint8_t code) {
  static constexpr std::array<const char*, 18> names = {"kDLInt",
                                                        "kDLUInt",
                                                        "kDLFloat",
                                                        "kDLOpaqueHandle",
                                                        "kDLBfloat",
                                                        "kDLComplex",
                                                        "kDLBool",
                                                        "kDLFloat8_e3m4",
                                                        "kDLFloat8_e4m3",
                                                        "kDLFloat8_e4m3b11fnuz",
                                                        "kDLFloat8_e4m3fn",
                                                        "kDLFloat8_e4m3fnuz",
                                                        "kDLFloat8_e5m2",
                                                        "kDLFloat8_e5m2fnuz",
                                                        "kDLFloat8_e8m0fnu",
                                                        "kDLFloat6_e2m3fn",
                                                        "kDLFloat6_e3m2fn",
                                                        "kDLFloat4_e2m1fn"};
  return code < names.size() ? names[code] : "type code " + std::to_string(code);
}

std::string device_type_name(int type) {
  switch (type) {
    case kDLCPU:
      return "kDLCPU";
    case kDLCUDA:
      return "kDLCUDA";
    case kDLCUDAHost:
      return "kDLCUDAHost";
    case kDLOpenCL:
      return "kDLOpenCL";
    case kDLVulkan:
      return "kDLVulkan";
    case kDLMetal:
      return "kDLMetal";
    case kDLVPI:
      return "kDLVPI";
    case kDLROCM:
      return "kDLROCM";
    case kDLROCMHost:
      return "kDLROCMHost";
    case kDLExtDev:
      return "kDLExtDev";
    case kDLCUDAManaged:
      return "kDLCUDAManaged";
    case kDLOneAPI:
      return "kDLOneAPI";
    case kDLWebGPU:
      return "kDLWebGPU";
    case kDLHexagon:
      return "kDLHexagon";
    case kDLMAIA:
      return "kDLMAIA";
    default:
      return "device type " + std::to_string(type);
  }
}

std::string dtype_str(DLDataType t) {
  return "{" + code_name(t.code) + ", bits " + std::to_string(t.bits) + ", lanes " +
         std::to_string(t.lanes) + "}";
}

Device device_from_dlpack(DLDevice d) {
  switch (d.device_type) {
    case kDLCPU:
    case kDLCUDAHost:  // pinned host memory: the host reads it directly
      return Device{};
    case kDLCUDA:
      return Device{DeviceKind::cuda, d.device_id};
    default:
      throw DeviceError("from_dlpack: a tensor on " + device_type_name(d.device_type) + " (id " +
                        std::to_string(d.device_id) +
                        "); loom takes kDLCPU, kDLCUDAHost (pinned) and kDLCUDA tensors: copy it "
                        "to the host or a CUDA device in its own library first");
  }
}

std::string hex(const void* p) {
  char buf[2 + 2 * sizeof(void*) + 1];
  std::snprintf(buf, sizeof buf, "%p", p);
  return buf;
}

// The one import path of both structs. Ownership passes to the Array only once every check has
// passed: before that a throw leaves `t` to the caller.
template <class M>
Array import(M* t, bool readonly) {
  const DLTensor& d = t->dl_tensor;
  const DType dtype = from_dlpack_dtype(d.dtype);
  const Device device = device_from_dlpack(d.device);
  const auto data = reinterpret_cast<std::uintptr_t>(d.data);
  if (d.ndim < 0 || d.ndim > kMaxDims || (d.ndim > 0 && d.shape == nullptr) ||
      d.byte_offset > UINTPTR_MAX - data) {
    throw ValueError("from_dlpack: malformed DLTensor: ndim " + std::to_string(d.ndim) +
                     ", shape " + hex(d.shape) + ", data " + hex(d.data) + " + byte_offset " +
                     std::to_string(d.byte_offset) +
                     " (needs 0 <= ndim <= " + std::to_string(kMaxDims) +
                     ", a shape array when ndim > 0, and data + byte_offset in the address space)");
  }
  Shape shape(d.shape, d.shape + d.ndim);
  Shape strides;  // null strides: C-contiguous (wrap's empty strides)
  if (d.strides != nullptr) {
    const auto isz = static_cast<std::int64_t>(itemsize(dtype));
    for (int k = 0; k < d.ndim; ++k) {
      std::int64_t b = 0;
      if (__builtin_mul_overflow(d.strides[k], isz, &b)) {
        throw ShapeError("from_dlpack: stride " + std::to_string(d.strides[k]) + " elements of " +
                         std::to_string(isz) + " bytes (axis " + std::to_string(k) +
                         ") overflows int64 bytes");
      }
      strides.push_back(b);
    }
  }
  Buffer::Deleter deleter;
  if (t->deleter) deleter = [t](void*) { t->deleter(t); };
  Array a = wrap(reinterpret_cast<void*>(data + d.byte_offset), std::move(shape), dtype,
                 std::move(strides), std::move(deleter), device);
  return readonly ? a.as_readonly() : a;
}

// What an exported tensor owns: the array (its buffer stays alive) and the shape and strides the
// DLTensor points into. Heap-allocated; the struct's deleter deletes it.
template <class M>
struct Exported {
  M managed{};
  Array array;
  std::vector<std::int64_t> shape, strides;
};

template <class M>
Exported<M>* export_tensor(const Array& a) {
  const ArrayInterface i = interface_of(a);  // E-VALUE-EMPTY-ARRAY for an empty Array
  const Shape el = i.element_strides();
  auto e = std::make_unique<Exported<M>>();
  e->array = a;
  e->shape.assign(a.shape().begin(), a.shape().end());
  e->strides.assign(el.begin(), el.end());
  DLTensor& d = e->managed.dl_tensor;
  d.data = a.data();
  d.device = a.device().is_host() ? DLDevice{kDLCPU, 0} : DLDevice{kDLCUDA, a.device().index};
  d.ndim = a.ndim();
  d.dtype = to_dlpack_dtype(a.dtype());
  d.shape = e->shape.data();
  d.strides = e->strides.data();
  d.byte_offset = 0;
  e->managed.manager_ctx = e.get();
  e->managed.deleter = [](M* self) { delete static_cast<Exported<M>*>(self->manager_ctx); };
  return e.release();
}

}  // namespace

DLDataType to_dlpack_dtype(DType t) {
  const auto bits = static_cast<std::uint8_t>(8 * itemsize(t));
  switch (kind(t)) {
    case Kind::boolean:
      return {kDLBool, bits, 1};
    case Kind::signed_int:
      return {kDLInt, bits, 1};
    case Kind::unsigned_int:
      return {kDLUInt, bits, 1};
    case Kind::floating:
      return {kDLFloat, bits, 1};
    case Kind::complex:
      return {kDLComplex, bits, 1};
  }
  return {};
}

DType from_dlpack_dtype(DLDataType t) {
  if (t.lanes == 1) {
    for (int k = 0; k < kNumDTypes; ++k) {
      const DLDataType c = to_dlpack_dtype(static_cast<DType>(k));
      if (c.code == t.code && c.bits == t.bits) return static_cast<DType>(k);
    }
  }
  throw TypeError("from_dlpack: no loom dtype for DLPack dtype " + dtype_str(t) +
                  "; loom takes lanes 1 of kDLBool 8, kDLInt and kDLUInt 8/16/32/64, kDLFloat "
                  "16/32/64, kDLComplex 64/128 bits: convert it in its own library first");
}

Array from_dlpack(DLManagedTensorVersioned* t) {
  if (t == nullptr) throw ValueError("from_dlpack: a null DLManagedTensorVersioned pointer");
  if (t->version.major != DLPACK_MAJOR_VERSION) {
    throw ValueError("from_dlpack: a DLManagedTensorVersioned of DLPack " +
                     std::to_string(t->version.major) + "." + std::to_string(t->version.minor) +
                     "; loom reads major version " + std::to_string(DLPACK_MAJOR_VERSION) +
                     " (the tensor was not taken: call its deleter)");
  }
  return import(t, (t->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0);
}

Array from_dlpack(DLManagedTensor* t) {
  if (t == nullptr) throw ValueError("from_dlpack: a null DLManagedTensor pointer");
  return import(t, false);
}

DLManagedTensorVersioned* to_dlpack_versioned(const Array& a) {
  auto* e = export_tensor<DLManagedTensorVersioned>(a);
  e->managed.version = {DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
  e->managed.flags = a.writeable() ? 0 : DLPACK_FLAG_BITMASK_READ_ONLY;
  return &e->managed;
}

DLManagedTensor* to_dlpack(const Array& a) {
  if (a.valid() && !a.writeable()) {
    throw ValueError("to_dlpack: " + a.str() +
                     " is read-only and the legacy DLManagedTensor cannot say so; use "
                     "to_dlpack_versioned (DLPACK_FLAG_BITMASK_READ_ONLY) or export a copy()");
  }
  return &export_tensor<DLManagedTensor>(a)->managed;
}

}  // namespace loom
