// The linalg plugin's host library (libloom_linalg.so, for targets cpu and parallel): its entry
// point. The Eigen loops are instantiated group by group in linalg_<group>.cpp (table.hpp).
#include "loom/plugin.hpp"
#include "table.hpp"

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "linalg", loom::Family::host,
                              &loom::linalg::register_linalg, nullptr}))
