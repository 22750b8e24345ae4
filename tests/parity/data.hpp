// Inputs of the parity suite: seeded random arrays in an op's domain, special values (NaN, ±inf,
// ±0, subnormals, extremes) and views of the same values with other strides (step 2, reversed,
// transposed), so that the strided loops meet the same data as the contiguous ones.
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "common.hpp"

namespace parity {

class Rng {
 public:
  explicit Rng(const std::string& seed);  // seeded from a hash of the case's name: reproducible
  double uniform(double lo, double hi);
  std::int64_t integer(std::int64_t lo, std::int64_t hi);
  bool coin(double p = 0.5);

 private:
  std::mt19937_64 g_;
};

// A C-contiguous array of `shape` and dtype `t` with values drawn from `d`.
Array random(Rng& rng, const Shape& shape, DType t, const Domain& d);
// Values (exact in a double) stored as dtype t.
Array from_values(const std::vector<double>& v, const Shape& shape, DType t);
Array from_ints(const std::vector<std::int64_t>& v, DType t);

// NaN, ±inf, ±0, ±1, subnormal and normal extremes, ordinary values, as stored in dtype t.
std::vector<double> specials(DType t);

// The same values as a view with other strides: every other element of a twice-as-long buffer;
// reversed along an axis (step -1); the transpose of a C-contiguous array of the reversed shape.
Array step2(Rng& rng, const Shape& shape, DType t, const Domain& d);
Array reversed(Rng& rng, const Shape& shape, DType t, const Domain& d);
Array transposed(Rng& rng, const Shape& shape, DType t, const Domain& d);
// a with its last two axes swapped in memory but not in shape (a view of a transposed copy).
Array swap_last_two(const Array& a);

}  // namespace parity
