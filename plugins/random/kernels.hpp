// The random plugin's kernels: element i of an array from Philox(seed, stream, call)'s element
// functions (loom/random.hpp), grid-stride over Philox blocks so that one block's words are
// computed once and any grid, chunking or device split writes the same bits.
#pragma once
#include <cstdint>

#include "host_simd.hpp"
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
    const auto element = [](const loom::random::Words4& w, int k) -> T {
      if constexpr (per == 4) {
        return loom::random::to_float32(w.v[k]);
      } else {
        return loom::random::to_float64(w.v[2 * k], w.v[2 * k + 1]);
      }
    };
    [[maybe_unused]] std::int64_t first = 0;
#if !defined(__CUDA_ARCH__)
    [[maybe_unused]] const bool dense = out.strides[0] == static_cast<std::int64_t>(sizeof(T));
    // Arrays past the last-level cache are written with streaming stores (no read for
    // ownership: half the memory traffic of a store-only kernel).
    [[maybe_unused]] const bool nt =
        dense && out.size() * static_cast<std::int64_t>(sizeof(T)) >= kStreamBytes;
    first = host_groups<per>(t, out, [&](std::int64_t b0, Lanes& lanes) {
      philox_lanes(static_cast<std::uint64_t>(b0), seed, stream, call, lanes);
#if defined(__AVX2__)
      if constexpr (per == 4) {
        if (dense) {
          store_uniform32(lanes, out.data + b0 * 4, nt);
          return;
        }
      }
#endif
      for (int l = 0; l < kLanes; ++l) {
        const loom::random::Words4 w{{lanes.w[0][l], lanes.w[1][l], lanes.w[2][l], lanes.w[3][l]}};
        for (int k = 0; k < per; ++k) out((b0 + l) * per + k) = element(w, k);
      }
    });
#if defined(__AVX2__)
    if (nt) _mm_sfence();  // the streaming stores visible before the launch returns
#endif
#endif
    // The rest a block at a time: the whole grid-stride loop on the device; on the host, the
    // thread's contiguous run from the first block its groups left.
    loom::GridStride rest = t.grid_stride((out.size() + per - 1) / per);
#if !defined(__CUDA_ARCH__)
    rest.start = first;
#endif
#if defined(__CUDA_ARCH__)
    // A whole block of a contiguous, 16-byte-aligned out is one 128-bit store (float4, double2):
    // a warp's stores then cover 512 contiguous bytes in one instruction, not four.
    const bool wide = out.strides[0] == static_cast<std::int64_t>(sizeof(T)) &&
                      reinterpret_cast<std::uintptr_t>(out.data) % 16 == 0;
    const std::int64_t full = out.size() / per;
#endif
    for (std::int64_t b : rest) {
      const loom::random::Words4 w = p.block(static_cast<std::uint64_t>(b));
#if defined(__CUDA_ARCH__)
      if (wide && b < full) {
        if constexpr (per == 4) {
          reinterpret_cast<float4*>(out.data)[b] =
              make_float4(element(w, 0), element(w, 1), element(w, 2), element(w, 3));
        } else {
          reinterpret_cast<double2*>(out.data)[b] = make_double2(element(w, 0), element(w, 1));
        }
        continue;
      }
#endif
      write_block<T, per>(out, b, [&](int k) { return element(w, k); });
    }
  }
};

