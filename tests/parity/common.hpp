// Shared pieces of the parity suite: the case being run (op, loop, target), value domains, the
// element checker that measures errors in ulp or against an absolute bound, and the run counters
// that the summary line prints.
#pragma once
#include <complex>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "loom/loom.hpp"

namespace parity {

using loom::Array;
using loom::DType;
using loom::Shape;

// Where random inputs of one argument come from. Integers are drawn uniformly from [lo, hi].
struct Domain {
  double lo = -1, hi = 1;
  bool random_sign = false;  // magnitude in [lo, hi], then a random sign
  bool log_uniform = false;  // magnitude spread evenly over the binades of [lo, hi] (lo > 0)
  bool nonzero = false;      // integers: never 0 (divisors)
};

bool is_float(DType t);    // float16, float32, float64: reference-checked in ulp
bool is_integer(DType t);  // bool and the integer types: reference-checked exactly
bool is_complex(DType t);  // complex64, complex128: reference-checked per component (cvalue)
DType component(DType t);  // complex64 -> float32, complex128 -> float64; t itself otherwise
int mantissa_digits(DType t);
int min_exponent(DType t);  // exponent of the smallest normal number, as ilogb gives it
// The spacing of dtype t's numbers at x (denorm_min below the normal range).
long double ulp(DType t, long double x);
// Rounds x to dtype t (float16 through float: it is only used for bounds).
long double round_to(DType t, long double x);

// Host copy of any array's elements, C order, exactly (ints via int64, floats via double).
std::vector<long double> values(const Array& a);
using CL = std::complex<long double>;
// Host copy of a complex array's elements, C order, exactly.
std::vector<CL> cvalues(const Array& a);
// The bytes of a C-contiguous copy, for bitwise comparison.
std::vector<unsigned char> bytes(const Array& a);

// How an element is compared with its reference value.
struct Bound {
  enum Mode { ulps, absolute } mode = ulps;
  double value = 0;        // ulps, or the absolute error allowed
  bool zero_sign = false;  // a zero result must have the reference's sign
};

// Where an element sits, for messages: scenario name, flat index and the inputs that made it.
struct Where {
  std::string scenario;
  std::int64_t index = 0;
  std::vector<long double> inputs;
  std::string what;  // "vs reference" / "vs cpu" / output number
};

// Counts checks and reports the first few failures of each kind as GoogleTest failures.
class Checker {
 public:
  Checker(std::string key) : key_(std::move(key)) {}
  // got vs ref for dtype t. Returns the error in ulp (ulps mode) or absolute units.
  bool value(DType t, long double got, long double ref, const Bound& b, const Where& w);
  // A complex element against its reference (bound in ulp, as below). Finite results: the larger
  // component error in ulp of the larger reference component, max(|re|, |im|) (docs/catalogue.md,
  // "Complex loops"); where a part of the reference or of the result is inf or NaN, each part
  // alone: NaN for NaN, the same infinity, a finite part within the bound in its own ulp.
  bool cvalue(DType t, CL got, CL ref, const Bound& b, const Where& w);
  // Bitwise equality of two arrays (same shape and dtype required).
  bool same_bits(const Array& got, const Array& ref, const std::string& scenario,
                 const std::string& what);
  // The same, with the description built only on a failure (hot loops check every element).
  bool same_bits(const Array& got, const Array& ref, const std::string& scenario,
                 const std::function<std::string()>& what);
  // A free-form expectation (shapes, dtypes, exceptions).
  void expect(bool ok, const std::string& message);
  std::int64_t checks() const { return checks_; }

 private:
  void fail(const std::string& message);
  void note_worst(double err, const Bound& b, const Where& w);
  std::string key_;
  std::int64_t checks_ = 0;
  int failures_ = 0;
};

// Run counters for the summary line, and the largest error seen per (op, dtype, target, mode).
struct Stats {
  int ran = 0, skipped = 0, with_reference = 0, cpu_only = 0;
  std::int64_t checks = 0;
  struct Worst {
    double err = 0;
    double bound = 0;
    std::string mode;
    std::string where;  // scenario and inputs of the worst element
  };
  std::map<std::string, Worst> worst;  // key "op loop target"
};
Stats& stats();

// Formats a long double for messages with enough digits to tell neighbours apart.
std::string fmt(long double x);
std::string loop_name(const loom::Signature& s);  // "float32_float32_to_float32"

}  // namespace parity
