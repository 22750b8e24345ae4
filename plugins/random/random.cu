// The random plugin's CUDA half (libloom_random_cuda.so, target cuda): the same table and
// functors as the host half, so both draw the same bits (loom/random.hpp's arithmetic is exact
// or explicit fma, and --fmad=false keeps nvcc from contracting the rest).
#include "loom/def/kernel.cuh"
#include "loom/plugin.hpp"
#include "table.hpp"

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "random", loom::Family::cuda,
                              &loom::random_plugin::register_kernels, nullptr}))
