// clang-format off
// expect: loom::def::ufunc: `vectorize = true` needs every operand of a floating-point signature to be one type
// clang-format on
#include <cstdint>

#include "loom/def/ufunc.hpp"

// x * 2^n as ldexp: a float and an int32 operand cannot share one xsimd batch type, so the loop
// could not run on batches; it is refused rather than run scalar without a word.
struct Scale {
  static constexpr bool vectorize = true;
  template <class T, class I>
  T operator()(T x, I n) const {
    return x * static_cast<T>(n);
  }
};

void register_ops(loom::Registrar& reg) {
  loom::def::ufunc<Scale, float(float, std::int32_t)>(reg, "scale", "");
}
