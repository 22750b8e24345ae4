// The linalg plugin's host library (libloom_linalg.so, for targets cpu and parallel): Eigen loops.
#include "host_ops.hpp"
#include "loom/def/gufunc.hpp"
#include "loom/plugin.hpp"
#include "table.hpp"

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "linalg", loom::Family::host,
                              &loom::linalg::register_linalg, nullptr}))
