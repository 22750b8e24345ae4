// expect: loom::def::kernel: the functor's operator() is not const
// Was "invalid use of incomplete type 'kernel_member<...>'".
#include "loom/def/kernel.hpp"

struct Fill {
  void operator()(const loom::ThreadCtx& t, loom::View<float> out) { out(t.threadIdx.x) = 1.0f; }
};

void register_ops(loom::Registrar& reg) { loom::def::kernel<Fill>(reg, "fill1"); }
