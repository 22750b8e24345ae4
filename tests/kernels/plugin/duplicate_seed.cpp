// A plugin that registers add_kernel (const int32[:], const int32[:], int32[:]) for the host,
// which libloom_kernels.so already gives: refused when merged (PluginError).
#include "loom/def/kernel.hpp"
#include "loom/plugin.hpp"

namespace {
struct Sub {
  void operator()(const loom::ThreadCtx& t, loom::View<const std::int32_t> x,
                  loom::View<const std::int32_t> y, loom::View<std::int32_t> out) const {
    if (t.grid() < out.size()) out(t.grid()) = x(t.grid()) - y(t.grid());
  }
};
void register_all(loom::Registrar& reg) {
  loom::def::kernel<Sub>(reg, "t_duplicate_new", "must never be registered");
  loom::def::kernel<Sub>(reg, "add_kernel", "collides with libloom_kernels.so");
}
}  // namespace

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "duplicate_seed", loom::Family::host,
                              &register_all, nullptr}))
