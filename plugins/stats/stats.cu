// The stats plugin's CUDA half (libloom_stats_cuda.so, target cuda): the same table and functors
// as the host half.
#include "loom/plugin.hpp"
#include "register.hpp"

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "stats", loom::Family::cuda,
                              &loom::stats_plugin::register_kernels, nullptr}))
