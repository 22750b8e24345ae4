// Random numbers in kernels, the same bits on every target (docs/random.md). Header-only and
// LOOM_HD: host code, and device code under nvcc, with no CUDA header.
//
//   - Philox4x32-10, the counter-based generator of Random123 and cuRAND: a block of four 32-bit
//     words is a pure function of (key, counter), so element i draws the same number wherever
//     and in whatever chunk it runs. loom::random::Philox is what Generator's arrays are made of
//     (element i of call `call` of Generator(seed, stream)), for kernels to draw the same numbers.
//   - Numba's xoroshiro128p (numba.cuda.random) with Numba's bits, on states made by
//     create_xoroshiro128p_states (loom/random_arrays.hpp): a uint64 array of shape (n, 2).
#pragma once
#include <cmath>
#include <cstdint>

#include "loom/hd.hpp"
#include "loom/random_ziggurat.hpp"
#include "loom/view.hpp"

namespace loom::random {

struct Words4 {  // a Philox counter or output block
  std::uint32_t v[4];
};
struct Key2 {
  std::uint32_t v[2];
};

namespace detail {
LOOM_HD inline void mulhilo32(std::uint32_t a, std::uint32_t b, std::uint32_t& hi,
                              std::uint32_t& lo) {
#if defined(__CUDA_ARCH__)
  hi = __umulhi(a, b);  // two 32-bit multiplies: 4 % faster on an H200 than one 64-bit product
  lo = a * b;
#else
  const std::uint64_t p = std::uint64_t{a} * b;
  hi = static_cast<std::uint32_t>(p >> 32);
  lo = static_cast<std::uint32_t>(p);
#endif
}
}  // namespace detail

// Philox4x32 with R rounds (Salmon et al., SC11; Random123's philox4x32_R). Random123 bumps the
// key by the Weyl constants before every round but the first; 10 rounds is cuRAND's
// curand_Philox4x32_10 and Random123's default.
template <int R = 10>
LOOM_HD inline Words4 philox4x32(Words4 c, Key2 k) {
  constexpr std::uint32_t M0 = 0xD2511F53u, M1 = 0xCD9E8D57u;  // multipliers
  constexpr std::uint32_t W0 = 0x9E3779B9u, W1 = 0xBB67AE85u;  // Weyl key bumps
  for (int r = 0; r < R; ++r) {
    if (r > 0) {
      k.v[0] += W0;
      k.v[1] += W1;
    }
    std::uint32_t hi0, lo0, hi1, lo1;
    detail::mulhilo32(M0, c.v[0], hi0, lo0);
    detail::mulhilo32(M1, c.v[2], hi1, lo1);
    c = Words4{{hi1 ^ c.v[1] ^ k.v[0], lo1, hi0 ^ c.v[3] ^ k.v[1], lo0}};
  }
  return c;
}

// Words to numbers. NumPy's conventions: a float32 in [0, 1) from the top 24 bits of a word, a
// float64 from the top 53 of two (hi, lo); both multiples of 2^-24 / 2^-53, never 1.
LOOM_HD inline float to_float32(std::uint32_t w) {
  return static_cast<float>(w >> 8) * (1.0f / 16777216.0f);
}
LOOM_HD inline double to_float64(std::uint32_t hi, std::uint32_t lo) {
  const std::uint64_t x = (std::uint64_t{hi} << 32) | lo;
  return static_cast<double>(x >> 11) * (1.0 / 9007199254740992.0);
}

namespace detail {
LOOM_HD inline std::uint64_t mulhi64(std::uint64_t a, std::uint64_t b) {
#if defined(__CUDA_ARCH__)
  return __umul64hi(a, b);
#else
  return static_cast<std::uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64);
#endif
}
}  // namespace detail

