// Registers add_kernel (const float32[:], const float32[:], float32[:]) for the host, which
// libloom_kernels.so already gives: refused (E-PLUGIN-KERNEL-DUPLICATE).
#include "loom/def/kernel.hpp"
#include "loom/plugin.hpp"

namespace {
struct Sub {
  void operator()(const loom::ThreadCtx& t, loom::View<const float> x, loom::View<const float> y,
                  loom::View<float> out) const {
    const std::int64_t i = t.grid();
    if (i < out.size()) out(i) = x(i) - y(i);
  }
};
void register_all(loom::Registrar& reg) {
  loom::def::kernel<Sub>(reg, "add_kernel", "collides with libloom_kernels.so");
}
}  // namespace

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "cat_kernel_duplicate", loom::Family::host,
                              &register_all, nullptr}))
