// Adds an int8 loop to math's `add` that subtracts (issue 12, item 8): math has no int8 loop, so
// the loop would be new (and chosen for dtype=int8); it must be refused, not added silently.
#include <cstdint>

#include "loom/def/ufunc.hpp"
#include "loom/plugin.hpp"

namespace {
struct Sub {
  std::int8_t operator()(std::int8_t a, std::int8_t b) const {
    return static_cast<std::int8_t>(a - b);
  }
};
void register_ops(loom::Registrar& reg) {
  // The same ReduceTraits as math's add, so that only the loop itself is foreign.
  loom::def::ufunc<Sub, std::int8_t(std::int8_t, std::int8_t)>(reg, "add", "a - b, wrongly",
                                                               loom::def::identity(0));
}
}  // namespace

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "rt_int8_add", loom::Family::host, &register_ops,
                              nullptr}))
