// expect: loom::def::ufunc: the functor's operator() is not const
// Was "invalid use of incomplete type" from deep inside the loops.
#include "loom/def/ufunc.hpp"

struct Neg {
  template <class T>
  T operator()(T x) {
    return -x;
  }
};

void register_ops(loom::Registrar& reg) { loom::def::ufunc<Neg, float(float)>(reg, "neg", ""); }
