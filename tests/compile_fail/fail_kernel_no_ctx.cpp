// expect: loom::def::kernel: the functor's first parameter must be `const loom::ThreadCtx&`
#include "loom/def/kernel.hpp"

struct Fill {
  void operator()(loom::View<float> out) const { out(0) = 1.0f; }
};

void register_ops(loom::Registrar& reg) { loom::def::kernel<Fill>(reg, "fill1"); }
