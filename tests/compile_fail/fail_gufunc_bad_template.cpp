// expect: loom::def::gufunc: no operator() of the functor fits this signature
// Was "'decltype' cannot resolve address of overloaded function" from inside desc.hpp.
#include "loom/def/gufunc.hpp"

struct Sum {
  template <class T, class Acc, class Extra>
  void operator()(loom::View<const T, 1> x, Acc& out) const {
    out = Acc(x(0));
  }
};

void register_ops(loom::Registrar& reg) {
  loom::def::gufunc<Sum, float(float)>(reg, "sum1", "(n)->()", "");
}
