// The random plugin's host half (libloom_random.so, targets cpu and parallel).
#include "loom/def/kernel.hpp"
#include "loom/plugin.hpp"
#include "table.hpp"

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "random", loom::Family::host,
                              &loom::random_plugin::register_kernels, nullptr}))
