// expect: loom::def::kernel: the functor's parameter 3 is taken by non-const or rvalue reference
#include "loom/def/kernel.hpp"

struct Count {
  void operator()(const loom::ThreadCtx&, loom::View<const float> x, float& total) const {
    total += x(0);
  }
};

void register_ops(loom::Registrar& reg) { loom::def::kernel<Count>(reg, "count1"); }
