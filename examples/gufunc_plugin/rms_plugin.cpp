// A gufunc plugin (libloom_rms.so): rms(x) over the last axis, signature "(n)->()", NumPy's
// np.sqrt(np.mean(x**2, axis=-1)). The functor is called once per row with a View of the row
// (one View per input, with as many dims as its core dims) and a reference to the output scalar.
#include <cmath>

#include "loom/def/gufunc.hpp"
#include "loom/plugin.hpp"

namespace rms_example {

struct Rms {
  // A template: each signature's loop instantiates it with that signature's own type.
  template <class T>
  LOOM_HD void operator()(loom::View<const T, 1> x, T& out) const {
    const std::int64_t n = x.size(0);
    T s = 0;
    for (std::int64_t i = 0; i < n; ++i) s += x(i) * x(i);
    out = n > 0 ? std::sqrt(s / static_cast<T>(n)) : T(NAN);  // NumPy: mean of nothing is NaN
  }
};

inline void register_ops(loom::Registrar& reg) {
  loom::def::gufunc<Rms, float(float), double(double)>(reg, "rms", "(n)->()",
                                                       "root mean square over the last axis");
}

}  // namespace rms_example

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "rms_example", loom::Family::host,
                              &rms_example::register_ops, nullptr}))
