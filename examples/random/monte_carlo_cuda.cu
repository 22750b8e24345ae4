// The CUDA half of monte_carlo.cpp's kernel, defined into the program's Runtime.
#include "loom/def/kernel.cuh"
#include "loom/runtime.hpp"
// After the def header: define_compute_pi calls the CUDA loom::def::kernel.
#include "monte_carlo.hpp"

void define_compute_pi_cuda(loom::Runtime& rt) {
  rt.define("monte_carlo", loom::Family::cuda, define_compute_pi);
}
