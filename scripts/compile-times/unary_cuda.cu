// The CUDA half of a plugin whose op has no T(T,T) signature (cube, float(float) and
// double(double)); -DELEMENTWISE_ONLY includes loom/def/ufunc_elementwise.cuh instead of
// loom/def/ufunc.cuh (docs/plugins.md, "What a definition costs to compile").
#ifdef ELEMENTWISE_ONLY
#include "loom/def/ufunc_elementwise.cuh"
#else
#include "loom/def/ufunc.cuh"
#endif
#include "loom/plugin.hpp"

struct Cube {
  template <class T>
  LOOM_HD T operator()(T x) const {
    return x * x * x;
  }
};

namespace {
void register_ops(loom::Registrar& reg) {
  loom::def::ufunc<Cube, float(float), double(double)>(reg, "cube", "x**3");
}
}  // namespace

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "cube", loom::Family::cuda, &register_ops,
                              nullptr}))
