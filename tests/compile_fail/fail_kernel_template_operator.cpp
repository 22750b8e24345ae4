// expect: loom::def::kernel: the functor's operator() is a template or overloaded
#include "loom/def/kernel.hpp"

struct Fill {
  template <class T>
  void operator()(const loom::ThreadCtx& t, loom::View<T> out) const {
    out(t.threadIdx.x) = T(1);
  }
};

void register_ops(loom::Registrar& reg) { loom::def::kernel<Fill>(reg, "fill1"); }