// The element functions of Generator(seed, stream)'s call number `call` (docs/random.md, "How
// the bits are laid out"): key = seed, counter = (block lo, block hi, call, stream).
class Philox {
 public:
  LOOM_HD Philox(std::uint64_t seed, std::uint32_t stream = 0, std::uint32_t call = 0)
      : key_{{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)}},
        stream_(stream),
        call_(call) {}

  // The four words of block b (b < 2^56).
  LOOM_HD Words4 block(std::uint64_t b) const {
    return philox4x32<10>(Words4{{static_cast<std::uint32_t>(b),
                                  static_cast<std::uint32_t>(b >> 32), call_, stream_}},
                          key_);
  }

  // Element i of a uniform array in [0, 1): float32 from word i % 4 of block i / 4, float64
  // from words 2 (i % 2) and 2 (i % 2) + 1 of block i / 2.
  LOOM_HD float uniform_float32(std::int64_t i) const {
    const Words4 w = block(static_cast<std::uint64_t>(i) / 4);
    return to_float32(w.v[i % 4]);
  }
  LOOM_HD double uniform_float64(std::int64_t i) const {
    const Words4 w = block(static_cast<std::uint64_t>(i) / 2);
    const int k = static_cast<int>(i % 2) * 2;
    return to_float64(w.v[k], w.v[k + 1]);
  }
  // Element i of a standard normal array, by the ziggurat (loom/random_ziggurat.hpp): float32
  // from word i % 4 of block i / 4, float64 from words 2 (i % 2) (high) and 2 (i % 2) + 1 of
  // block i / 2, as the uniforms; a rejected draw goes on with element i's own blocks.
  LOOM_HD float normal_float32(std::int64_t i) const {
    const Words4 w = block(static_cast<std::uint64_t>(i) / 4);
    return detail::zig_normal32(*this, w.v[i % 4], static_cast<std::uint64_t>(i));
  }
  LOOM_HD double normal_float64(std::int64_t i) const {
    const Words4 w = block(static_cast<std::uint64_t>(i) / 2);
    const int k = static_cast<int>(i % 2) * 2;
    return detail::zig_normal64(*this, (std::uint64_t{w.v[k]} << 32) | w.v[k + 1],
                                static_cast<std::uint64_t>(i));
  }

  // Element i of an integer array in [low, low + span], span = high - 1 - low as a uint64:
  // Lemire's nearly divisionless method (as NumPy's Generator.integers: 32-bit words for spans
  // below 2^32, 64-bit ones (hi, lo) above), drawing from the blocks (i, attempt a) with a in
  // bits 24..31 of the counter's second word, the element's own stream of words.
  LOOM_HD std::uint64_t integer_offset(std::int64_t i, std::uint64_t span) const {
    if (span == 0) return 0;
    const std::uint64_t n = static_cast<std::uint64_t>(i);
    Words4 w{};
    int used = 4;
    std::uint32_t a = 0;
    const auto next32 = [&]() -> std::uint32_t {
      if (used == 4) {
        w = block((n & 0x00FFFFFFFFFFFFFFull) | (std::uint64_t{a++ & 0xFFu} << 56));
        used = 0;
      }
      return w.v[used++];
    };
    if (span <= 0xFFFFFFFFull) {
      if (span == 0xFFFFFFFFull) return next32();
      const std::uint32_t excl = static_cast<std::uint32_t>(span) + 1;
      std::uint64_t m = std::uint64_t{next32()} * excl;
      std::uint32_t left = static_cast<std::uint32_t>(m);
      if (left < excl) {
        const std::uint32_t threshold = static_cast<std::uint32_t>(0u - excl) % excl;
        while (left < threshold) {
          m = std::uint64_t{next32()} * excl;
          left = static_cast<std::uint32_t>(m);
        }
      }
      return m >> 32;
    }
    const auto next64 = [&]() {
      const std::uint64_t hi = next32();
      return (hi << 32) | next32();
    };
    if (span == ~std::uint64_t{0}) return next64();
    const std::uint64_t excl = span + 1;
    std::uint64_t x = next64(), left = x * excl;
    if (left < excl) {
      const std::uint64_t threshold = (0 - excl) % excl;
      while (left < threshold) {
        x = next64();
        left = x * excl;
      }
    }
    return detail::mulhi64(x, excl);
  }

 private:
  Key2 key_;
  std::uint32_t stream_, call_;
};

// ---- Numba's xoroshiro128p (numba.cuda.random), bit for bit ----
// A state is a row (s0, s1) of a uint64 array of shape (n, 2), Numba's xoroshiro128p_dtype.

