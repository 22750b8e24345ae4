// The example plugin's host build (libloom_example.so): the def headers turn the table's lines
// into loops, LOOM_PLUGIN exports them. Loaded from <dir of libloom>/loom/ or LOOM_PLUGIN_PATH;
// then rt.ufunc("lerp")(a, b, t, {.target = "parallel"}) works like any built-in op.
#include "loom/def/ufunc.hpp"  // add reduce.hpp / gufunc.hpp for reductions and gufuncs
#include "loom/plugin.hpp"
#include "table.hpp"

// abi version (checked first), plugin name, loop family (host: used by targets cpu and parallel),
// the function that registers the ops, no backend.
LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "example", loom::Family::host,
                              &loom_example::register_example, nullptr}))
