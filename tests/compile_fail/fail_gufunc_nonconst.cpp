// expect: loom::def::gufunc: the functor's operator() is not const
#include "loom/def/gufunc.hpp"

struct Dot {
  void operator()(loom::View<const double, 1> a, loom::View<const double, 1> b, double& out) {
    out = a(0) * b(0);
  }
};

void register_ops(loom::Registrar& reg) {
  loom::def::gufunc<Dot, double(double, double)>(reg, "dot1", "(n),(n)->()", "");
}
