// expect: loom::def::gufunc: the functor's parameter 1 is an input View of non-const elements
#include "loom/def/gufunc.hpp"

struct Copy {
  template <class T>
  void operator()(loom::View<T, 1> a, loom::View<T, 1> out) const {
    out(0) = a(0);
  }
};

void register_ops(loom::Registrar& reg) {
  loom::def::gufunc<Copy, double(double)>(reg, "copy1", "(n)->(n)", "");
}
