// The kernel of the Monte Carlo estimate of pi (Numba's compute_pi, numba.cuda.random's
// example): each thread draws points in the unit square from its own xoroshiro128p state and
// writes 4 * (the fraction inside the quarter circle).
#pragma once
#include <cstdint>

#include "loom/random.hpp"
#include "loom/registry.hpp"
#include "loom/thread_ctx.hpp"

struct ComputePi {
  LOOM_HD void operator()(const loom::ThreadCtx& t, loom::View<std::uint64_t, 2> rng_states,
                          std::int64_t iterations, loom::View<float> out) const {
    const std::int64_t thread_id = t.grid();
    if (thread_id >= out.size()) return;
    std::int64_t inside = 0;
    for (std::int64_t i = 0; i < iterations; ++i) {
      const float x = loom::random::xoroshiro128p_uniform_float32(rng_states, thread_id);
      const float y = loom::random::xoroshiro128p_uniform_float32(rng_states, thread_id);
      if (x * x + y * y <= 1.0f) ++inside;
    }
    out(thread_id) = 4.0f * static_cast<float>(inside) / static_cast<float>(iterations);
  }
};

// Included after a def header (kernel.hpp in monte_carlo.cpp, kernel.cuh in the .cu file). In an
// unnamed namespace: the two files' definitions differ (host loops, CUDA loops), so one shared
// inline function would let the linker keep the host one for both and the cuda define would fail.
namespace {
void define_compute_pi(loom::Registrar& reg) {
  loom::def::kernel<ComputePi>(reg, "compute_pi", "Monte Carlo estimate of pi, per thread");
}
}  // namespace
