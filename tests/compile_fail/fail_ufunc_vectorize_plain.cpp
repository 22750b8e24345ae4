// clang-format off
// expect: loom::def::ufunc: the functor declares `vectorize = true` but its operator() is not a template
// clang-format on
#include "loom/def/ufunc.hpp"

struct Neg {
  static constexpr bool vectorize = true;
  float operator()(float x) const { return -x; }
};

void register_ops(loom::Registrar& reg) { loom::def::ufunc<Neg, float(float)>(reg, "neg", ""); }
