// The CUDA half's hand-written replacements for generic loops (cub_sum.cu).
#pragma once
#include "loom/registry.hpp"

namespace loom::math {

// After register_math: sum of float32 / float64 through cub::DeviceReduce on whole arrays.
void replace_sum_loops(Registrar& reg);

}  // namespace loom::math
