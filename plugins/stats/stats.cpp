// The stats plugin's host half (libloom_stats.so, targets cpu and parallel).
#include "loom/plugin.hpp"
#include "register.hpp"

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "stats", loom::Family::host,
                              &loom::stats_plugin::register_kernels, nullptr}))
