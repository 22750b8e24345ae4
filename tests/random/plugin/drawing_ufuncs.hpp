// The random tests' ufuncs that draw (docs/random.md, "Ufuncs that draw"): functors that take
// loom::ElementIndex first, so that each element's draw is a pure function of its index.
#pragma once
#include <cstdint>

#include "loom/element_index.hpp"
#include "loom/random.hpp"
#include "loom/registry.hpp"

namespace loom_random_test {

// index_of(x) = the element's index (x only gives the shape): a template operator(), as the
// checks find it for each signature.
struct IndexOf {
  template <class T>
  LOOM_HD std::int64_t operator()(loom::ElementIndex e, T) const {
    return e.i;
  }
};

// A Monte-Carlo step: x + sigma * z with z the standard normal of element i of
// Generator(seed, 0, step)'s call, so step k of a walk draws afresh and any target repeats it.
struct McStep {
  LOOM_HD float operator()(loom::ElementIndex e, float x, float sigma, std::uint64_t seed,
                           std::uint32_t step) const {
    return x + sigma * loom::random::Philox(seed, 0, step).normal_float32(e.i);
  }
  LOOM_HD double operator()(loom::ElementIndex e, double x, double sigma, std::uint64_t seed,
                            std::uint32_t step) const {
    return x + sigma * loom::random::Philox(seed, 0, step).normal_float64(e.i);
  }
};

// Two outputs: a uniform of element i and i itself, past x (the several-output loops).
struct UniformAndIndex {
  LOOM_HD void operator()(const loom::ElementIndex& e, float x, float& u, std::int64_t& i) const {
    u = x + loom::random::Philox(7).uniform_float32(e.i);
    i = e.i;
  }
};

// A binary one: a * 10^6 + b * 10^3 + i, for outer (whose elements have indices) and the
// methods that refuse it (reduce, accumulate, reduceat, at).
struct IndexPlus {
  LOOM_HD std::int64_t operator()(loom::ElementIndex e, std::int64_t a, std::int64_t b) const {
    return a * 1000000 + b * 1000 + e.i;
  }
};

inline void register_ufuncs(loom::Registrar& reg) {
  loom::def::ufunc<IndexOf, std::int64_t(double), std::int64_t(float)>(
      reg, "test_index_of", "the element's loom::ElementIndex");
  loom::def::ufunc<McStep, float(float, float, std::uint64_t, std::uint32_t),
                   double(double, double, std::uint64_t, std::uint32_t)>(
      reg, "test_mc_step", "x + sigma * (normal draw of element i of call `step` of seed)");
  loom::def::ufunc<UniformAndIndex, loom::def::outs<float, std::int64_t>(float)>(
      reg, "test_uniform_and_index", "(x + uniform of element i of seed 7, i)");
  loom::def::ufunc<IndexPlus, std::int64_t(std::int64_t, std::int64_t)>(
      reg, "test_index_plus", "a * 10^6 + b * 10^3 + the element's index");
}

}  // namespace loom_random_test
