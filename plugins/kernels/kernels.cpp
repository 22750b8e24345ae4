// The kernels plugin's host loops (libloom_kernels.so, targets cpu and parallel).
#include "loom/def/kernel.hpp"
#include "loom/plugin.hpp"
#include "table.hpp"

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "kernels", loom::Family::host,
                              &loom::kernels::register_kernels, nullptr}))
