// Host half of the random tests' kernel plugin.

#include "loom/def/kernel.hpp"
#include "loom/plugin.hpp"
// After the def header: the table calls whichever loom::def::kernel is in scope.
#include "xoroshiro_kernels.hpp"

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "test_random", loom::Family::host,
                              &loom_random_test::register_kernels, nullptr}))
