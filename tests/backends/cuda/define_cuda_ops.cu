// The CUDA half of the ops test_define_cuda.cpp defines in the program: the same table as the
// host half (tests/core/define_ops.hpp), instantiated with the CUDA def headers in a .cu file of
// the program and defined into its Runtime, as an application does without a plugin.
#include "loom/def/gufunc.cuh"
#include "loom/def/kernel.cuh"
#include "loom/def/reduce.cuh"
#include "loom/def/ufunc.cuh"
#include "loom/runtime.hpp"
// After the def headers: the table uses whichever loom::def functions are in scope.
#include "../../core/define_ops.hpp"

void define_cuda_ops(loom::Runtime& rt) {
  rt.define("test_define", loom::Family::cuda, define_test::define_ops);
}
