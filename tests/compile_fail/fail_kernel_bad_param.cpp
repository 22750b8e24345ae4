// clang-format off
// expect: loom::def::kernel: the functor's parameter 2 is neither a loom::View<T, D> with D from 1 to 3 nor an arithmetic scalar
// clang-format on
// A 4-d view: kernel arrays have 1 to 3 dimensions.
#include "loom/def/kernel.hpp"

struct Fill {
  void operator()(const loom::ThreadCtx&, loom::View<float, 4> out) const {
    out(0, 0, 0, 0) = 1.0f;
  }
};

void register_ops(loom::Registrar& reg) { loom::def::kernel<Fill>(reg, "fill4"); }
