// The math plugin's host library (libloom_math.so, used by targets cpu and parallel): its entry
// point. The loops are instantiated group by group in math_<group>.cpp (table.hpp).
#include "loom/plugin.hpp"
#include "table.hpp"

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "math", loom::Family::host,
                              &loom::math::register_math, nullptr}))
