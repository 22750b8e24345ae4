// A stand-in for another library's DLPack exporter (PyTorch, CuPy): a tensor over memory the test
// owns, whose deleter counts its calls, so tests can check that loom calls it exactly once.
#pragma once
#include <cstdint>
#include <vector>

#include "loom/dlpack.hpp"

namespace loom_interop_test {

template <class M>
struct Foreign {
  M managed{};
  std::vector<std::int64_t> shape, strides;
  int* deleted;  // incremented by the deleter
};

// Element strides empty: DLPack's NULL strides (C-contiguous). `flags` is ignored for the legacy
// struct, which has none.
template <class M>
M* make_foreign(void* data, DLDevice device, DLDataType dtype, std::vector<std::int64_t> shape,
                std::vector<std::int64_t> strides, int* deleted, std::uint64_t flags = 0,
                std::uint64_t byte_offset = 0) {
  auto* f = new Foreign<M>{{}, std::move(shape), std::move(strides), deleted};
  DLTensor& t = f->managed.dl_tensor;
  t.data = data;
  t.device = device;
  t.ndim = static_cast<int>(f->shape.size());
  t.dtype = dtype;
  t.shape = f->shape.data();
  t.strides = f->strides.empty() ? nullptr : f->strides.data();
  t.byte_offset = byte_offset;
  f->managed.manager_ctx = f;
  f->managed.deleter = [](M* self) {
    auto* g = static_cast<Foreign<M>*>(self->manager_ctx);
    ++*g->deleted;
    delete g;
  };
  if constexpr (requires { f->managed.flags; }) {
    f->managed.version = {DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
    f->managed.flags = flags;
  }
  return &f->managed;
}

}  // namespace loom_interop_test
