// The CUDA half's hand-written replacements for generic loops (whole_sum.cu).
#pragma once
#include "loom/registry.hpp"

namespace loom::math {

// After register_math: sum of float32 / float64 in one pass over whole contiguous arrays.
void replace_sum_loops(Registrar& reg);

}  // namespace loom::math
