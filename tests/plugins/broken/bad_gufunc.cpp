// A gufunc whose functor writes a (n) view where its layout "(n),(n)->()" has a scalar output:
// def::gufunc throws PluginError and the op staged before it is dropped with the plugin.
#include "loom/def/gufunc.hpp"
#include "loom/def/ufunc.hpp"
#include "loom/plugin.hpp"

namespace {
struct Neg {
  template <class T>
  T operator()(T a) const {
    return -a;
  }
};
struct NotADot {
  template <class T>
  void operator()(loom::View<const T, 1> a, loom::View<const T, 1>, loom::View<T, 1> out) const {
    out(0) = a(0);
  }
};
void register_ops(loom::Registrar& r) {
  loom::def::ufunc<Neg, double(double)>(r, "t_gu_before", "must never be registered");
  loom::def::gufunc<NotADot, double(double, double)>(r, "t_bad_dot", "(n),(n)->()", "");
}
}  // namespace

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "bad_gufunc", loom::Family::host, &register_ops,
                              nullptr}))
