// Built for an ABI version this loom does not have: refused before register_ops runs.
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
  loom::def::ufunc<Neg, double(double)>(r, "t_bad_abi_op", "must never be registered");
}
}  // namespace

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion + 1, "bad_abi", loom::Family::host, &register_ops,
                              nullptr}))
