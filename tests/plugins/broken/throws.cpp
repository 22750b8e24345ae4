// Throws from its register function after staging one op.
#include <stdexcept>

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
  loom::def::ufunc<Neg, double(double)>(r, "t_throw_only", "must never be registered");
  throw std::runtime_error("deliberate failure in register_ops");
}
}  // namespace

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "throws", loom::Family::host, &register_ops,
                              nullptr}))
