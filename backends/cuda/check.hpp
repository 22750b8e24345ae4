// Checks every CUDA runtime call of the backend: a failure becomes loom::DeviceError naming the
// call and CUDA's own description of the error.
#pragma once
#include <cuda_runtime_api.h>

#include <string>

#include "loom/error.hpp"

namespace loom::backend::cuda_backend {

[[noreturn]] inline void fail(cudaError_t e, const std::string& what) {
  (void)cudaGetLastError();  // a non-sticky error must not leak into the next call
  throw DeviceError(what + " failed: " + cudaGetErrorString(e) + " (" + cudaGetErrorName(e) +
                    ")");
}

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) fail(e, what);
}

// "1.5 GiB (1610612736 bytes)"
std::string bytes_str(std::size_t bytes);

}  // namespace loom::backend::cuda_backend
