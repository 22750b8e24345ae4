// A CUDA-family plugin built by the host compiler: kernel cat_cuda_only has no host half, so
// launching it on cpu is E-LOOKUP-KERNEL-FAMILY. Its stand-in device loop never runs.
#include <stdexcept>

#include "loom/def/kernel_desc.hpp"
#include "loom/plugin.hpp"

namespace {
struct Nothing {
  void operator()(const loom::ThreadCtx&, loom::View<float>) const {}
};
const Nothing kNothing{};
void never_called(loom::KernelCall&, const void*) {
  throw std::logic_error("cat_cuda_only's stand-in device loop was called");
}
void register_all(loom::Registrar& reg) {
  reg.add_kernel(loom::def::kernel_desc<Nothing>(
      "cat_cuda_only", "no host half", [](loom::KernelImpl* impl, auto) {
        auto& s = impl[static_cast<int>(loom::Family::cuda)];
        s.device = &never_called;
        s.data = &kNothing;
      }));
}
}  // namespace

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "cat_kernel_cuda_only", loom::Family::cuda,
                              &register_all, nullptr}))
