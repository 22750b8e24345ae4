// ufunc_elementwise.cuh alone serves ops with no T(T,T) signature (unary, mixed types, several
// outputs), and ufunc.cuh still serves every op, binary ones with their method loops.
#include <cstdint>

#include "loom/def/ufunc_elementwise.cuh"

struct Cube {
  template <class T>
  LOOM_HD T operator()(T x) const {
    return x * x * x;
  }
};
struct Scale {  // float(float, std::int32_t): binary, but not T(T,T)
  template <class T, class I>
  LOOM_HD T operator()(T x, I n) const {
    return x * static_cast<T>(n);
  }
};

void register_ops(loom::Registrar& reg) {
  loom::def::ufunc<Cube, float(float), double(double)>(reg, "cube", "");
  loom::def::ufunc<Scale, float(float, std::int32_t)>(reg, "scale", "", loom::ReduceTraits{});
}
