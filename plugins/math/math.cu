// The math plugin's CUDA library (libloom_math_cuda.so, used by target cuda): its entry point.
// The loops are instantiated group by group in math_<group>.cu from the same functors and
// tables as the host loops (table.hpp); cub_sum.cu replaces the large float sums.
#include "whole_sum.hpp"
#include "loom/plugin.hpp"
#include "table.hpp"

namespace {
void register_math_cuda(loom::Registrar& reg) {
  loom::math::register_math(reg);
  loom::math::replace_sum_loops(reg);
}
}  // namespace

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "math", loom::Family::cuda, &register_math_cuda,
                              nullptr}))
