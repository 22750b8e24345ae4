// One op, rt_fam (x + 1), in a host build and in CUDA-family stand-ins built by the host compiler
// (no GPU needed; their device loop never runs): RT_FAMILY_NAME is "rt_family" for the plugin's
// own CUDA half, which may add its loops, and another name for an unrelated library, which may
// not.
#include <stdexcept>

#include "loom/def/ufunc.hpp"
#include "loom/plugin.hpp"

namespace {
struct PlusOne {
  double operator()(double x) const { return x + 1; }
};
#ifdef RT_FAMILY_CUDA
void never_called(const loom::ElementwiseCall&, const void*) {
  throw std::logic_error("rt_fam's stand-in device loop was called");
}
void register_ops(loom::Registrar& reg) {
  loom::OpDesc d;
  d.name = "rt_fam";
  d.doc = "x + 1";
  d.nin = d.nout = 1;
  loom::Loop l;
  l.sig = loom::Signature::parse("float64(float64)");
  l.impl[static_cast<int>(loom::Family::cuda)].device_elementwise = &never_called;
  d.loops.push_back(l);
  reg.add(d);
}
constexpr loom::Family kFamily = loom::Family::cuda;
#else
void register_ops(loom::Registrar& reg) {
  loom::def::ufunc<PlusOne, double(double)>(reg, "rt_fam", "x + 1");
}
constexpr loom::Family kFamily = loom::Family::host;
#endif
}  // namespace

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, RT_FAMILY_NAME, kFamily, &register_ops, nullptr}))
