// expect: loom::def::ufunc: the functor has no operator()
#include "loom/def/ufunc.hpp"

struct NotAFunctor {
  float apply(float x) const { return x; }
};

void register_ops(loom::Registrar& reg) {
  loom::def::ufunc<NotAFunctor, float(float)>(reg, "apply", "");
}
