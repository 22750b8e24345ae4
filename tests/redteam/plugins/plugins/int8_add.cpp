// Adds a loop with an int8 operand to math's `add` that subtracts (issue 12, item 8): math has no
// float64(int8, float64) loop (NumPy's catalogue casts int8 to float64 instead), so the loop would
// be new; it must be refused, not added silently.
#include <cstdint>

#include "loom/def/ufunc.hpp"
#include "loom/plugin.hpp"

namespace {
struct Sub {
  double operator()(std::int8_t a, double b) const { return a - b; }
};
void register_ops(loom::Registrar& reg) {
  // The same ReduceTraits as math's add, so that only the loop itself is foreign.
  loom::def::ufunc<Sub, double(std::int8_t, double)>(reg, "add", "a - b, wrongly",
                                                     loom::def::identity(0));
}
}  // namespace

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "rt_int8_add", loom::Family::host, &register_ops,
                              nullptr}))
