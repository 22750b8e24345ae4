// A CUDA-family plugin built by the host compiler that registers block_sum_sync's float32 overload
// without uses_syncthreads, unlike the kernels plugin's host half: refused when merged
// (E-PLUGIN-KERNEL-SYNC-MISMATCH). Its stand-in device loop never runs.
#include <stdexcept>

#include "loom/def/kernel_desc.hpp"
#include "loom/plugin.hpp"

namespace {
struct NoBarrierSum {
  void operator()(const loom::ThreadCtx&, loom::View<const float>, loom::View<float>) const {}
};
const NoBarrierSum kSum{};
void never_called(loom::KernelCall&, const void*) {
  throw std::logic_error("the stand-in device loop was called");
}
void register_all(loom::Registrar& reg) {
  reg.add_kernel(loom::def::kernel_desc<NoBarrierSum>(
      "block_sum_sync", "no uses_syncthreads", [](loom::KernelImpl* impl, auto) {
        auto& s = impl[static_cast<int>(loom::Family::cuda)];
        s.device = &never_called;
        s.data = &kSum;
      }));
}
}  // namespace

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "cat_kernel_sync_mismatch", loom::Family::cuda,
                              &register_all, nullptr}))
