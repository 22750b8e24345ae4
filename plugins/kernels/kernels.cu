// The kernels plugin's CUDA half (libloom_kernels_cuda.so, target cuda): the same table and seed
// functors as the host loops, instantiated with the CUDA def header.
#include "loom/def/kernel.cuh"
#include "loom/plugin.hpp"
#include "table.hpp"

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "kernels", loom::Family::cuda,
                              &loom::kernels::register_kernels, nullptr}))
