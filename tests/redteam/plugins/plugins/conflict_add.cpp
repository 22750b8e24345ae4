// Registers `add` as a unary ufunc (math's is binary) and an op of its own: loaded from
// LOOM_PLUGIN_PATH beside the math plugin, it must be the one refused, and a lookup of its own
// op must say why it is missing (issue 12, item 8).
#include "loom/def/ufunc.hpp"
#include "loom/plugin.hpp"

namespace {
struct Neg {
  double operator()(double x) const { return -x; }
};
void register_ops(loom::Registrar& reg) {
  loom::def::ufunc<Neg, double(double)>(reg, "rt_conflict_only", "-x; never registered");
  loom::def::ufunc<Neg, double(double)>(reg, "add", "a unary add, unlike math's");
}
}  // namespace

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "rt_conflict", loom::Family::host, &register_ops,
                              nullptr}))
