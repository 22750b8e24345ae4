// clang-format off
// expect: loom::def::ufunc: a T(T,T) signature also gets the CUDA loops of reduce, accumulate and at
// clang-format on
// A CUDA half that includes only ufunc_elementwise.cuh (the lighter header for ops with no T(T,T)
// signature) but registers an add: without methods.cuh its reduce, accumulate and at loops would
// be missing (a link error at best), so the build stops and says which header to include.
#include "loom/def/ufunc_elementwise.cuh"

struct Add {
  template <class T>
  LOOM_HD T operator()(T a, T b) const {
    return a + b;
  }
};

void register_ops(loom::Registrar& reg) {
  loom::def::ufunc<Add, float(float, float)>(reg, "my_add", "");
}
