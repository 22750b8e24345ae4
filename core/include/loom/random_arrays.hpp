// Arrays of random numbers on any target, and Numba's xoroshiro128p states (docs/random.md).
// Host API; the kernels that fill the arrays are the random plugin's (plugins/random), and what
// a kernel calls itself is loom/random.hpp.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "loom/array.hpp"
#include "loom/random.hpp"
#include "loom/runtime.hpp"

namespace loom::random {

struct RandomOptions {
  std::string target{};        // "" = the runtime's default; a device set ("cuda:all") too
  std::optional<Array> out{};  // fill this array (its shape and dtype must be the call's)
  // The array's first element in a larger one: element i draws what element index_base + i of
  // the call's whole array draws (C order), so that pieces drawn apart (loom::dist's ranks, rows
  // of a big array) are slices of one array. At least 0, and index_base + size within int64.
  std::int64_t index_base = 0;
};

// NumPy's Generator on Philox4x32-10, counter-based: call number c of Generator(seed, stream)
// fills element i with Philox(seed, stream, c)'s element function at i, so every target, device
// set and chunking gives the same array. Each call takes the next call number (NumPy's
// generators advance too); construct with `call` to resume a sequence. A call that raises takes
// no call number.
class Generator {
 public:
  explicit Generator(std::uint64_t seed, std::uint32_t stream = 0, std::uint32_t call = 0)
      : seed_(seed), stream_(stream), next_call_(call) {}

  // Uniform in [0, 1): float32 (24 bits) or float64 (53 bits).
  Array uniform(const Runtime& rt, const Shape& shape, DType dtype = DType::float64,
                const RandomOptions& o = {});
  // Standard normal (Box-Muller), float32 or float64.
  Array normal(const Runtime& rt, const Shape& shape, DType dtype = DType::float64,
               const RandomOptions& o = {});
  // Integers in [low, high) of an integer dtype, without modulo bias (Lemire's method).
  Array integers(const Runtime& rt, std::int64_t low, std::int64_t high, const Shape& shape,
                 DType dtype = DType::int64, const RandomOptions& o = {});

  std::uint64_t seed() const { return seed_; }
  std::uint32_t stream() const { return stream_; }
  // The call number the next call will use (2^32 when every one has been used).
  std::uint64_t next_call() const { return next_call_; }
  // What the next call's kernels draw from, for a kernel of one's own to draw the same numbers.
  Philox next_philox() const {
    return Philox(seed_, stream_, static_cast<std::uint32_t>(next_call_));
  }

 private:
  std::uint32_t call_number(const char* what) const;
  std::uint64_t seed_;
  std::uint32_t stream_;
  std::uint64_t next_call_;
};

struct XoroshiroOptions {
  std::uint64_t subsequence_start = 0;  // the first state jumped 2^64 draws this many times
  std::string target{};                 // where the states go ("" = the runtime's default)
};

// Numba's create_xoroshiro128p_states(n, seed, subsequence_start): n states, a uint64 array of
// shape (n, 2), each 2^64 draws after the one before, computed on the host and copied to the
// target (a device array on cuda; a host array on host targets and device sets).
Array create_xoroshiro128p_states(const Runtime& rt, std::int64_t n, std::uint64_t seed,
                                  const XoroshiroOptions& o = {});

}  // namespace loom::random
