// The math plugin's host loops (libloom_math.so, used by targets cpu and parallel): the op table
// instantiated with the host def headers.
#include "loom/def/gufunc.hpp"
#include "loom/def/reduce.hpp"
#include "loom/def/ufunc.hpp"
#include "loom/plugin.hpp"
#include "table.hpp"

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "math", loom::Family::host,
                              &loom::math::register_math, nullptr}))
