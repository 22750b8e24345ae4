// Host half of the random tests' kernel plugin.

#include "loom/def/kernel.hpp"
#include "loom/def/ufunc.hpp"
#include "loom/plugin.hpp"
// After the def headers: the tables call whichever loom::def::kernel and ufunc are in scope.
#include "drawing_ufuncs.hpp"
#include "xoroshiro_kernels.hpp"

namespace {
void register_ops(loom::Registrar& reg) {
  loom_random_test::register_kernels(reg);
  loom_random_test::register_ufuncs(reg);
}
}  // namespace

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "test_random", loom::Family::host, &register_ops,
                              nullptr}))
