// Shared pieces of the parallel backend's tests: a runtime that loads only the two host backends
// and the test ops, random arrays, and a bitwise comparison.
#pragma once
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "loom/loom.hpp"

namespace loom_tbb_test {

inline loom::RuntimeOptions options(int threads = 0) {
  return loom::RuntimeOptions{
      .plugin_path = {LOOM_TBB_TEST_PLUGINS}, .use_default_path = false, .num_threads = threads};
}

// One runtime for the tests that do not change the thread count.
inline loom::Runtime& runtime() {
  static loom::Runtime rt(options());
  return rt;
}

// Uniform values in [lo, hi); whole numbers when `integers` (their sums are exact in any order).
inline loom::Array random_array(const loom::Shape& shape, loom::DType dt, unsigned seed,
                                double lo = -1.0, double hi = 1.0, bool integers = false) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  std::vector<double> v(static_cast<std::size_t>(loom::shape_size(shape)));
  for (double& x : v) x = integers ? std::floor(u(gen)) : u(gen);
  return loom::from_vector(v, shape.empty() ? loom::Shape{1} : shape).reshape(shape).astype(dt);
}

// Same dtype, shape and bytes (element by element, in C order).
inline ::testing::AssertionResult same_bits(const loom::Array& a, const loom::Array& b) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape()) {
    return ::testing::AssertionFailure() << a.str() << " vs " << b.str();
  }
  const loom::Array ca = a.copy(), cb = b.copy();
  const std::size_t isz = ca.itemsize();
  for (std::int64_t i = 0; i < ca.size(); ++i) {
    if (std::memcmp(ca.data() + i * isz, cb.data() + i * isz, isz) != 0) {
      return ::testing::AssertionFailure()
             << "element " << i << " differs: " << ca.to_vector<double>()[i] << " vs "
             << cb.to_vector<double>()[i] << " (" << a.str() << ")";
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace loom_tbb_test