template <class T>
struct Normal {
  LOOM_HD void operator()(const loom::ThreadCtx& t, loom::View<T> out, std::uint64_t seed,
                          std::uint32_t stream, std::uint32_t call) const {
    const Philox p(seed, stream, call);
    constexpr int per = sizeof(T) == 4 ? 4 : 2;
    // Block b's normals from its words (Philox::normal_pairs32 / normal_pair64's arithmetic).
    const auto normals = [](const loom::random::Words4& w, T z[per]) {
      if constexpr (per == 4) {
        for (int q = 0; q < 2; ++q) {
          loom::random::box_muller_f(loom::random::normal_u1_f(w.v[2 * q]),
                                     loom::random::to_float32(w.v[2 * q + 1]), z[2 * q],
                                     z[2 * q + 1]);
        }
      } else {
        const double u1 = 1.0 - loom::random::to_float64(w.v[0], w.v[1]);  // (0, 1]
        loom::random::box_muller(u1, loom::random::to_float64(w.v[2], w.v[3]), z[0], z[1]);
      }
    };
    [[maybe_unused]] std::int64_t first = 0;
#if !defined(__CUDA_ARCH__)
    first = host_groups<per>(t, out, [&](std::int64_t b0, Lanes& lanes) {
      philox_lanes(static_cast<std::uint64_t>(b0), seed, stream, call, lanes);
      // Pair j of the group: (words 2j', 2j' + 1) of block j / 2 for float32 (j' = j % 2), the
      // block's 53-bit halves for float64, as `normals` takes them.
      constexpr int pairs = per == 4 ? 2 * kLanes : kLanes;
      T u1[pairs], u2[pairs], z0[pairs], z1[pairs];
      for (int l = 0; l < kLanes; ++l) {
        if constexpr (per == 4) {
          for (int q = 0; q < 2; ++q) {
            u1[2 * l + q] = loom::random::normal_u1_f(lanes.w[2 * q][l]);
            u2[2 * l + q] = loom::random::to_float32(lanes.w[2 * q + 1][l]);
          }
        } else {
          u1[l] = 1.0 - loom::random::to_float64(lanes.w[0][l], lanes.w[1][l]);
          u2[l] = loom::random::to_float64(lanes.w[2][l], lanes.w[3][l]);
        }
      }
      if constexpr (per == 4) {
        box_muller_nf<pairs>(u1, u2, z0, z1);
      } else {
        box_muller_n<pairs>(u1, u2, z0, z1);
      }
      for (int j = 0; j < pairs; ++j) {
        out((b0 * per) + 2 * j) = static_cast<T>(z0[j]);
        out((b0 * per) + 2 * j + 1) = static_cast<T>(z1[j]);
      }
    });
#endif
    loom::GridStride rest = t.grid_stride((out.size() + per - 1) / per);  // as Uniform's
#if !defined(__CUDA_ARCH__)
    rest.start = first;
#endif
#if defined(__CUDA_ARCH__)
    // One 128-bit store per block where out allows it (Uniform's reason).
    const bool wide = out.strides[0] == static_cast<std::int64_t>(sizeof(T)) &&
                      reinterpret_cast<std::uintptr_t>(out.data) % 16 == 0;
    const std::int64_t full = out.size() / per;
#endif
    for (std::int64_t b : rest) {
      T z[per];
      normals(p.block(static_cast<std::uint64_t>(b)), z);
#if defined(__CUDA_ARCH__)
      if (wide && b < full) {
        if constexpr (per == 4) {
          reinterpret_cast<float4*>(out.data)[b] = make_float4(z[0], z[1], z[2], z[3]);
        } else {
          reinterpret_cast<double2*>(out.data)[b] = make_double2(z[0], z[1]);
        }
        continue;
      }
#endif
      write_block<T, per>(out, b, [&](int k) { return z[k]; });
    }
  }
};

template <class T>
struct Integers {
  LOOM_HD void operator()(const loom::ThreadCtx& t, loom::View<T> out, std::int64_t low,
                          std::uint64_t span, std::uint64_t seed, std::uint32_t stream,
                          std::uint32_t call) const {
    const Philox p(seed, stream, call);
    // In uint64 arithmetic (wraps as two's complement), then to T: low + offset fits T.
    const auto put = [&](std::int64_t i, std::uint64_t offset) {
      out(i) = static_cast<T>(static_cast<std::uint64_t>(low) + offset);
    };
    [[maybe_unused]] std::int64_t first = 0;
#if !defined(__CUDA_ARCH__)
    // Element i's first attempt is block i (attempt 0): kLanes elements' first blocks at once,
    // and Lemire's first step on them (Philox::integer_offset's); the rare element whose first
    // draw is rejected, and the spans that need no draw, go through integer_offset itself.
    if (span != 0 && out.size() < (std::int64_t{1} << 56)) {
      const bool wide = span > 0xFFFFFFFFull;
      first = host_groups<1>(t, out, [&](std::int64_t i0, Lanes& lanes) {
        philox_lanes(static_cast<std::uint64_t>(i0), seed, stream, call, lanes);
        for (int l = 0; l < kLanes; ++l) {
          const std::int64_t i = i0 + l;
          std::uint64_t offset;
          if (!wide) {
            const std::uint32_t w = lanes.w[0][l];
            const std::uint64_t m = std::uint64_t{w} * (span + 1);
            offset = span == 0xFFFFFFFFull                      ? w
                     : static_cast<std::uint32_t>(m) < span + 1 ? p.integer_offset(i, span)
                                                                : m >> 32;
          } else {
            const std::uint64_t x = (std::uint64_t{lanes.w[0][l]} << 32) | lanes.w[1][l];
            offset = span == ~std::uint64_t{0}   ? x
                     : x * (span + 1) < span + 1 ? p.integer_offset(i, span)
                                                 : loom::random::detail::mulhi64(x, span + 1);
          }
          put(i, offset);
        }
      });
    }
#endif
    loom::GridStride rest = t.grid_stride(out.size());  // as Normal's
#if !defined(__CUDA_ARCH__)
    rest.start = first;
#endif
    for (std::int64_t i : rest) {
      put(i, p.integer_offset(i, span));
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
