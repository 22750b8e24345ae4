// What the loom::dist tests share: the world communicator, one runtime, and helpers that check
// that a call raised an error on this rank (every rank runs the same assertions).
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <regex>
#include <string>
#include <vector>

#include "loom/dist/dist.hpp"
#include "loom/loom.hpp"

namespace loom::dist::test {

inline Runtime& rt() {
  static Runtime r;
  return r;
}
inline const Comm& world() {
  static Comm c(MPI_COMM_WORLD);
  return c;
}
// "parallel" where the TBB backend is built, else "cpu".
inline std::string parallel_or_cpu() {
  for (const auto& t : rt().targets()) {
    if (t.target == "parallel" && t.available) return "parallel";
  }
  return "cpu";
}

// Bitwise equality of two host arrays of the same dtype and shape.
inline ::testing::AssertionResult same_bits(const loom::Array& a, const loom::Array& b) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape()) {
    return ::testing::AssertionFailure() << a.str() << " vs " << b.str();
  }
  const loom::Array ca = a.copy(), cb = b.copy();
  const std::size_t n = static_cast<std::size_t>(ca.size()) * ca.itemsize();
  if (n && std::memcmp(ca.data(), cb.data(), n) != 0) {
    return ::testing::AssertionFailure() << "bits differ:\n" << ca << "\nvs\n" << cb;
  }
  return ::testing::AssertionSuccess();
}

// A global array every rank can build alike: values from the global index (no MPI needed).
inline loom::Array global_f64(std::int64_t n, std::int64_t m = 0) {
  Shape shape = m ? Shape{n, m} : Shape{n};
  loom::Array a = loom::empty(shape, DType::float64);
  double* p = a.data<double>();
  for (std::int64_t i = 0; i < a.size(); ++i)
    p[i] = 0.001 * static_cast<double>((i * 7919) % 1013) - 0.3;
  return a;
}
inline loom::Array global_i64(std::int64_t n, std::int64_t m = 0) {
  Shape shape = m ? Shape{n, m} : Shape{n};
  loom::Array a = loom::empty(shape, DType::int64);
  auto* p = a.data<std::int64_t>();
  for (std::int64_t i = 0; i < a.size(); ++i) p[i] = (i * 2654435761LL) % 1000003 - 500000;
  return a;
}

}  // namespace loom::dist::test

// Runs `stmt` (a collective call) and expects an exception of class E on this rank whose message
// matches `re`.
#define EXPECT_RAISES(stmt, E, re)                                                         \
  do {                                                                                     \
    try {                                                                                  \
      stmt;                                                                                \
      ADD_FAILURE() << "no exception from " #stmt;                                         \
    } catch (const E& e_) {                                                                \
      EXPECT_TRUE(std::regex_search(std::string(e_.what()), std::regex(re))) << e_.what(); \
    } catch (const std::exception& x_) {                                                   \
      ADD_FAILURE() << "not a " #E ": " << x_.what();                                      \
    }                                                                                      \
  } while (0)
