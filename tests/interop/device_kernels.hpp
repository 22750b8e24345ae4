// Kernels the CUDA interop tests launch on memory another side exported (device_kernels.cu).
#pragma once
#include <cstdint>

namespace loom_interop_test {

// x[i * stride] *= factor for i < n, on the current device; synchronizes. Returns the CUDA error.
int scale_on_device(float* x, std::int64_t n, std::int64_t stride, float factor);

}  // namespace loom_interop_test
