// DLPack import and export: a loom::Array shares its memory with PyTorch, CuPy, JAX or NumPy
// tensors passed through a C++ extension, in both directions, without copies (docs/interop.md).
#pragma once
// DLPack 1.x (DLManagedTensorVersioned, read-only flag, kDLBool): Debian's libdlpack-dev is 0.6,
// which has none of them, so loom carries the upstream v1.1 header (docs/decisions.md).
#if defined(DLPACK_DLPACK_H_) && !defined(DLPACK_MAJOR_VERSION)
#error \
    "<dlpack/dlpack.h> older than 1.0 was included before loom/dlpack.hpp; include loom/dlpack.hpp first (it brings DLPack 1.1)"
#endif
#include "loom/array.hpp"
#include "loom/third_party/dlpack.h"

namespace loom {

// Imports a tensor another library exported, without copying. On success loom owns `t`: it calls
// t->deleter(t) exactly once, when the last Array sharing the memory goes (never, when the
// deleter is null). On error (a loom::Error naming the unsupported dtype, device or version) loom
// has taken nothing: `t` is untouched and the caller still owns it.
// kDLCPU and kDLCUDAHost (pinned) tensors become host arrays, kDLCUDA device N a cuda:N array.
// DLPACK_FLAG_BITMASK_READ_ONLY gives a read-only array; the legacy struct has no flags, so its
// arrays are writeable.
Array from_dlpack(DLManagedTensorVersioned* t);
Array from_dlpack(DLManagedTensor* t);

// Exports an array without copying: the result keeps the array's buffer alive until the consumer
// calls its deleter (exactly once, as DLPack asks). Strides are always given, in elements; data
// is the address of element 0 and byte_offset 0, as NumPy, PyTorch and CuPy export.
// A read-only array is exported with DLPACK_FLAG_BITMASK_READ_ONLY; the legacy struct cannot say
// so, so to_dlpack refuses a read-only array rather than let the consumer write it.
DLManagedTensorVersioned* to_dlpack_versioned(const Array& a);
DLManagedTensor* to_dlpack(const Array& a);

// The DLPack dtype of a loom dtype, and back (TypeError naming code, bits and lanes when loom has
// no such dtype).
DLDataType to_dlpack_dtype(DType t);
DType from_dlpack_dtype(DLDataType t);

}  // namespace loom
