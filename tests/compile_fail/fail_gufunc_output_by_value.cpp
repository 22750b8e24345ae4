// clang-format off
// expect: loom::def::gufunc: the functor's parameter 3 is a scalar output not taken as a non-const reference
// clang-format on
#include "loom/def/gufunc.hpp"

struct Dot {
  template <class T>
  void operator()(loom::View<const T, 1> a, loom::View<const T, 1> b, T out) const {
    out = a(0) * b(0);
  }
};

void register_ops(loom::Registrar& reg) {
  loom::def::gufunc<Dot, double(double, double)>(reg, "dot1", "(n),(n)->()", "");
}
