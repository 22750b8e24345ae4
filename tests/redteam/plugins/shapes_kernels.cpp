// A kernel for the red-team shape cases (test_shapes.cpp): shared_array<float>(n) with n from the
// launch, then every thread writes its slot, as a kernel sized by its caller would.
#include "loom/def/kernel.hpp"
#include "loom/plugin.hpp"

namespace {

struct SharedN {
  void operator()(const loom::ThreadCtx& t, std::int64_t n, loom::View<float> out) const {
    loom::View<float> s = t.shared_array<float>(n);
    const std::int64_t i = t.thread_rank();
    s(i) = 1.0f;
    if (t.grid() < out.size()) out(t.grid()) = s(i);
  }
};

void register_all(loom::Registrar& reg) {
  loom::def::kernel<SharedN>(reg, "rt_shared_n", "shared_array<float>(n), n from the launch");
}

}  // namespace

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "redteam_shapes", loom::Family::host,
                              &register_all, nullptr}))
