// A CUDA-family plugin built by the host compiler, so that tests without a GPU can load a kernel
// that has no host half: t_cuda_only, whose device loop is never called (launching it on a host
// target must be a LookupError before any loop runs).
#include <stdexcept>

#include "loom/def/kernel_desc.hpp"
#include "loom/plugin.hpp"

namespace {
struct Ones {
  void operator()(const loom::ThreadCtx&, loom::View<std::int32_t>) const {}
};
void never_called(loom::KernelCall&, const void*) {
  throw std::logic_error("t_cuda_only's fake device loop was called");
}
const Ones kOnes{};
void register_all(loom::Registrar& reg) {
  reg.add_kernel(
      loom::def::kernel_desc<Ones>("t_cuda_only", "no host half", [](loom::KernelImpl* impl, auto) {
        auto& s = impl[static_cast<int>(loom::Family::cuda)];
        s.device = &never_called;
        s.data = &kOnes;
      }));
}
}  // namespace

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "fake_cuda_only", loom::Family::cuda,
                              &register_all, nullptr}))
