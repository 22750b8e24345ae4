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

// The Philox blocks an out of n elements starting at global element `base` (RandomOptions::
// index_base) covers, `per` elements a block: out's block j is global block g0 + j and holds out's
// elements [first(j), first(j) + per), those in [0, n). With base = 0 block j is element j * per's;
// otherwise the first and last blocks may be partial, and [lo, hi) are the whole ones.
template <int per>
struct Blocks {
  std::int64_t g0, off, count, lo, hi;
  LOOM_HD Blocks(std::int64_t base, std::int64_t n)
      : g0(base / per),
        off(base % per),
        count(n > 0 ? (off + n + per - 1) / per : 0),
        lo(off ? 1 : 0),
        hi((off + n) / per) {}
  LOOM_HD std::int64_t first(std::int64_t j) const { return j * per - off; }
};

// Out's elements [first, first + per), the ones that exist.
template <class T, int per, class F>
LOOM_HD void write_block(loom::View<T> out, std::int64_t first, F&& value) {
  const std::int64_t n = out.size();
  for (int k = 0; k < per; ++k) {
    if (first + k >= 0 && first + k < n) out(first + k) = value(k);
  }
}

template <class T>
struct Uniform {
  LOOM_HD void operator()(const loom::ThreadCtx& t, loom::View<T> out, std::uint64_t seed,
                          std::uint32_t stream, std::uint32_t call, std::int64_t index_base) const {
    const Philox p(seed, stream, call);
    constexpr int per = sizeof(T) == 4 ? 4 : 2;  // elements of a 128-bit block
    const Blocks<per> bl(index_base, out.size());
    const auto element = [](const loom::random::Words4& w, int k) -> T {
      if constexpr (per == 4) {
        return loom::random::to_float32(w.v[k]);
      } else {
        return loom::random::to_float64(w.v[2 * k], w.v[2 * k + 1]);
      }
    };
#if defined(__CUDA_ARCH__)
    // A whole block of a contiguous, 16-byte-aligned out is one 128-bit store (float4, double2):
    // a warp's stores then cover 512 contiguous bytes in one instruction, not four. Only when
    // blocks start at out's element 0 (off = 0), so that block j is out's 16 bytes at j.
    const bool wide = bl.off == 0 && out.strides[0] == static_cast<std::int64_t>(sizeof(T)) &&
                      reinterpret_cast<std::uintptr_t>(out.data) % 16 == 0;
#endif
    // One block: the whole grid-stride loop on the device, the blocks no group takes on the host.
    const auto one = [&](std::int64_t j) {
      const loom::random::Words4 w = p.block(static_cast<std::uint64_t>(bl.g0 + j));
#if defined(__CUDA_ARCH__)
      if (wide && j < bl.hi) {
        if constexpr (per == 4) {
          reinterpret_cast<float4*>(out.data)[j] =
              make_float4(element(w, 0), element(w, 1), element(w, 2), element(w, 3));
        } else {
          reinterpret_cast<double2*>(out.data)[j] = make_double2(element(w, 0), element(w, 1));
        }
        return;
      }
#endif
      write_block<T, per>(out, bl.first(j), [&](int k) { return element(w, k); });
    };
#if defined(__CUDA_ARCH__)
    for (std::int64_t j : t.grid_stride(bl.count)) one(j);
#else
    const bool dense = out.strides[0] == static_cast<std::int64_t>(sizeof(T));
    // Arrays past the last-level cache are written with streaming stores (no read for
    // ownership: half the memory traffic of a store-only kernel).
    [[maybe_unused]] const bool nt =
        dense && out.size() * static_cast<std::int64_t>(sizeof(T)) >= kStreamBytes;
    host_blocks(
        t, bl.count, bl.lo, bl.hi,
        [&](std::int64_t j0, Lanes& lanes) {
          philox_lanes(static_cast<std::uint64_t>(bl.g0 + j0), seed, stream, call, lanes);
          const std::int64_t e0 = bl.first(j0);
#if defined(__AVX2__)
          if constexpr (per == 4) {
            if (dense) {
              store_uniform32(lanes, out.data + e0, nt);
              return;
            }
          }
#endif
          for (int l = 0; l < kLanes; ++l) {
            const loom::random::Words4 w{
                {lanes.w[0][l], lanes.w[1][l], lanes.w[2][l], lanes.w[3][l]}};
            for (int k = 0; k < per; ++k) out(e0 + l * per + k) = element(w, k);
          }
        },
        one);
#if defined(__AVX2__)
    if (nt) _mm_sfence();  // the streaming stores visible before the launch returns
#endif
#endif
  }
};

