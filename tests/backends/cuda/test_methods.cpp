// The ufunc methods and where= on target cuda, through the public API, with host arrays (copied in
// and out by the call) and device arrays (results stay on the device), against target cpu:
// - non-reorderable ops (subtract, divide) fold and scan strictly in order: the same bits as cpu;
// - integer results of reorderable ops (add, multiply, maximum) do not depend on the order: the
//   same bits as cpu, also for at()'s atomics;
// - float results of reorderable ops are regrouped (trees, tile scans, atomics): within the bound
//   `float_bound` states, against a float64 reference;
// - accumulate is deterministic: the same call twice gives the same bits.
// Every test skips with the reason where there is no usable GPU.
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <variant>
#include <vector>

#include "helpers.hpp"

namespace loom_cuda_test {
namespace {

#define REQUIRE_CUDA() \
  std::string why;     \
  if (!cuda_backend(&why)) GTEST_SKIP() << "cuda target unavailable: " << why

using loom::AccumulateOptions;
using loom::AtOptions;
using loom::CallOptions;
using loom::ReduceOptions;

constexpr DType kFloats[] = {DType::float32, DType::float64};
constexpr DType kInts[] = {DType::int32, DType::int64, DType::uint64};

loom::Ufunc uf(const std::string& name) { return runtime().ufunc(name); }

// The two ways a cuda call takes its arrays: host arrays (the call copies them in and the result
// out) or device arrays (the result stays on the device and is brought back here).
enum class Mem { host, device };
const char* name(Mem m) { return m == Mem::host ? "host arrays" : "device arrays"; }
Array put(const Array& a, Mem m) { return m == Mem::host ? a : runtime().to_device(a, "cuda"); }
Array back(const Array& a) { return a.device().is_host() ? a : runtime().to_host(a); }

// Integers in [-50, 50) (exact in every dtype and op here), or uniform floats in [-1, 1).
Array values(const Shape& shape, DType dt, unsigned seed) {
  const bool integer = loom::kind(dt) != loom::Kind::floating;
  const double lo = dt == DType::uint64 ? 0.0 : (integer ? -50.0 : -1.0);
  return random_array(shape, dt, seed, lo, integer ? 50.0 : 1.0, integer);
}

// Floats regrouped by a tree, a tile scan or atomics differ from cpu's order by rounding alone:
// each result r of a fold of values x_1..x_k (a sum) satisfies |r - exact| <= c * eps * sum |x_i|,
// with c the depth of the grouping: at most log2(k) levels of the trees and, for the tile scan,
// I + 5 + 7 levels in a tile, 5 + 5 over tiles and groups, and two per super-group before it:
// c = 64 + k / 2^20 (tree_bound) covers every size used here. Atomic updates add in some order,
// one after the other: c = 2 k for k updates of one element (the reference's own error counted).
// A wrong element, index or carry is off by O(1), far beyond either.
double tree_bound(std::int64_t k) { return 64.0 + static_cast<double>(k) / (1 << 20); }
::testing::AssertionResult within_float_bound(const Array& got, const Array& ref64,
                                              const Array& abs_sum, double c) {
  const auto g = got.astype(DType::float64).to_vector<double>();
  const auto r = ref64.to_vector<double>();
  const auto a = abs_sum.to_vector<double>();
  const double eps = got.dtype() == DType::float32 ? std::numeric_limits<float>::epsilon()
                                                   : std::numeric_limits<double>::epsilon();
  for (std::size_t i = 0; i < g.size(); ++i) {
    const double tol = c * eps * a[i] + std::numeric_limits<double>::min();
    if (!(std::abs(g[i] - r[i]) <= tol)) {
      return ::testing::AssertionFailure() << "element " << i << ": " << g[i] << " vs reference "
                                           << r[i] << " (bound " << tol << ", " << got.str() << ")";
    }
  }
  return ::testing::AssertionSuccess();
}

// ---- reduce ----------------------------------------------------------------------------------

TEST(CudaMethods, OrderedReduceEqualsCpuBitForBit) {
  REQUIRE_CUDA();
  // NumPy: subtract.reduce along an axis is (((x0 - x1) - x2) - ...), divide's likewise.
  const Shape shape{37, 129, 5};
  for (Mem mem : {Mem::host, Mem::device}) {
    for (const char* op : {"subtract", "divide"}) {
      for (DType dt : {DType::int32, DType::int64, DType::uint64, DType::float32, DType::float64}) {
        if (std::string(op) == "divide" && loom::kind(dt) != loom::Kind::floating) continue;
        Array x = values(shape, dt, 11);
        if (std::string(op) == "divide") x = random_array(shape, dt, 12, 0.5, 2.0);
        for (int axis : {0, 1, 2, -1}) {
          const Array want = uf(op).reduce(x, {.target = "cpu", .axis = axis});
          const Array got = back(uf(op).reduce(put(x, mem), {.target = "cuda", .axis = axis}));
          EXPECT_TRUE(same_bits(got, want))
              << op << " " << loom::name(dt) << " axis " << axis << ", " << name(mem);
        }
        // A transposed, strided view, and keepdims.
        const Array v = x.slice(1, 120, 2, -3).transpose();
        const Array want = uf(op).reduce(v, {.target = "cpu", .axis = 1, .keepdims = true});
        const Array got =
            back(uf(op).reduce(mem == Mem::host ? v : put(x, mem).slice(1, 120, 2, -3).transpose(),
                               {.target = "cuda", .axis = 1, .keepdims = true}));
        EXPECT_TRUE(same_bits(got, want))
            << op << " " << loom::name(dt) << " strided view, " << name(mem);
      }
    }
  }
}

TEST(CudaMethods, OrderedReduceWithInitialAndLongRows) {
  REQUIRE_CUDA();
  // initial= joins the fold as its first element: ((init - x0) - x1) ...
  const Array x = values({3, 100000}, DType::float64, 13);
  for (Mem mem : {Mem::host, Mem::device}) {
    for (int axis : {0, 1}) {
      const Array want = uf("subtract").reduce(x, {.target = "cpu", .axis = axis, .initial = 2.5});
      const Array got = back(
          uf("subtract").reduce(put(x, mem), {.target = "cuda", .axis = axis, .initial = 2.5}));
      EXPECT_TRUE(same_bits(got, want)) << "axis " << axis << ", " << name(mem);
    }
  }
}

TEST(CudaMethods, OrderedReduceOverSeveralAxesIsRefused) {
  REQUIRE_CUDA();
  const Array x = runtime().to_device(values({4, 5, 6}, DType::float64, 14), "cuda");
  EXPECT_THROW((void)uf("subtract").reduce(x, {.target = "cuda", .axis = {0, 2}}),
               loom::ValueError);
  EXPECT_THROW((void)uf("subtract").reduce(x, {.target = "cuda", .axis = loom::all_axes}),
               loom::ValueError);
}

TEST(CudaMethods, ReorderableReduceMatchesCpu) {
  REQUIRE_CUDA();
  const Shape shape{64, 3001};
  for (Mem mem : {Mem::host, Mem::device}) {
    for (DType dt : kInts) {
      const Array x = values(shape, dt, 15);
      for (const char* op : {"add", "multiply", "maximum", "minimum"}) {
        for (int axis : {0, 1}) {
          const Array want = uf(op).reduce(x, {.target = "cpu", .axis = axis});
          const Array got = back(uf(op).reduce(put(x, mem), {.target = "cuda", .axis = axis}));
          EXPECT_TRUE(same_bits(got, want))
              << op << " " << loom::name(dt) << " axis " << axis << ", " << name(mem);
        }
      }
    }
    for (DType dt : kFloats) {
      const Array x = values(shape, dt, 16);
      const Array x64 = x.astype(DType::float64);
      const Array ax = uf("abs")(x64);
      for (int axis : {0, 1}) {
        const Array got = back(uf("add").reduce(put(x, mem), {.target = "cuda", .axis = axis}));
        const Array ref = uf("add").reduce(x64, {.target = "cpu", .axis = axis});
        const Array abs_sum = uf("add").reduce(ax, {.target = "cpu", .axis = axis});
        EXPECT_TRUE(within_float_bound(got, ref, abs_sum, tree_bound(shape[axis])))
            << loom::name(dt) << " axis " << axis << ", " << name(mem);
        // max and min pick an element: exact.
        for (const char* op : {"maximum", "minimum"}) {
          const Array want = uf(op).reduce(x, {.target = "cpu", .axis = axis});
          const Array g = back(uf(op).reduce(put(x, mem), {.target = "cuda", .axis = axis}));
          EXPECT_TRUE(same_bits(g, want)) << op << " " << loom::name(dt) << ", " << name(mem);
        }
      }
    }
  }
}

// ---- accumulate ------------------------------------------------------------------------------

TEST(CudaMethods, OrderedAccumulateEqualsCpuBitForBit) {
  REQUIRE_CUDA();
  const Shape shape{23, 301, 7};
  for (Mem mem : {Mem::host, Mem::device}) {
    for (DType dt : {DType::int32, DType::int64, DType::float32, DType::float64}) {
      const Array x = values(shape, dt, 17);
      for (int axis : {0, 1, 2}) {
        const Array want = uf("subtract").accumulate(x, {.target = "cpu", .axis = axis});
        const Array got =
            back(uf("subtract").accumulate(put(x, mem), {.target = "cuda", .axis = axis}));
        EXPECT_TRUE(same_bits(got, want))
            << loom::name(dt) << " axis " << axis << ", " << name(mem);
      }
    }
    const Array d = random_array({5, 4000}, DType::float64, 18, 0.9, 1.1);
    const Array want = uf("divide").accumulate(d, {.target = "cpu", .axis = 1});
    EXPECT_TRUE(
        same_bits(back(uf("divide").accumulate(put(d, mem), {.target = "cuda", .axis = 1})), want))
        << name(mem);
  }
}

// Long lines in order: a block per line streams them through shared memory (few or long lines,
// contiguous or strided) and still folds strictly left to right.
TEST(CudaMethods, OrderedLongLinesEqualCpuBitForBit) {
  REQUIRE_CUDA();
  struct Case {
    Shape shape;
    int axis;
    DType dt;
  };
  const Case cases[] = {
      {{(1 << 20) + 3}, 0, DType::float64},  // one long line
      {{3'000'001}, 0, DType::float32},      //
      {{3000, 5}, 0, DType::int32},          // few lines, strided
      {{2000, 600}, 0, DType::float32},      // lines not innermost, not many
      {{600, 2000}, 1, DType::float64},      // many contiguous lines
  };
  for (Mem mem : {Mem::host, Mem::device}) {
    for (const Case& c : cases) {
      const Array x = values(c.shape, c.dt, 55);
      const Array want = uf("subtract").accumulate(x, {.target = "cpu", .axis = c.axis});
      const Array got =
          back(uf("subtract").accumulate(put(x, mem), {.target = "cuda", .axis = c.axis}));
      EXPECT_TRUE(same_bits(got, want))
          << "accumulate " << x.str() << " axis " << c.axis << ", " << name(mem);
      const Array rw = uf("subtract").reduce(x, {.target = "cpu", .axis = c.axis});
      const Array rg = back(uf("subtract").reduce(put(x, mem), {.target = "cuda", .axis = c.axis}));
      EXPECT_TRUE(same_bits(rg, rw))
          << "reduce " << x.str() << " axis " << c.axis << ", " << name(mem);
    }
  }
}

// The tile scan across two super-groups of one line, small enough for compute-sanitizer.
TEST(CudaMethods, TileScanAcrossSuperGroups) {
  REQUIRE_CUDA();
  const Array x = values({(1 << 21) + 5}, DType::int32, 56);
  const Array want = uf("add").accumulate(x, {.target = "cpu"});
  EXPECT_TRUE(same_bits(back(uf("add").accumulate(put(x, Mem::device), {.target = "cuda"})), want));
}

// Integer scans are exact in any grouping: every path of the reorderable scan (tile scans over
// one long line with several super-groups, over several lines, strided; thread per line) gives
// cpu's bits.
TEST(CudaMethods, IntegerAccumulateEqualsCpuOnEveryPath) {
  REQUIRE_CUDA();
  struct Case {
    Shape shape;
    int axis;
    DType dt;
  };
  const Case cases[] = {
      {{5'000'013}, 0, DType::int32},   // 2443 tiles: three super-groups
      {{3'300'001}, 0, DType::int64},   // 3223 tiles of 1024: four super-groups
      {{2'100'000}, 0, DType::uint64},  //
      {{3, 700'001}, 1, DType::int64},  // a few long lines
      {{300, 5000}, 1, DType::int32},   // many lines, tiles
      {{5000, 300}, 0, DType::int32},   // many lines not innermost: thread per line
      {{20000, 40}, 1, DType::int64},   // short lines: thread per line
      {{40, 9000}, 0, DType::int64},    // few lines not innermost: tiles, strided
      {{7, 11, 513}, 2, DType::int32},  //
      {{1}, 0, DType::int32},           //
  };
  for (Mem mem : {Mem::host, Mem::device}) {
    for (const Case& c : cases) {
      const Array x = values(c.shape, c.dt, 19);
      for (const char* op : {"add", "maximum", "multiply"}) {
        const Array want = uf(op).accumulate(x, {.target = "cpu", .axis = c.axis});
        const Array got = back(uf(op).accumulate(put(x, mem), {.target = "cuda", .axis = c.axis}));
        EXPECT_TRUE(same_bits(got, want))
            << op << " " << x.str() << " axis " << c.axis << ", " << name(mem);
      }
    }
  }
  // A strided, reversed input line.
  const Array x = values({1'000'001}, DType::int64, 20);
  const Array v = x.slice(0, 1'000'000, 0, -3);
  const Array want = uf("add").accumulate(v, {.target = "cpu"});
  EXPECT_TRUE(
      same_bits(back(uf("add").accumulate(runtime().to_device(x, "cuda").slice(0, 1'000'000, 0, -3),
                                          {.target = "cuda"})),
                want));
}

TEST(CudaMethods, FloatAccumulateWithinBoundAndDeterministic) {
  REQUIRE_CUDA();
  auto& rt = runtime();
  for (DType dt : kFloats) {
    for (const Shape& shape : {Shape{4'500'007}, Shape{3, 300'000}, Shape{700, 3000}}) {
      const int axis = static_cast<int>(shape.size()) - 1;
      const Array x = values(shape, dt, 21);
      const Array x64 = x.astype(DType::float64);
      const Array dx = rt.to_device(x, "cuda");
      const Array got = back(uf("add").accumulate(dx, {.target = "cuda", .axis = axis}));
      // The reference in float64 (exact enough: its own error is below float32's bound, and for
      // float64 inputs the bound's 64 eps covers cpu's sequential error on these sizes' prefixes
      // only through the sum of magnitudes, which it uses).
      const Array ref = uf("add").accumulate(x64, {.target = "cpu", .axis = axis});
      const Array abs_sum = uf("add").accumulate(uf("abs")(x64), {.target = "cpu", .axis = axis});
      if (dt == DType::float32) {
        EXPECT_TRUE(within_float_bound(got, ref, abs_sum, tree_bound(shape[axis]))) << x.str();
      } else {
        // float64: the reference is itself a sequential float64 scan (error up to n eps sum|x|);
        // compare with the bound widened by the reference's own.
        const auto g = got.to_vector<double>(), r = ref.to_vector<double>();
        const auto a = abs_sum.to_vector<double>();
        const double eps = std::numeric_limits<double>::epsilon();
        const std::int64_t n = shape[axis];
        for (std::size_t i = 0; i < g.size(); ++i) {
          const double tol = (64.0 + static_cast<double>(n)) * eps * a[i] + 1e-300;
          ASSERT_LE(std::abs(g[i] - r[i]), tol) << "element " << i << " of " << x.str();
        }
      }
      // Deterministic: the same call again, and with host arrays, gives the same bits.
      const Array again = back(uf("add").accumulate(dx, {.target = "cuda", .axis = axis}));
      EXPECT_TRUE(same_bits(again, got)) << x.str();
      const Array host = uf("add").accumulate(x, {.target = "cuda", .axis = axis});
      EXPECT_TRUE(same_bits(host, got)) << x.str();
    }
  }
}

// ---- reduceat, outer -------------------------------------------------------------------------

TEST(CudaMethods, ReduceatAndOuterMatchCpu) {
  REQUIRE_CUDA();
  const Array idx = loom::array<std::int64_t>({0, 5, 5, 3, 100, 101, 250});
  for (Mem mem : {Mem::host, Mem::device}) {
    for (DType dt : {DType::int64, DType::float64, DType::float32}) {
      const Array x = values({300, 6}, dt, 22);
      for (const char* op : {"subtract", "add", "maximum"}) {
        const bool exact = loom::kind(dt) != loom::Kind::floating || std::string(op) != "add";
        const Array want = uf(op).reduceat(x, idx, {.target = "cpu", .axis = 0});
        const Array got =
            back(uf(op).reduceat(put(x, mem), put(idx, mem), {.target = "cuda", .axis = 0}));
        if (exact) {
          EXPECT_TRUE(same_bits(got, want)) << op << " " << loom::name(dt) << ", " << name(mem);
        } else {
          EXPECT_TRUE(close(got, want, 1e-5)) << op << " " << loom::name(dt) << ", " << name(mem);
        }
      }
      const Array a = values({13, 2}, dt, 23), b = values({17}, dt, 24);
      for (const char* op : {"subtract", "add", "multiply"}) {
        const Array want = uf(op).outer(a, b, {.target = "cpu"});
        const Array got = back(uf(op).outer(put(a, mem), put(b, mem), {.target = "cuda"}));
        EXPECT_EQ(got.shape(), (Shape{13, 2, 17}));
        EXPECT_TRUE(same_bits(got, want)) << op << " " << loom::name(dt) << ", " << name(mem);
      }
    }
  }
}

// ---- at --------------------------------------------------------------------------------------

// a.at(idx, b) on both targets from the same start; returns {cuda's, cpu's} a (host copies).
std::pair<Array, Array> run_at(const char* op, const Array& a0, const Array& idx, const Array& b,
                               Mem mem) {
  Array cpu = a0.copy();
  uf(op).at(cpu, idx, b, {.target = "cpu"});
  Array dev = put(a0.copy(), mem);
  uf(op).at(dev, put(idx, mem), put(b, mem), {.target = "cuda"});
  return {back(dev), cpu};
}

Array random_indices(std::int64_t m, std::int64_t n, unsigned seed, bool negative = false) {
  std::mt19937_64 gen(seed);
  std::uniform_int_distribution<std::int64_t> u(negative ? -n : 0, n - 1);
  std::vector<std::int64_t> v(static_cast<std::size_t>(m));
  for (auto& i : v) i = u(gen);
  return loom::from_vector(v);
}

TEST(CudaMethods, AtIntegersEqualCpuBitForBit) {
  REQUIRE_CUDA();
  // Atomics (add: native atomicAdd; multiply, maximum: compare-and-swap) in any order give the
  // integer result of the ordered updates; subtract runs ordered (sorted by index, stable).
  const Array idx = random_indices(1'000'000, 1000, 25, true);
  for (Mem mem : {Mem::host, Mem::device}) {
    for (DType dt : kInts) {
      const Array a0 = values({1000}, dt, 26);
      const Array b = values({1'000'000}, dt, 27);
      for (const char* op : {"add", "subtract", "maximum", "minimum"}) {
        const auto [got, want] = run_at(op, a0, idx, b, mem);
        EXPECT_TRUE(same_bits(got, want)) << op << " " << loom::name(dt) << ", " << name(mem);
      }
      // multiply wraps: few updates per element keep the values varied.
      const Array small = random_indices(3000, 1000, 28);
      const auto [got, want] = run_at("multiply", a0, small, values({3000}, dt, 29), mem);
      EXPECT_TRUE(same_bits(got, want)) << "multiply " << loom::name(dt) << ", " << name(mem);
    }
  }
}

TEST(CudaMethods, AtFloats) {
  REQUIRE_CUDA();
  const std::int64_t m = 2'000'000, bins = 5000;
  const Array idx = random_indices(m, bins, 30);
  for (Mem mem : {Mem::host, Mem::device}) {
    for (DType dt : kFloats) {
      const Array a0 = values({bins}, dt, 31);
      const Array b = values({m}, dt, 32);
      // Non-reorderable ops run in order: cpu's bits. max/min pick elements: exact.
      for (const char* op : {"subtract", "maximum", "minimum"}) {
        const auto [got, want] = run_at(op, a0, idx, b, mem);
        EXPECT_TRUE(same_bits(got, want)) << op << " " << loom::name(dt) << ", " << name(mem);
      }
      const auto d = run_at("divide", random_array({bins}, dt, 33, 1, 2), idx,
                            random_array({m}, dt, 34, 0.999, 1.001), mem);
      EXPECT_TRUE(same_bits(d.first, d.second)) << "divide " << loom::name(dt) << ", " << name(mem);
      // add: atomics in any order, within the bound against a float64 reference.
      const auto [got, want] = run_at("add", a0, idx, b, mem);
      Array ref = a0.astype(DType::float64);
      uf("add").at(ref, idx, b.astype(DType::float64), {.target = "cpu"});
      Array abs_sum = uf("abs")(a0.astype(DType::float64));
      uf("add").at(abs_sum, idx, uf("abs")(b.astype(DType::float64)), {.target = "cpu"});
      EXPECT_TRUE(within_float_bound(got, ref, abs_sum, 2.0 * 3 * m / bins))
          << loom::name(dt) << ", " << name(mem);
    }
  }
}

// Device indices are checked on the device in front of the updates (the index gate): an index
// outside [-n, n) is an IndexError naming the first one in order, as NumPy's, and a is unchanged
// on every path (atomics, ordered); negative ones in range count from the end.
TEST(CudaMethods, AtDeviceIndicesOutOfBoundsLeaveTheArrayUnchanged) {
  REQUIRE_CUDA();
  const Array a0 = values({100}, DType::float64, 41);
  const Array b = values({6}, DType::float64, 42);
  for (const char* op : {"add", "subtract", "maximum"}) {
    for (std::int64_t bad : {std::int64_t{100}, std::int64_t{-101}, std::int64_t{1} << 40}) {
      const Array idx = loom::from_vector(std::vector<std::int64_t>{3, -1, bad, 7, 250, 0});
      Array dev = put(a0.copy(), Mem::device);
      try {
        uf(op).at(dev, put(idx, Mem::device), put(b, Mem::device), {.target = "cuda"});
        ADD_FAILURE() << op << " accepted index " << bad;
      } catch (const loom::IndexError& e) {
        EXPECT_NE(std::string(e.what()).find("index " + std::to_string(bad) + " is out of bounds"),
                  std::string::npos)
            << e.what();
      }
      EXPECT_TRUE(same_bits(back(dev), a0)) << op << " wrote with bad index " << bad;
    }
    // In range, negative ones included: the cpu result.
    const Array ok = loom::from_vector(std::vector<std::int64_t>{3, -1, -100, 7, 99, 3});
    const auto [got, want] = run_at(op, a0, ok, b, Mem::device);
    EXPECT_TRUE(same_bits(got, want)) << op;
  }
}

TEST(CudaMethods, AtWithTrailingDimsAndScalarIndex) {
  REQUIRE_CUDA();
  for (Mem mem : {Mem::host, Mem::device}) {
    const Array a0 = values({50, 7, 3}, DType::int64, 35);
    const Array idx = random_indices(4000, 50, 36);
    const Array b = values({4000, 7, 3}, DType::int64, 37);
    for (const char* op : {"add", "subtract"}) {
      const auto [got, want] = run_at(op, a0, idx, b, mem);
      EXPECT_TRUE(same_bits(got, want)) << op << ", " << name(mem);
      // b broadcast along the indices.
      const auto [g2, w2] = run_at(op, a0, idx, values({7, 1}, DType::int64, 38), mem);
      EXPECT_TRUE(same_bits(g2, w2)) << op << " broadcast b, " << name(mem);
    }
    const Array f0 = values({50, 9}, DType::float64, 39);
    const auto [g3, w3] = run_at("subtract", f0, random_indices(500, 50, 40),
                                 values({500, 9}, DType::float64, 41), mem);
    EXPECT_TRUE(same_bits(g3, w3)) << name(mem);
    // A 0-d index: one update of a row.
    const auto [g4, w4] =
        run_at("add", a0, Array(std::int64_t{-3}), values({7, 3}, DType::int64, 42), mem);
    EXPECT_TRUE(same_bits(g4, w4)) << name(mem);
  }
}

// NumPy's full index (a tuple of index arrays, slices, a 1-d bool array) on cuda: the same
// integers as cpu's, whose values test_at_index.cpp checks against NumPy. The index arrays
// travel as a or b do (host arrays or device arrays).
TEST(CudaMethods, AtWithAnIndexTupleEqualsCpu) {
  REQUIRE_CUDA();
  using Index = std::vector<loom::AtIndex>;
  const auto run = [](const char* op, const Array& a0, const Index& index, const Array& b,
                      Mem mem) {
    Array cpu = a0.copy();
    uf(op).at(cpu, index, b, {.target = "cpu"});
    Array dev = put(a0.copy(), mem);
    Index moved;
    for (const loom::AtIndex& i : index) {
      if (const Array* arr = std::get_if<Array>(&i)) {
        moved.emplace_back(put(*arr, mem));
      } else {
        moved.push_back(i);
      }
    }
    uf(op).at(dev, moved, put(b, mem), {.target = "cuda"});
    return std::pair{back(dev), cpu};
  };
  const std::vector<bool> keep{true, false, true, true, false};
  for (Mem mem : {Mem::host, Mem::device}) {
    const Array a0 = values({40, 30}, DType::int64, 60);
    const Array rows = random_indices(5000, 40, 61, true), cols = random_indices(5000, 30, 62);
    for (const char* op : {"add", "subtract", "maximum"}) {
      // A pair of index arrays: one update per (row, col) pair, repeats included.
      const auto [g1, w1] = run(op, a0, {rows, cols}, values({5000}, DType::int64, 63), mem);
      EXPECT_TRUE(same_bits(g1, w1)) << op << " (rows, cols), " << name(mem);
    }
    // A column of rows against a row of columns: the index arrays broadcast to (4, 3).
    const auto [g2, w2] =
        run("add", a0, {random_indices(4, 40, 64).reshape({4, 1}), random_indices(3, 30, 65)},
            values({4, 3}, DType::int64, 66), mem);
    EXPECT_TRUE(same_bits(g2, w2)) << "broadcast index arrays, " << name(mem);
    // A stepped slice before an index array: b's dims take the indexed axis's place.
    const auto [g3, w3] = run("add", a0, {loom::Slice{.start = 1, .stop = -2, .step = 3}, cols},
                              values({5000}, DType::int64, 67), mem);
    EXPECT_TRUE(same_bits(g3, w3)) << "(slice, cols), " << name(mem);
    // A 1-d bool array picks its true rows; the other axis whole.
    const Array b5 = values({5, 30}, DType::int64, 68);
    const auto [g4, w4] = run("add", a0.slice(0, 0, 5).copy(), {loom::from_vector(keep)},
                              b5.slice(0, 0, 3).copy(), mem);
    EXPECT_TRUE(same_bits(g4, w4)) << "bool rows, " << name(mem);
  }
}

// ---- where= ----------------------------------------------------------------------------------

Array random_mask(const Shape& shape, unsigned seed) {
  return random_array(shape, DType::float64, seed, 0.0, 2.0, true).astype(DType::bool_);
}

TEST(CudaMethods, WhereOnUfuncCalls) {
  REQUIRE_CUDA();
  const Array x = values({301, 17}, DType::float32, 43), y = values({17}, DType::float32, 44);
  const Array mask = random_mask({301, 17}, 45), row = random_mask({17}, 46);
  for (Mem mem : {Mem::host, Mem::device}) {
    for (const Array& m : {mask, row}) {
      // Without out=: zeros where the mask is false (docs/decisions.md).
      const Array want = uf("add")(x, y, {.target = "cpu", .where = m});
      const Array got =
          back(uf("add")(put(x, mem), put(y, mem), {.target = "cuda", .where = put(m, mem)}));
      EXPECT_TRUE(same_bits(got, want)) << name(mem);
      // With out=: out keeps its values where the mask is false; also into another dtype.
      for (DType odt : {DType::float32, DType::float64}) {
        const Array o0 = values({301, 17}, odt, 47);
        Array oc = o0.copy();
        (void)uf("add")(x, y, {.target = "cpu", .out = {oc}, .where = m});
        Array od = put(o0.copy(), mem);
        (void)uf("add")(put(x, mem), put(y, mem),
                        {.target = "cuda", .out = {od}, .where = put(m, mem)});
        EXPECT_TRUE(same_bits(back(od), oc)) << loom::name(odt) << ", " << name(mem);
      }
    }
  }
}

TEST(CudaMethods, WhereOnReductions) {
  REQUIRE_CUDA();
  const Shape shape{40, 333};
  const Array mask = random_mask(shape, 48);
  for (Mem mem : {Mem::host, Mem::device}) {
    const Array xi = values(shape, DType::int64, 49);
    for (int axis : {0, 1}) {
      ReduceOptions o{.target = "cpu", .axis = axis, .where = mask};
      const Array want = uf("add").reduce(xi, o);
      o.target = "cuda";
      o.where = put(mask, mem);
      EXPECT_TRUE(same_bits(back(uf("add").reduce(put(xi, mem), o)), want)) << name(mem);
      // No identity: initial= needed; maximum (reorderable) and subtract (in order).
      for (const char* op : {"maximum", "subtract"}) {
        ReduceOptions oc{.target = "cpu", .axis = axis, .initial = 7, .where = mask};
        const Array w = uf(op).reduce(xi, oc);
        oc.target = "cuda";
        oc.where = put(mask, mem);
        EXPECT_TRUE(same_bits(back(uf(op).reduce(put(xi, mem), oc)), w)) << op << ", " << name(mem);
      }
    }
    // rt.reduce over every axis, and a broadcast row mask.
    const Array xf = values(shape, DType::float64, 50);
    const Array row = random_mask({333}, 51);
    const Array want = runtime().reduce("max")(xf, {.target = "cpu", .initial = -5, .where = row});
    const Array got = back(runtime().reduce("max")(
        put(xf, mem), {.target = "cuda", .initial = -5, .where = put(row, mem)}));
    EXPECT_TRUE(same_bits(got, want)) << name(mem);
  }
}

// The backend's masked cast directly: dst = cast(src) where the mask is true, from an array and
// from a host value.
TEST(CudaMethods, MaskedCast) {
  LOOM_CUDA_OR_SKIP(b);
  const Shape shape{1000, 3};
  const Array src = random_array(shape, DType::float64, 52, -100.0, 100.0);
  const Array mask = random_mask({1000, 1}, 53).broadcast_to(shape);
  const Array d_src = to_device(b, src), d_mask = to_device(b, mask.copy());
  const Array dst0 = values(shape, DType::int32, 54);
  for (bool from_value : {false, true}) {
    Array d_dst = to_device(b, dst0);
    const Array ops[] = {d_src, d_dst, d_mask};
    loom::CastCall c{loom::StridedIter::make(ops, shape), DType::float64, DType::int32, nullptr};
    c.masked = true;
    const double v = -7.75;
    if (from_value) {
      c.from_value = true;
      std::memcpy(c.value, &v, sizeof v);
    }
    b->cast(c, 0);
    const Array got = to_host(b, d_dst);
    const auto g = got.to_vector<std::int64_t>(),
               s = src.astype(DType::int32).to_vector<std::int64_t>(),
               d = dst0.to_vector<std::int64_t>();
    const auto m = mask.to_vector<std::int64_t>();
    for (std::size_t i = 0; i < g.size(); ++i) {
      const std::int64_t want = m[i] ? (from_value ? -7 : s[i]) : d[i];
      ASSERT_EQ(g[i], want) << "element " << i << (from_value ? " (from a value)" : "");
    }
  }
}

}  // namespace
}  // namespace loom_cuda_test
