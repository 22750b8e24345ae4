// Built for the ABI before this one (a plugin built by an older loom; ABI 9 changed the loops'
// calling convention for ufuncs that draw): refused before register_ops runs, as any mismatch.
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
  loom::def::ufunc<Neg, double(double)>(r, "t_old_abi_op", "must never be registered");
}
}  // namespace

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion - 1, "old_abi", loom::Family::host, &register_ops,
                              nullptr}))
