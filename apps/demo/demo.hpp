// loom-demo's building blocks: one seed example is a "case" that runs on a target, checks
// its answer against a reference computed here with plain C++ loops, and reports timed rows.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <loom/loom.hpp>
#include <string>
#include <vector>

namespace loom::demo {

struct Context {
  Runtime& rt;
  std::string target;  // as given to the calls ("" never: main resolves the default)
  double scale = 1.0;  // multiplies the seeds' sizes
  int repeat = 3;      // timed runs; the best one is reported
  // A seed size scaled, at least `min`.
  std::int64_t scaled(std::int64_t n, std::int64_t min = 1) const;
  // Options naming the target (designated initializers trip -Wmissing-field-initializers).
  CallOptions call() const {
    CallOptions o;
    o.target = target;
    return o;
  }
  ReduceOptions reduce() const {
    ReduceOptions o;
    o.target = target;
    return o;
  }
};

// Result of comparing an answer with the reference. rel is normwise: max|got-ref| / max|ref|,
// which stays meaningful where the reference crosses zero (sin near pi), like np.allclose's atol.
struct Check {
  bool pass = false;
  double max_abs = 0;
  double rel = 0;
  double tol = 0;
  std::string problem;  // set when the answer has the wrong shape/dtype or the call failed
  std::string note;     // set: printed instead of the error figures (counts, not tolerances)
  std::string str() const;
};

struct Row {
  std::string name;
  std::string target;
  std::string shape;
  std::string dtype;
  double seconds = std::numeric_limits<double>::quiet_NaN();
  Check check;
};

// Compares `got` (any dtype, read as double) with `ref`; fails if the shape or dtype is not the
// expected one. tol bounds rel.
Check compare(const Array& got, const Shape& shape, DType dtype, const std::vector<double>& ref,
              double tol);

// Tolerance of a float sum/product of n terms of unbiased random data: 8*sqrt(n)*eps, never
// tighter than `floor`. Rounding errors then grow like sqrt(n)*eps in any order; the worst-case
// n*eps would be loose enough to hide a dropped element.
double fold_tolerance(DType t, std::int64_t n, double floor);

// Calls f `repeat` times; returns the fastest run in seconds and keeps the last result.
template <class F>
double best_time(int repeat, F&& f, Array& result) {
  double best = std::numeric_limits<double>::infinity();
  for (int r = 0; r < repeat; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    result = f();
    const auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double>(t1 - t0).count());
  }
  return best;
}

// Fills name/target/shape/dtype, then runs body(row); a loom::Error (or any std::exception) thrown
// by the set-up, the call or the check becomes a failed row carrying the message.
Row guarded_row(const Context& ctx, std::string name, std::string shape, DType dtype,
                const std::function<void(Row&)>& body);

// One function per seed example; each returns one row per dtype it tries.
std::vector<Row> run_sinexp(const Context& ctx);
std::vector<Row> run_sum_row(const Context& ctx);
std::vector<Row> run_prod(const Context& ctx);
std::vector<Row> run_maximum(const Context& ctx);
std::vector<Row> run_hypot(const Context& ctx);
// The seeds' @cuda.jit kernels (plugins/kernels) with the seeds' launch configurations.
std::vector<Row> run_kernels(const Context& ctx);
// The Monte Carlo estimate of pi on Numba's xoroshiro128p states (loom::random, the random
// plugin's random_compute_pi), checked bit for bit against a host loop.
std::vector<Row> run_random(const Context& ctx);

void print_table(const std::vector<Row>& rows);

}  // namespace loom::demo
