// expect: loom::def::reduce: a reduction's signature must be T(T, T)
#include "loom/def/reduce.hpp"

struct Add {
  template <class T>
  T operator()(T x, T y) const {
    return x + y;
  }
};

void register_ops(loom::Registrar& reg) {
  loom::def::reduce<Add, float(float)>(reg, "total", loom::def::identity(0), "");
}
