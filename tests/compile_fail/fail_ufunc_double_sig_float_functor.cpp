// clang-format off
// expect: loom::def::ufunc: the functor's parameter 1 is not the signature's input type at that position
// clang-format on
// A double(double) signature on a float functor would compute the float64 loop in float.
#include "loom/def/ufunc.hpp"

struct Half {
  float operator()(float x) const { return x * 0.5f; }
};

void register_ops(loom::Registrar& reg) {
  loom::def::ufunc<Half, float(float), double(double)>(reg, "half", "");
}
