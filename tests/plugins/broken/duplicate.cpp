// Registers a new op and then t_add float64, which libloom_testops already provides for the host
// family: the whole plugin is refused, the new op included.
#include "loom/def/ufunc.hpp"
#include "loom/plugin.hpp"

namespace {
struct Sub {
  template <class T>
  T operator()(T a, T b) const {
    return a - b;
  }
};
void register_ops(loom::Registrar& r) {
  loom::def::ufunc<Sub, double(double, double)>(r, "t_dup_only", "must never be registered");
  loom::def::ufunc<Sub, double(double, double)>(r, "t_add", "collides with libloom_testops");
}
}  // namespace

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "duplicate", loom::Family::host, &register_ops,
                              nullptr}))
