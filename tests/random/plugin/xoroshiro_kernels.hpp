// The random tests' kernel: Numba's xoroshiro128p functions called in a kernel, thread i drawing
// out(i, 0..) from state i, so that the stored Numba draws check them on every target.
#pragma once
#include <cstdint>

#include "loom/random.hpp"
#include "loom/registry.hpp"
#include "loom/thread_ctx.hpp"

namespace loom_random_test {

// which: 0 uniform_float32, 1 uniform_float64, 2 normal_float32, 3 normal_float64 (float32
// results are stored exactly in the float64 out).
struct XoroshiroDraws {
  LOOM_HD void operator()(const loom::ThreadCtx& t, loom::View<std::uint64_t, 2> states,
                          std::int32_t which, loom::View<double, 2> out) const {
    namespace r = loom::random;
    const std::int64_t i = t.grid();
    if (i >= states.size(0)) return;
    for (std::int64_t j = 0; j < out.size(1); ++j) {
      out(i, j) = which == 0   ? r::xoroshiro128p_uniform_float32(states, i)
                  : which == 1 ? r::xoroshiro128p_uniform_float64(states, i)
                  : which == 2 ? r::xoroshiro128p_normal_float32(states, i)
                               : r::xoroshiro128p_normal_float64(states, i);
    }
  }
};

inline void register_kernels(loom::Registrar& reg) {
  loom::def::kernel<XoroshiroDraws>(reg, "test_xoroshiro_draws",
                                    "out[i, j] = j-th xoroshiro128p draw of state i");
}

}  // namespace loom_random_test
