// The example plugin's one operation, lerp(a, b, t) = a + t*(b - a): the template to copy when
// adding an op. An op is a functor; one functor serves every backend.
#pragma once
#include "loom/hd.hpp"  // LOOM_HD: __host__ __device__ under nvcc, nothing under g++

namespace loom_example {

struct Lerp {
  // Opt in to the SIMD host path: the call operator is then also instantiated with
  // xsimd::batch<float> / batch<double> (16 / 8 lanes on AVX-512) on contiguous data. Only say so
  // when the body compiles for batches and means the same there: arithmetic and the math
  // functions are fine (write `using std::exp; exp(x)` so that batches find xsimd's exp); an
  // `if` or `?:` on a value is not (use a select, see plugins/math/functors.hpp).
  static constexpr bool vectorize = true;

  // One template for every element type: loom instantiates it once per signature listed in
  // table.hpp (float, double), and with batches as said above. Inputs come by value, the result
  // is returned; an op with several outputs takes them by reference and returns void.
  template <class T>
  LOOM_HD T operator()(T a, T b, T t) const {
    return a + t * (b - a);  // exact at t = 0; at t = 1 within rounding of b
  }
};

}  // namespace loom_example
