// A plugin loaded by the concurrency tests while other threads run calls: one new ufunc
// (c_triple) and one that adds no loops to existing ops, so nothing in flight is disturbed.
#include "loom/def/ufunc.hpp"
#include "loom/plugin.hpp"

namespace {
struct Triple {
  template <class T>
  T operator()(T a) const {
    return a * T(3);
  }
};
void register_ops(loom::Registrar& r) {
  loom::def::ufunc<Triple, float(float), double(double)>(r, "c_triple", "3*a");
}
}  // namespace

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "late", loom::Family::host, &register_ops,
                              nullptr}))
