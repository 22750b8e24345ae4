// A kernel that writes through a raw device pointer, as a CuPy or PyTorch kernel would.
#include <cuda_runtime.h>

#include "device_kernels.hpp"

namespace loom_interop_test {

namespace {
__global__ void scale(float* x, std::int64_t n, std::int64_t stride, float factor) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) x[i * stride] *= factor;
}
}  // namespace

int scale_on_device(float* x, std::int64_t n, std::int64_t stride, float factor) {
  scale<<<static_cast<unsigned>((n + 127) / 128), 128>>>(x, n, stride, factor);
  const cudaError_t e = cudaGetLastError();
  return e != cudaSuccess ? e : cudaDeviceSynchronize();
}

}  // namespace loom_interop_test
