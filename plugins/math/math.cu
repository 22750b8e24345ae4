// The math plugin's CUDA loops (libloom_math_cuda.so, used by target cuda): the op table
// instantiated with the CUDA def headers, from the same functors as the host loops.
#include "loom/def/gufunc.cuh"
#include "loom/def/reduce.cuh"
#include "loom/def/ufunc.cuh"
#include "loom/plugin.hpp"
#include "table.hpp"

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "math", loom::Family::cuda,
                              &loom::math::register_math, nullptr}))
