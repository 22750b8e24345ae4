// The ufunc methods on target "parallel" against target "cpu" (the serial reference):
// - accumulate: whole lines in parallel give the cpu bits (many lines, non-reorderable ops,
//   integers); few long lines of a reorderable op are scanned in blocks, whose bits are the same on
//   every run and with any thread count and whose error stays within the blocked scan's bound;
// - at: the cpu bits for integers (private bins or atomics for reorderable ops) and for ops that
//   are not reorderable (an ordered path), including repeated indices, broadcast b and sub-array
//   updates; float updates of reorderable ops with several updates per row go to private bins:
//   the same bits on every run and thread count, within the error bound of any summation order;
// - reduce of a non-reorderable op: each output folded in order, the cpu bits.
#include <gtest/gtest.h>
#include <oneapi/tbb/parallel_for.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "chunking.hpp"
#include "helpers.hpp"

namespace {

using loom::Array;
using loom::DType;
using loom_tbb_test::options;
using loom_tbb_test::random_array;
using loom_tbb_test::runtime;
using loom_tbb_test::same_bits;
namespace tb = loom::backend::tbb_backend;

Array accumulate(const loom::Runtime& rt, const char* op, const Array& x, const char* target,
                 int axis = 0) {
  return rt.ufunc(op).accumulate(x, {.target = target, .axis = axis});
}

// Few long lines of a reorderable op: the blocked scan. On whole numbers whose running sums are
// exact in float32 (|sum| < 2^24) every association gives the exact prefix sums, so the blocked
// result must equal the cpu's bit for bit: a wrong carry or block boundary shows up here.
TEST(Accumulate, BlockedScanOfWholeNumbersIsExact) {
  auto& rt = runtime();
  const Array x = random_array({1'000'003}, DType::float32, 1, -8, 8, true);
  EXPECT_TRUE(
      same_bits(accumulate(rt, "t_plus", x, "parallel"), accumulate(rt, "t_plus", x, "cpu")));
  // A strided and a reversed line, and two lines along a strided axis (axis 0 of (n, 2)).
  const Array s = x.slice(0, 1, x.shape()[0], 2);
  EXPECT_TRUE(
      same_bits(accumulate(rt, "t_plus", s, "parallel"), accumulate(rt, "t_plus", s, "cpu")));
  const Array r = x.slice(0, x.shape()[0] - 1, -1, -1);
  EXPECT_TRUE(
      same_bits(accumulate(rt, "t_plus", r, "parallel"), accumulate(rt, "t_plus", r, "cpu")));
  const Array two = x.slice(0, 0, 1'000'000).reshape({500'000, 2});
  EXPECT_TRUE(
      same_bits(accumulate(rt, "t_plus", two, "parallel"), accumulate(rt, "t_plus", two, "cpu")));
  const Array rows = two.transpose().copy();  // (2, 500000), axis 1
  EXPECT_TRUE(same_bits(accumulate(rt, "t_plus", rows, "parallel", 1),
                        accumulate(rt, "t_plus", rows, "cpu", 1)));
  // More blocks than one round (tb::kScanRoundBytes): carries continue across rounds.
  const Array many = random_array({(1 << 23) + 3}, DType::float32, 14, -8, 8, true);
  ASSERT_GT(many.size() * 4, 2 * tb::kScanRoundBytes);
  EXPECT_TRUE(
      same_bits(accumulate(rt, "t_plus", many, "parallel"), accumulate(rt, "t_plus", many, "cpu")));
}

// A broadcast input (stride 0 along the scanned axis) of few long lines: the blocked scan sized
// its cache rounds by the input's bytes per block, 0 here, and divided by it (SIGFPE).
TEST(Accumulate, BlockedScanOfStrideZeroInputMatchesCpu) {
  auto& rt = runtime();
  const Array one = random_array({1}, DType::float32, 15, -8, 8, true);
  const Array line = one.broadcast_to({200'001});
  ASSERT_EQ(line.strides()[0], 0);
  EXPECT_TRUE(
      same_bits(accumulate(rt, "t_plus", line, "parallel"), accumulate(rt, "t_plus", line, "cpu")));
  const Array row = random_array({3}, DType::int32, 16, -100, 100, true);
  const Array lines = row.broadcast_to({100'000, 3});  // three lines along a stride-0 axis 0
  EXPECT_TRUE(same_bits(accumulate(rt, "t_plus", lines, "parallel"),
                        accumulate(rt, "t_plus", lines, "cpu")));
}

// Integer adds wrap and are associative, and max is exact in any order: blocked scans of them
// equal the cpu's bit for bit.
TEST(Accumulate, BlockedScanOfIntegersAndMaxMatchesCpu) {
  auto& rt = runtime();
  const double lo = -2147483648.0, hi = 2147483648.0;
  const Array i32 = random_array({700'001}, DType::int32, 2, lo, hi, true);  // sums wrap
  EXPECT_TRUE(
      same_bits(accumulate(rt, "t_plus", i32, "parallel"), accumulate(rt, "t_plus", i32, "cpu")));
  const Array i64 = random_array({300'000, 3}, DType::int64, 3, -1e15, 1e15, true);
  EXPECT_TRUE(
      same_bits(accumulate(rt, "t_plus", i64, "parallel"), accumulate(rt, "t_plus", i64, "cpu")));
  const Array f = random_array({1'500'000}, DType::float32, 4);
  EXPECT_TRUE(
      same_bits(accumulate(rt, "t_maximum", f, "parallel"), accumulate(rt, "t_maximum", f, "cpu")));
}

// The blocked scan's error bound. Element i of block b (blocks of tb::kScanBlock elements, more
// for lines over tb::kMaxScanBlocks blocks) is carry_b + the in-order scan of block b up to i,
// where carry_b sums b block totals in order, each a pairwise fold (at most 64 + log2(length)
// roundings on any path); so at most k_i = b + 64 + log2(block) + (i - start_b) + 1 roundings
// touch it, and |got_i - exact_i| <= gamma(k_i) * sum_{j<=i} |x_j| (Higham's bound,
// gamma(k) = k eps / (1 - k eps)). The exact prefix sums are taken in long double.
TEST(Accumulate, BlockedScanStaysWithinItsErrorBound) {
  auto& rt = runtime();
  const std::int64_t n = 1'000'003;
  const Array x = random_array({n}, DType::float64, 5, -1, 3);
  const std::vector<double> got = accumulate(rt, "t_plus", x, "parallel").to_vector<double>();
  const std::vector<double> xv = x.to_vector<double>();
  const std::int64_t block =
      tb::round_up(std::max(tb::kScanBlock, tb::ceil_div(n, tb::kMaxScanBlocks)), tb::kAlign);
  ASSERT_GE(tb::ceil_div(n, block), 2) << "the test needs several blocks";
  const double eps = std::numeric_limits<double>::epsilon() / 2;
  long double exact = 0, mag = 0;
  double worst = 0;  // largest error / bound
  for (std::int64_t i = 0; i < n; ++i) {
    exact += xv[i];
    mag += std::fabs(xv[i]);
    const std::int64_t b = i / block;
    const double k = static_cast<double>(b + 64 + 17 + (i - b * block) + 1);
    const double bound = k * eps / (1 - k * eps) * static_cast<double>(mag);
    const double err = std::fabs(got[i] - static_cast<double>(exact));
    worst = std::max(worst, err / bound);
    ASSERT_LE(err, bound) << "element " << i << ": " << got[i] << " vs "
                          << static_cast<double>(exact);
  }
  // The cpu's in-order scan, for scale: its own error is of the same order.
  EXPECT_LE(worst, 1.0);
}

// Same bits on every run, with any number of threads, and from inside a parallel region (where
// the call runs on the calling thread, cut into the same blocks).
TEST(Accumulate, BlockedScanIsDeterministic) {
  const Array x = random_array({(1 << 22) + 5}, DType::float32, 6, 0, 1);
  const Array y = random_array({4, 400'000}, DType::float64, 7);
  loom::Runtime one(options(1));
  const Array ref_x = accumulate(one, "t_plus", x, "parallel");
  const Array ref_y = accumulate(one, "t_plus", y, "parallel", 1);
  for (int threads : {1, 2, 3, 8}) {
    loom::Runtime rt(options(threads));
    for (int run = 0; run < 2; ++run) {
      EXPECT_TRUE(same_bits(accumulate(rt, "t_plus", x, "parallel"), ref_x)) << threads;
      EXPECT_TRUE(same_bits(accumulate(rt, "t_plus", y, "parallel", 1), ref_y)) << threads;
    }
  }
  std::vector<Array> nested(4);
  tbb::parallel_for(0, 4,
                    [&](int i) { nested[i] = accumulate(runtime(), "t_plus", x, "parallel"); });
  for (const auto& r : nested) EXPECT_TRUE(same_bits(r, ref_x));
}

// Many lines (lines in parallel, each in order), non-reorderable ops (always in order) and
// integers: the cpu bits, whatever the layout.
TEST(Accumulate, LinesInParallelMatchCpuBitwise) {
  auto& rt = runtime();
  const Array m = random_array({64, 5000}, DType::float32, 8);
  for (int axis : {0, 1}) {
    EXPECT_TRUE(same_bits(accumulate(rt, "t_plus", m, "parallel", axis),
                          accumulate(rt, "t_plus", m, "cpu", axis)));
    EXPECT_TRUE(same_bits(accumulate(rt, "t_minus", m, "parallel", axis),
                          accumulate(rt, "t_minus", m, "cpu", axis)));
  }
  const Array t = random_array({300, 40, 50}, DType::float64, 9).transpose();
  for (int axis : {0, 1, 2}) {
    EXPECT_TRUE(same_bits(accumulate(rt, "t_plus", t, "parallel", axis),
                          accumulate(rt, "t_plus", t, "cpu", axis)));
  }
  // Non-reorderable over one long line and a few: in order, never in blocks.
  const Array line = random_array({1'000'001}, DType::float64, 10);
  EXPECT_TRUE(same_bits(accumulate(rt, "t_minus", line, "parallel"),
                        accumulate(rt, "t_minus", line, "cpu")));
  const Array few = random_array({3, 200'000}, DType::float32, 11);
  EXPECT_TRUE(same_bits(accumulate(rt, "t_minus", few, "parallel", 1),
                        accumulate(rt, "t_minus", few, "cpu", 1)));
  const Array ints = random_array({40, 30'000}, DType::int64, 12, -1e6, 1e6, true);
  EXPECT_TRUE(same_bits(accumulate(rt, "t_minus", ints, "parallel", 1),
                        accumulate(rt, "t_minus", ints, "cpu", 1)));
  // Empty lines and no lines.
  for (const loom::Shape& s : {loom::Shape{0, 5}, loom::Shape{5, 0}}) {
    const Array e = loom::zeros(s, DType::float32);
    EXPECT_TRUE(same_bits(accumulate(rt, "t_plus", e, "parallel", 1),
                          accumulate(rt, "t_plus", e, "cpu", 1)));
  }
}

// The in-order rule itself, on a small case: out[i] = ((x0 - x1) - ...) - xi.
TEST(Accumulate, NonReorderableIsTheLeftFold) {
  const Array x = random_array({100'000}, DType::float64, 13);
  const std::vector<double> got =
      accumulate(runtime(), "t_minus", x, "parallel").to_vector<double>();
  const std::vector<double> v = x.to_vector<double>();
  double a = v[0];
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i > 0) a = a - v[i];
    ASSERT_EQ(got[i], a) << i;
  }
}

// ---------------------------------------------------------------------------------------------
// at

// With fewer than tb::kAtMinThreads threads at runs serially; these tests want its parallel paths
// whatever the machine, so they ask for 8 threads.
loom::Runtime& at_runtime() {
  static loom::Runtime rt(options(8));
  return rt;
}

std::vector<std::int64_t> random_indices(std::int64_t m, std::int64_t rows, unsigned seed,
                                         bool negative = false) {
  std::mt19937_64 gen(seed);
  std::uniform_int_distribution<std::int64_t> u(0, rows - 1);
  std::vector<std::int64_t> v(static_cast<std::size_t>(m));
  for (auto& i : v) {
    i = u(gen);
    if (negative && (i & 1)) i -= rows;  // the same row, counted from the end
  }
  return v;
}

// a.at(idx, b) on a copy of `a` per target; the two results must have the same bits.
::testing::AssertionResult at_matches_cpu(const loom::Runtime& rt, const char* op, const Array& a,
                                          const Array& idx, const Array& b) {
  const Array on_cpu = a.copy(), on_par = a.copy();
  rt.ufunc(op).at(on_cpu, idx, b, {.target = "cpu"});
  rt.ufunc(op).at(on_par, idx, b, {.target = "parallel"});
  return same_bits(on_par, on_cpu);
}

TEST(At, OrderedFloatsMatchCpuBitwise) {
  auto& rt = at_runtime();
  const std::int64_t m = 2'000'000;
  const Array b = random_array({m}, DType::float64, 20);
  // Many bins (the ordered path's 256 buckets), a few (repeats in every bucket), one.
  for (std::int64_t rows : {100'000, 1000, 37, 1}) {
    const Array a = random_array({rows}, DType::float64, 21);
    const Array idx = loom::from_vector(random_indices(m, rows, 22, true));
    EXPECT_TRUE(at_matches_cpu(rt, "t_minus", a, idx, b)) << rows;
    EXPECT_TRUE(
        at_matches_cpu(rt, "t_minus", a.astype(DType::float32), idx, b.astype(DType::float32)))
        << rows;
  }
  // A reorderable op with fewer than 4 updates per row takes the ordered path too (no private
  // bins), as does the last row of a long range updated alone.
  const Array big = random_array({700'000}, DType::float64, 27);
  EXPECT_TRUE(at_matches_cpu(rt, "t_plus", big,
                             loom::from_vector(random_indices(m, 700'000, 28, true)), b));
  const Array a = random_array({50'000}, DType::float64, 23);
  const Array last = loom::from_vector(std::vector<std::int64_t>(100'000, 49'999));
  EXPECT_TRUE(at_matches_cpu(rt, "t_plus", a, last, random_array({100'000}, DType::float64, 24)));
  // b broadcast from a scalar, b strided, int32 indices.
  const Array idx = loom::from_vector(random_indices(m, 50'000, 25));
  EXPECT_TRUE(at_matches_cpu(rt, "t_minus", a, idx, Array(0.1)));
  const Array wide = random_array({2 * m}, DType::float64, 26);
  EXPECT_TRUE(at_matches_cpu(rt, "t_minus", a, idx, wide.slice(0, 0, 2 * m, 2)));
  EXPECT_TRUE(at_matches_cpu(rt, "t_minus", a, idx.astype(DType::int32), b));
}

// Private bins (a reorderable float op, at least 4 updates per row): every update of a row takes
// part in one rounding (into its part's bin, the first one exact from the identity, or the bin's
// into a), so a row of n updates is within the serial loop's bound, |err| <= gamma_n * (|a_i| +
// sum |b|) <= (n_i + 1) * eps * (|a_i| + sum |b|); rows no update touches keep
// their bits (-0.0 stays -0.0); the bits are the same with any thread count, on every run and from
// inside a parallel region; max (exact in any order) gives the cpu bits.
template <class T>
void check_private_bins(std::int64_t rows, std::int64_t m, unsigned seed) {
  const DType dt = std::is_same_v<T, float> ? DType::float32 : DType::float64;
  std::vector<std::int64_t> iv = random_indices(m, rows, seed);
  const std::int64_t skip = rows / 2;  // a row no update touches (when there are 3 or more)
  if (rows > 2) {
    for (auto& i : iv) i += i == skip ? 1 : 0;
  }
  const Array idx = loom::from_vector(iv);
  const Array b = random_array({m}, dt, seed + 1, -1e3, 1e3);
  const Array a = random_array({rows}, dt, seed + 2);
  if (rows > 2) reinterpret_cast<T*>(a.data())[skip] = T(-0.0);
  std::vector<long double> exact(rows), mag(rows), n(rows, 0);
  const std::vector<T> av = a.to_vector<T>(), bv = b.to_vector<T>();
  for (std::int64_t r = 0; r < rows; ++r) exact[r] = av[r], mag[r] = std::fabs(av[r]);
  for (std::int64_t j = 0; j < m; ++j) {
    exact[iv[j]] += bv[j], mag[iv[j]] += std::fabs(bv[j]), n[iv[j]] += 1;
  }
  loom::Runtime one(options(1));
  const Array ref = a.copy();
  one.ufunc("t_plus").at(ref, idx, b, {.target = "parallel"});
  const std::vector<T> got = ref.to_vector<T>();
  const long double eps = std::numeric_limits<T>::epsilon();
  for (std::int64_t r = 0; r < rows; ++r) {
    ASSERT_LE(std::fabs(got[r] - exact[r]), (n[r] + 1) * eps * mag[r]) << r;
  }
  if (rows > 2) {
    EXPECT_TRUE(std::signbit(got[skip]) && got[skip] == 0) << "untouched -0.0";
  }
  for (int threads : {2, 3, 8}) {
    loom::Runtime rt(options(threads));
    for (int run = 0; run < 2; ++run) {
      const Array again = a.copy();
      rt.ufunc("t_plus").at(again, idx, b, {.target = "parallel"});
      EXPECT_TRUE(same_bits(again, ref)) << threads << " threads, rows " << rows;
    }
  }
  std::vector<Array> nested(3);
  tbb::parallel_for(0, 3, [&](int i) {
    nested[i] = a.copy();
    at_runtime().ufunc("t_plus").at(nested[i], idx, b, {.target = "parallel"});
  });
  for (const auto& r : nested) EXPECT_TRUE(same_bits(r, ref)) << "nested, rows " << rows;
  EXPECT_TRUE(at_matches_cpu(at_runtime(), "t_maximum", a, idx, b)) << rows;
}

TEST(At, PrivateBinsAreAccurateAndDeterministic) {
  for (std::int64_t rows : {100'000, 1000, 37, 1}) {
    check_private_bins<double>(rows, 2'000'000, 20);
    check_private_bins<float>(rows, 1'000'000, 30);
  }
}

// The order of the updates matters for a float add: where the parallel path keeps the order
// (fewer than 4 updates per row, or an op that is not reorderable) its result is np.add.at's
// left-to-right one, checked against a plain loop.
TEST(At, FloatUpdatesApplyInOrder) {
  for (const char* op : {"t_plus", "t_minus"}) {
    const std::int64_t m = 500'000, rows = std::string(op) == "t_plus" ? 300'000 : 3000;
    const std::vector<std::int64_t> iv = random_indices(m, rows, 27);
    const Array b = random_array({m}, DType::float32, 28, -1e4, 1e4);
    Array a = random_array({rows}, DType::float32, 29);
    std::vector<float> want = a.to_vector<float>();
    const std::vector<float> bv = b.to_vector<float>();
    const bool plus = std::string(op) == "t_plus";
    for (std::int64_t j = 0; j < m; ++j) {
      want[iv[j]] = plus ? want[iv[j]] + bv[j] : want[iv[j]] - bv[j];
    }
    at_runtime().ufunc(op).at(a, loom::from_vector(iv), b, {.target = "parallel"});
    EXPECT_EQ(a.to_vector<float>(), want) << op;
  }
}

TEST(At, IntegersMatchCpuBitwise) {
  auto& rt = at_runtime();
  const std::int64_t m = 1'000'000;
  const double lo = -2147483648.0, hi = 2147483648.0;
  // Under 4 updates per row over a wide range: atomics; more per row: private bins; sums wrap.
  for (std::int64_t rows : {400'000, 200'000, 5000, 100}) {
    const Array idx = loom::from_vector(random_indices(m, rows, 30));
    const Array a = random_array({rows}, DType::int32, 31, lo, hi, true);
    const Array b = random_array({m}, DType::int32, 32, lo, hi, true);
    EXPECT_TRUE(at_matches_cpu(rt, "t_plus", a, idx, b)) << rows;
    EXPECT_TRUE(at_matches_cpu(rt, "t_minus", a, idx, b)) << rows;
    const Array a64 = random_array({rows}, DType::int64, 33, -1e15, 1e15, true);
    const Array b64 = random_array({m}, DType::int64, 34, -1e15, 1e15, true);
    EXPECT_TRUE(at_matches_cpu(rt, "t_plus", a64, idx, b64)) << rows;
    EXPECT_TRUE(at_matches_cpu(rt, "t_maximum", a64, idx, b64)) << rows;
  }
}

// a with more than one dim: each update is a sub-array (short rows: the ordered buckets; long
// rows: split over the row's elements), and a 0-d index (one update).
TEST(At, SubArraysMatchCpuBitwise) {
  auto& rt = at_runtime();
  const Array a = random_array({4000, 3}, DType::float64, 40);
  const std::int64_t m = 300'000;
  const Array idx = loom::from_vector(random_indices(m, 4000, 41, true));
  EXPECT_TRUE(at_matches_cpu(rt, "t_plus", a, idx, random_array({m, 3}, DType::float64, 42)));
  EXPECT_TRUE(at_matches_cpu(rt, "t_minus", a, idx, random_array({3}, DType::float64, 43)));
  const Array ai = random_array({4000, 3}, DType::int64, 44, -100, 100, true);
  EXPECT_TRUE(at_matches_cpu(rt, "t_plus", ai, idx,
                             random_array({m, 3}, DType::int64, 45, -100, 100, true)));
  const Array wide = random_array({10, 20'000}, DType::float32, 46);
  const Array few = loom::from_vector(random_indices(60, 10, 47));
  EXPECT_TRUE(
      at_matches_cpu(rt, "t_plus", wide, few, random_array({60, 20'000}, DType::float32, 48)));
  EXPECT_TRUE(at_matches_cpu(rt, "t_minus", wide.transpose().copy().transpose(), few,
                             random_array({20'000}, DType::float32, 49)));
  EXPECT_TRUE(at_matches_cpu(rt, "t_plus", wide, Array(std::int64_t{3}),
                             random_array({20'000}, DType::float32, 50)));
}

// The ordered path's result does not depend on the thread count (it is the cpu's with any).
TEST(At, AnyThreadCountGivesTheCpuBits) {
  const std::int64_t m = 400'000;
  const Array idx = loom::from_vector(random_indices(m, 70'000, 51));
  const Array a = random_array({70'000}, DType::float32, 52);
  const Array b = random_array({m}, DType::float32, 53);
  for (int threads : {1, 2, 4, 7}) {
    loom::Runtime rt(options(threads));
    EXPECT_TRUE(at_matches_cpu(rt, "t_minus", a, idx, b)) << threads;
  }
}

// ---------------------------------------------------------------------------------------------
// reduce of a non-reorderable op: split over the outputs only, each one folded in order.

TEST(OrderedReduce, MatchesCpuBitwise) {
  auto& rt = runtime();
  const auto minus = rt.ufunc("t_minus");
  const Array m = random_array({2048, 1024}, DType::float64, 60);
  for (int axis : {0, 1}) {
    EXPECT_TRUE(same_bits(minus.reduce(m, {.target = "parallel", .axis = axis}),
                          minus.reduce(m, {.target = "cpu", .axis = axis})))
        << axis;
  }
  // One long output (never split) and few outputs over a long axis.
  const Array line = random_array({1'000'001}, DType::float32, 61);
  EXPECT_TRUE(
      same_bits(minus.reduce(line, {.target = "parallel"}), minus.reduce(line, {.target = "cpu"})));
  const Array few = random_array({3, 300'000}, DType::float64, 62);
  EXPECT_TRUE(same_bits(minus.reduce(few, {.target = "parallel", .axis = 1}),
                        minus.reduce(few, {.target = "cpu", .axis = 1})));
  const Array cube = random_array({40, 300, 50}, DType::float32, 63).transpose();
  for (int axis : {0, 1, 2}) {
    EXPECT_TRUE(same_bits(minus.reduce(cube, {.target = "parallel", .axis = axis}),
                          minus.reduce(cube, {.target = "cpu", .axis = axis})))
        << axis;
  }
  const Array ints = random_array({500, 3000}, DType::int64, 64, -1e6, 1e6, true);
  EXPECT_TRUE(same_bits(minus.reduce(ints, {.target = "parallel", .axis = 1}),
                        minus.reduce(ints, {.target = "cpu", .axis = 1})));
}

// NumPy's rule for a non-reorderable reduce: (((x0 - x1) - x2) - ...) per output.
TEST(OrderedReduce, IsTheLeftFoldPerRow) {
  const Array m = random_array({256, 4096}, DType::float64, 65);
  const std::vector<double> got =
      runtime().ufunc("t_minus").reduce(m, {.target = "parallel", .axis = 1}).to_vector<double>();
  const std::vector<double> v = m.to_vector<double>();
  for (int r = 0; r < 256; ++r) {
    double a = v[r * 4096];
    for (int j = 1; j < 4096; ++j) a = a - v[r * 4096 + j];
    ASSERT_EQ(got[r], a) << "row " << r;
  }
}

}  // namespace
