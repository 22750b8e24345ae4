// A plugin that registers a valid kernel and then one name twice: Registrar::add_kernel refuses
// it (PluginError) and the whole plugin is refused, the valid kernel included.
#include "loom/def/kernel.hpp"
#include "loom/plugin.hpp"

namespace {
struct Ones {
  void operator()(const loom::ThreadCtx& t, loom::View<std::int32_t> out) const {
    if (t.grid() < out.size()) out(t.grid()) = 1;
  }
};
void register_all(loom::Registrar& reg) {
  loom::def::kernel<Ones>(reg, "t_broken_first", "must never be registered");
  loom::def::kernel<Ones>(reg, "t_broken_twice", "");
  loom::def::kernel<Ones>(reg, "t_broken_twice", "the same name again");
}
}  // namespace

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "broken_twice", loom::Family::host, &register_all,
                              nullptr}))
