// The random plugin's kernels: element i of an array from Philox(seed, stream, call)'s element
// functions (loom/random.hpp), grid-stride over Philox blocks so that one block's words are
// computed once and any grid, chunking or device split writes the same bits.
#pragma once
#include <cstdint>

#include "loom/random.hpp"
#include "loom/thread_ctx.hpp"

namespace loom::random_plugin {

using loom::random::Philox;

// Elements [b * per, b * per + per) of out, the ones that exist.
template <class T, int per, class F>
LOOM_HD void write_block(loom::View<T> out, std::int64_t b, F&& value) {
  const std::int64_t first = b * per, n = out.size();
  for (int k = 0; k < per && first + k < n; ++k) out(first + k) = value(k);
}

template <class T>
struct Uniform {
  LOOM_HD void operator()(const loom::ThreadCtx& t, loom::View<T> out, std::uint64_t seed,
                          std::uint32_t stream, std::uint32_t call) const {
    const Philox p(seed, stream, call);
    constexpr int per = sizeof(T) == 4 ? 4 : 2;  // elements of a 128-bit block
    for (std::int64_t b : t.grid_stride((out.size() + per - 1) / per)) {
      const loom::random::Words4 w = p.block(static_cast<std::uint64_t>(b));
      write_block<T, per>(out, b, [&](int k) -> T {
        if constexpr (per == 4) {
          return loom::random::to_float32(w.v[k]);
        } else {
          return loom::random::to_float64(w.v[2 * k], w.v[2 * k + 1]);
        }
      });
    }
  }
};

template <class T>
struct Normal {
  LOOM_HD void operator()(const loom::ThreadCtx& t, loom::View<T> out, std::uint64_t seed,
                          std::uint32_t stream, std::uint32_t call) const {
    const Philox p(seed, stream, call);
    constexpr int per = sizeof(T) == 4 ? 4 : 2;
    for (std::int64_t b : t.grid_stride((out.size() + per - 1) / per)) {
      double z[4];
      if constexpr (per == 4) {
        p.normal_pairs32(static_cast<std::uint64_t>(b), z);
      } else {
        p.normal_pair64(static_cast<std::uint64_t>(b), z);
      }
      write_block<T, per>(out, b, [&](int k) { return static_cast<T>(z[k]); });
    }
  }
};

template <class T>
struct Integers {
  LOOM_HD void operator()(const loom::ThreadCtx& t, loom::View<T> out, std::int64_t low,
                          std::uint64_t span, std::uint64_t seed, std::uint32_t stream,
                          std::uint32_t call) const {
    const Philox p(seed, stream, call);
    for (std::int64_t i : t.grid_stride(out.size())) {
      // In uint64 arithmetic (wraps as two's complement), then to T: low + offset fits T.
      out(i) = static_cast<T>(static_cast<std::uint64_t>(low) + p.integer_offset(i, span));
    }
  }
};

// The seeds' Monte Carlo estimate of pi (Numba's compute_pi, numba.cuda.random's example), the
// functor of examples/random/monte_carlo.hpp: each thread draws `iterations` points of the unit
// square from its own xoroshiro128p state and writes 4 * (the fraction inside the quarter
// circle). In the plugin so that loom-bench and loom-demo, which define no kernels of their own,
// can run it on every target.
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

}  // namespace loom::random_plugin
