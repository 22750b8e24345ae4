// A valid plugin that sits in the folder of broken ones: it must load in spite of them.
#include "loom/def/ufunc.hpp"
#include "loom/plugin.hpp"

namespace {
struct Neg {
  template <class T>
  T operator()(T a) const {
    return -a;
  }
};
void register_ops(loom::Registrar& r) {
  loom::def::ufunc<Neg, float(float), double(double)>(r, "t_neg", "-a");
}
}  // namespace

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "extra", loom::Family::host, &register_ops,
                              nullptr}))
