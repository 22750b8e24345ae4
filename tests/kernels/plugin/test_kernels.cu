// The test kernels' CUDA half (libloom_test_kernels_cuda.so): the common table through the CUDA
// def header. The host-only kernels of test_kernels.cpp are not here on purpose.
#include "loom/def/gufunc.cuh"
#include "loom/def/kernel.cuh"
#include "loom/plugin.hpp"
#include "table.hpp"

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "test_kernels", loom::Family::cuda,
                              &loom::test_kernels::register_common, nullptr}))
