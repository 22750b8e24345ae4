// clang-format off
// expect: loom::def::ufunc: the functor's operator() takes another number of parameters than the signature has inputs
// clang-format on
#include "loom/def/ufunc.hpp"

struct Neg {
  float operator()(float x) const { return -x; }
};

void register_ops(loom::Registrar& reg) {
  loom::def::ufunc<Neg, float(float, float)>(reg, "neg", "");
}
