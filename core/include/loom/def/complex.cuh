// Complex dtypes in CUDA code: cuda::std::complex<float> and <double> (libcu++, in the CUDA
// toolkit) are complex64 and complex128 there, as std::complex<float> and <double> are in host
// code. Both lay out (real, imag) with no padding, so a loop of either reads the other's arrays;
// std::complex's operators are host functions, libcu++'s are host and device. cuda::std::complex
// is aligned to its size (16 bytes for complex128): loom's device buffers and their views are.
// Only ever included by .cu files.
#pragma once
#include <cuda/std/complex>

#include "loom/dtype.hpp"

namespace loom {

template <>
struct dtype_of<cuda::std::complex<float>> {
  static constexpr DType value = DType::complex64;
};
template <>
struct dtype_of<cuda::std::complex<double>> {
  static constexpr DType value = DType::complex128;
};

static_assert(sizeof(cuda::std::complex<float>) == sizeof(std::complex<float>) &&
              sizeof(cuda::std::complex<double>) == sizeof(std::complex<double>));

}  // namespace loom
