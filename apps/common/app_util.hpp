// Helpers shared by loom-demo and loom-bench: deterministic random inputs and size labels.
// Header-only so each app stays one target with no library of its own.
#pragma once
#include <cstdint>
#include <loom/loom.hpp>
#include <string>

namespace loom::apps {

// splitmix64: fast and deterministic, so the demo checks the same data on every run and every
// target (std::mt19937 would dominate the set-up time of the 256^3 case on a small machine).
class SplitMix {
 public:
  explicit SplitMix(std::uint64_t seed) : s_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (s_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)

 private:
  std::uint64_t s_;
};

// np.random.uniform(lo, hi, shape).astype(T) for a floating or integer T (integers: [lo, hi)).
template <class T>
Array random_uniform(const Shape& shape, double lo, double hi, std::uint64_t seed) {
  Array a = empty(shape, dtype_v<T>);
  T* p = reinterpret_cast<T*>(a.data());
  SplitMix rng(seed);
  for (std::int64_t i = 0, n = a.size(); i < n; ++i) {
    p[i] = static_cast<T>(lo + (hi - lo) * rng.uniform());
  }
  return a;
}

// "1", "4096", "1M", "64M", "256K": the size part of a benchmark or demo name.
inline std::string size_label(std::int64_t n) {
  if (n >= (1 << 20) && n % (1 << 20) == 0) return std::to_string(n >> 20) + "M";
  if (n >= (1 << 10) && n % (1 << 10) == 0) return std::to_string(n >> 10) + "K";
  return std::to_string(n);
}

// "256x256x256": a shape as it appears in a name.
inline std::string shape_label(const Shape& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i) out += 'x';
    out += std::to_string(s[i]);
  }
  return out.empty() ? "scalar" : out;
}

}  // namespace loom::apps