template <class T>
struct Normal {
  LOOM_HD void operator()(const loom::ThreadCtx& t, loom::View<T> out, std::uint64_t seed,
                          std::uint32_t stream, std::uint32_t call, std::int64_t index_base) const {
    const Philox p(seed, stream, call);
    constexpr int per = sizeof(T) == 4 ? 4 : 2;
    const Blocks<per> bl(index_base, out.size());
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
#if defined(__CUDA_ARCH__)
    // One 128-bit store per block where out allows it (Uniform's reason and condition).
    const bool wide = bl.off == 0 && out.strides[0] == static_cast<std::int64_t>(sizeof(T)) &&
                      reinterpret_cast<std::uintptr_t>(out.data) % 16 == 0;
#endif
    const auto one = [&](std::int64_t j) {  // as Uniform's
      T z[per];
      normals(p.block(static_cast<std::uint64_t>(bl.g0 + j)), z);
#if defined(__CUDA_ARCH__)
      if (wide && j < bl.hi) {
        if constexpr (per == 4) {
          reinterpret_cast<float4*>(out.data)[j] = make_float4(z[0], z[1], z[2], z[3]);
        } else {
          reinterpret_cast<double2*>(out.data)[j] = make_double2(z[0], z[1]);
        }
        return;
      }
#endif
      write_block<T, per>(out, bl.first(j), [&](int k) { return z[k]; });
    };
#if defined(__CUDA_ARCH__)
    for (std::int64_t j : t.grid_stride(bl.count)) one(j);
#else
    host_blocks(
        t, bl.count, bl.lo, bl.hi,
        [&](std::int64_t j0, Lanes& lanes) {
          philox_lanes(static_cast<std::uint64_t>(bl.g0 + j0), seed, stream, call, lanes);
          // Pair q of the group: (words 2q', 2q' + 1) of block q / 2 for float32 (q' = q % 2),
          // the block's 53-bit halves for float64, as `normals` takes them.
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
          const std::int64_t e0 = bl.first(j0);
          for (int q = 0; q < pairs; ++q) {
            out(e0 + 2 * q) = static_cast<T>(z0[q]);
            out(e0 + 2 * q + 1) = static_cast<T>(z1[q]);
          }
        },
        one);
#endif
  }
};

template <class T>
struct Integers {
  LOOM_HD void operator()(const loom::ThreadCtx& t, loom::View<T> out, std::int64_t low,
                          std::uint64_t span, std::uint64_t seed, std::uint32_t stream,
                          std::uint32_t call, std::int64_t index_base) const {
    const Philox p(seed, stream, call);
    // In uint64 arithmetic (wraps as two's complement), then to T: low + offset fits T.
    const auto put = [&](std::int64_t i, std::uint64_t offset) {
      out(i) = static_cast<T>(static_cast<std::uint64_t>(low) + offset);
    };
    // Out's element i is global element index_base + i, whose blocks are its own (one a block).
    const auto one = [&](std::int64_t i) { put(i, p.integer_offset(index_base + i, span)); };
#if defined(__CUDA_ARCH__)
    for (std::int64_t i : t.grid_stride(out.size())) one(i);
#else
    // Element e's first attempt is block e (attempt 0, while e < 2^56): kLanes elements' first
    // blocks at once, and Lemire's first step on them (Philox::integer_offset's); the rare element
    // whose first draw is rejected, and the spans that need no draw, go through integer_offset
    // itself.
    constexpr std::int64_t kAttempts = std::int64_t{1} << 56;
    const bool grouped = span != 0 && index_base >= 0 && out.size() < kAttempts &&
                         index_base < kAttempts - out.size();
    const bool wide = span > 0xFFFFFFFFull;
    host_blocks(
        t, out.size(), 0, grouped ? out.size() : 0,
        [&](std::int64_t i0, Lanes& lanes) {
          philox_lanes(static_cast<std::uint64_t>(index_base + i0), seed, stream, call, lanes);
          for (int l = 0; l < kLanes; ++l) {
            const std::int64_t i = i0 + l, e = index_base + i;
            std::uint64_t offset;
            if (!wide) {
              const std::uint32_t w = lanes.w[0][l];
              const std::uint64_t m = std::uint64_t{w} * (span + 1);
              offset = span == 0xFFFFFFFFull                      ? w
                       : static_cast<std::uint32_t>(m) < span + 1 ? p.integer_offset(e, span)
                                                                  : m >> 32;
            } else {
              const std::uint64_t x = (std::uint64_t{lanes.w[0][l]} << 32) | lanes.w[1][l];
              offset = span == ~std::uint64_t{0}   ? x
                       : x * (span + 1) < span + 1 ? p.integer_offset(e, span)
                                                   : loom::random::detail::mulhi64(x, span + 1);
            }
            put(i, offset);
          }
        },
        one);
#endif
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
