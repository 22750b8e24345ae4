// A host backend (target "nokernels") that does not override Backend::run_kernel: launching a
// kernel on it is E-LAUNCH-BACKEND. Its other calls are never made by the catalogue.
#include <stdexcept>

#include "loom/plugin.hpp"

namespace {
class NoKernels final : public loom::Backend {
 public:
  std::string name() const override { return "nokernels"; }
  std::string target() const override { return "nokernels"; }
  loom::Family family() const override { return loom::Family::host; }
  loom::Availability availability() const override { return {}; }
  void run_elementwise(const loom::ElementwiseCall&, int) override { fail(); }
  void run_gufunc(const loom::GufuncCall&, int) override { fail(); }
  void run_reduce(const loom::ReduceCall&, int) override { fail(); }

 private:
  [[noreturn]] static void fail() { throw std::logic_error("nokernels runs nothing"); }
};
loom::Backend* make_backend() { return new NoKernels(); }
}  // namespace

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "backend_no_kernels", loom::Family::host, nullptr,
                              &make_backend}))
