// The math plugin's CUDA loops (libloom_math_cuda.so, used by target cuda): the op table
// instantiated with the CUDA def headers, from the same functors as the host loops.
#include <type_traits>

#include "cub_sum.hpp"
#include "functors.hpp"
#include "loom/def/gufunc.cuh"
#include "loom/def/methods.cuh"
#include "loom/def/reduce.cuh"
#include "loom/def/ufunc.cuh"
#include "loom/plugin.hpp"

// Add is the type's own + (wrapping for integers): add.at may use the native atomicAdd. Declared
// before the table instantiates the loops.
template <>
struct loom::def::cu::device_add<loom::math::Add> : std::true_type {};

#include "table.hpp"

namespace {
void register_math_cuda(loom::Registrar& reg) {
  loom::math::register_math(reg);
  loom::math::replace_sum_loops(reg);
}
}  // namespace

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "math", loom::Family::cuda, &register_math_cuda,
                              nullptr}))
