// expect: loom::def::gufunc: the functor's parameter 1 takes a View by reference
#include "loom/def/gufunc.hpp"

struct First {
  template <class T>
  void operator()(const loom::View<const T, 1>& a, T& out) const {
    out = a(0);
  }
};

void register_ops(loom::Registrar& reg) {
  loom::def::gufunc<First, double(double)>(reg, "first1", "(n)->()", "");
}