namespace detail {
LOOM_HD inline std::uint64_t xoroshiro128p_step(std::uint64_t& w0, std::uint64_t& w1) {
  const std::uint64_t s0 = w0;
  std::uint64_t s1 = w1;
  const std::uint64_t result = s0 + s1;
  s1 ^= s0;
  w0 = ((s0 << 55) | (s0 >> 9)) ^ s1 ^ (s1 << 14);
  w1 = (s1 << 36) | (s1 >> 28);
  return result;
}
}  // namespace detail

LOOM_HD inline std::uint64_t xoroshiro128p_next(View<std::uint64_t, 2> states, std::int64_t i) {
  // A row whose words are adjacent (create_xoroshiro128p_states' arrays) is reached through one
  // pointer, so the compiler knows the two words apart and can keep a thread's state in registers
  // over a loop of draws, as LLVM does with Numba's record arrays: 3.4x faster Monte Carlo pi on an
  // H200 than two View accesses, whose strides could make them the same word.
  if (states.strides[1] == sizeof(std::uint64_t) && states.shape[1] == 2) {
    std::uint64_t* row = &states(i, 0);
    return detail::xoroshiro128p_step(row[0], row[1]);
  }
  return detail::xoroshiro128p_step(states(i, 0), states(i, 1));
}
// Numba's uint64_to_unit_float64 / _float32: the top 53 bits, then rounded to float32 (which, as
// in Numba, can give 1.0f for the largest draws).
LOOM_HD inline double xoroshiro_unit_float64(std::uint64_t x) {
  return static_cast<double>(x >> 11) * (1.0 / 9007199254740992.0);
}
LOOM_HD inline float xoroshiro128p_uniform_float32(View<std::uint64_t, 2> states, std::int64_t i) {
  return static_cast<float>(xoroshiro_unit_float64(xoroshiro128p_next(states, i)));
}
LOOM_HD inline double xoroshiro128p_uniform_float64(View<std::uint64_t, 2> states, std::int64_t i) {
  return xoroshiro_unit_float64(xoroshiro128p_next(states, i));
}
// Numba's Box-Muller, first value only, on two float32 uniforms, with the target's logf/cosf as
// Numba uses them: the bits follow the target's math library (docs/random.md).
LOOM_HD inline float xoroshiro128p_normal_float32(View<std::uint64_t, 2> states, std::int64_t i) {
  const float u1 = xoroshiro128p_uniform_float32(states, i);
  const float u2 = xoroshiro128p_uniform_float32(states, i);
  constexpr float two_pi = 6.28318530717958647692f;
  return sqrtf(-2.0f * logf(u1)) * cosf(two_pi * u2);
}
LOOM_HD inline double xoroshiro128p_normal_float64(View<std::uint64_t, 2> states, std::int64_t i) {
  const float u1 = xoroshiro128p_uniform_float32(states, i);  // float32 draws, as Numba's
  const float u2 = xoroshiro128p_uniform_float32(states, i);
  constexpr double two_pi = 6.28318530717958647692;
  return sqrt(-2.0 * static_cast<double>(logf(u1))) * cos(two_pi * static_cast<double>(u2));
}

// Seeding (Numba's init_xoroshiro128p_state and xoroshiro128p_jump): splitmix64 of the seed in
// both words; a jump advances a state by 2^64 draws.
LOOM_HD inline std::uint64_t splitmix64(std::uint64_t seed) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
LOOM_HD inline void xoroshiro128p_jump(View<std::uint64_t, 2> states, std::int64_t i) {
  constexpr std::uint64_t jump[2] = {0xBEAC0467EBA5FACBull, 0xD86B048B86AA9922ull};
  std::uint64_t s0 = 0, s1 = 0;
  for (std::uint64_t j : jump) {
    for (int b = 0; b < 64; ++b) {
      if (j & (std::uint64_t{1} << b)) {
        s0 ^= states(i, 0);
        s1 ^= states(i, 1);
      }
      xoroshiro128p_next(states, i);
    }
  }
  states(i, 0) = s0;
  states(i, 1) = s1;
}

}  // namespace loom::random
