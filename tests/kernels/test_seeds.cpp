// The seed kernels (plugins/kernels) on every target against references computed here, each with
// several launch configurations: more threads than elements, fewer, one block of one thread, and
// the automatic configuration. One-per-thread kernels write only the part the grid covers (the
// rest keeps its sentinel); grid-stride kernels write everything whatever the grid.
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <limits>

#include "helpers.hpp"

namespace loom_kernel_test {
namespace {

using loom::dtype_v;

// Counts elements where got differs from want (NaN equal to NaN), naming the first.
template <class T>
::testing::AssertionResult equal_values(const std::vector<T>& got, const std::vector<T>& want) {
  if (got.size() != want.size()) {
    return ::testing::AssertionFailure() << got.size() << " values, want " << want.size();
  }
  std::size_t bad = 0, first = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const bool both_nan = [&] {
      if constexpr (std::is_floating_point_v<T>) return std::isnan(got[i]) && std::isnan(want[i]);
      return false;
    }();
    if (!(got[i] == want[i]) && !both_nan) {
      if (bad++ == 0) first = i;
    }
  }
  if (bad == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << bad << " of " << got.size() << " elements differ; first at " << first << ": got "
         << +got[first] << ", want " << +want[first];
}

class SeedTest : public KernelTest {
 protected:
  // out = x + y by `kernel` over n elements; the first `covered` are written, the rest keep -7.
  template <class T>
  void add_case(const std::string& kernel, const LaunchConfig& c, std::int64_t n,
                std::int64_t covered) {
    SCOPED_TRACE(kernel + " " + std::string(loom::name(dtype_v<T>)));
    const auto xv = random_values<T>(n, 1), yv = random_values<T>(n, 2);
    Array out = put(loom::full<T>({n}, T(-7)));
    launch(kernel, c, put(loom::from_vector(xv)), put(loom::from_vector(yv)), out);
    std::vector<T> want(n, T(-7));
    for (std::int64_t i = 0; i < covered; ++i) want[i] = static_cast<T>(xv[i] + yv[i]);
    EXPECT_TRUE(equal_values(values_of<T>(get(out)), want));
  }
  void add_all_types(const std::string& kernel, const LaunchConfig& c, std::int64_t n,
                     std::int64_t covered) {
    add_case<std::int32_t>(kernel, c, n, covered);
    add_case<std::int64_t>(kernel, c, n, covered);
    add_case<float>(kernel, c, n, covered);
    add_case<double>(kernel, c, n, covered);
  }

  // out = a * a over n elements, the first `covered` written.
  template <class T>
  void square_case(const LaunchConfig& c, std::int64_t n, std::int64_t covered) {
    SCOPED_TRACE(std::string(loom::name(dtype_v<T>)));
    const auto av = random_values<T>(n, 3, -1000, 1000);
    Array out = put(loom::full<T>({n}, T(-7)));
    launch("square_kernel", c, put(loom::from_vector(av)), out);
    std::vector<T> want(n, T(-7));
    for (std::int64_t i = 0; i < covered; ++i) want[i] = static_cast<T>(av[i] * av[i]);
    EXPECT_TRUE(equal_values(values_of<T>(get(out)), want));
  }
  void square_all_types(const LaunchConfig& c, std::int64_t n, std::int64_t covered) {
    square_case<std::int32_t>(c, n, covered);
    square_case<std::int64_t>(c, n, covered);
    square_case<float>(c, n, covered);
    square_case<double>(c, n, covered);
  }

  // c = hypot(a, b) by hypot_stride, every element within one ulp of std::hypot (ordinary,
  // huge, tiny and subnormal values, zeros, infinities and NaN).
  template <class T>
  void hypot_case(const LaunchConfig& c) {
    SCOPED_TRACE(std::string(loom::name(dtype_v<T>)));
    using lim = std::numeric_limits<T>;
    auto av = random_values<T>(2000, 4, -1e3, 1e3), bv = random_values<T>(2000, 5, -1e3, 1e3);
    const T special[] = {
        T(0),       T(-0.0),        lim::infinity(), -lim::infinity(),  lim::quiet_NaN(),
        lim::max(), lim::max() / 3, lim::min(),      lim::denorm_min(), T(3),
        T(-4),      lim::epsilon()};
    for (T s : special) {
      for (T u : special) {
        av.push_back(s);
        bv.push_back(u);
      }
    }
    const std::int64_t n = static_cast<std::int64_t>(av.size());
    Array out = put(loom::zeros({n}, dtype_v<T>));
    launch("hypot_stride", c, put(loom::from_vector(av)), put(loom::from_vector(bv)), out);
    const auto got = values_of<T>(get(out));
    std::int64_t worst = 0, at = 0, nan_mismatch = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      const T want = std::hypot(av[i], bv[i]);
      if (std::isnan(want) || std::isnan(got[i])) {
        nan_mismatch += std::isnan(want) != std::isnan(got[i]);
        continue;
      }
      const std::int64_t d = std::isinf(want) || std::isinf(got[i])
                                 ? (want == got[i] ? 0 : std::numeric_limits<std::int64_t>::max())
                                 : ulp_distance(got[i], want);
      if (d > worst) worst = d, at = i;
    }
    EXPECT_EQ(nan_mismatch, 0);
    EXPECT_LE(worst, 1) << "hypot(" << av[at] << ", " << bv[at] << ") = " << got[at]
                        << ", std::hypot gives " << std::hypot(av[at], bv[at]);
  }

  // n elements, every one of them written (c starts as NaN) with the hypot ufunc's bits.
  void hypot_matches_ufunc(const LaunchConfig& cfg, std::int64_t n) {
    for (DType dt : {DType::float32, DType::float64}) {
      SCOPED_TRACE(std::string(loom::name(dt)) + ", n = " + std::to_string(n));
      const auto av = random_values<double>(n, 25, -1e3, 1e3),
                 bv = random_values<double>(n, 26, -1e3, 1e3);
      const Array a = put(loom::from_vector(av).astype(dt));
      const Array b = put(loom::from_vector(bv).astype(dt));
      Array c = put(loom::full<double>({n}, std::nan("")).astype(dt));
      launch("hypot_stride", cfg, a, b, c);
      const Array u = rt().ufunc("hypot")(a, b, {.target = target()});
      const auto cv = values_of<double>(get(c)), uv = values_of<double>(get(u));
      std::int64_t differ = 0, first = -1;
      for (std::int64_t i = 0; i < n; ++i) {
        if (!(cv[i] == uv[i]) && differ++ == 0) first = i;
      }
      EXPECT_EQ(differ, 0) << "elements differ; first at " << first << ": hypot_stride "
                           << std::setprecision(17) << cv[first] << ", the hypot ufunc "
                           << uv[first];
    }
  }
};

// --- add_kernel: one element per thread, with a bounds check --------------------------------

TEST_P(SeedTest, AddKernelWithMoreThreadsThanElementsWritesEveryElement) {
  add_all_types("add_kernel", config(4, 256), 1000, 1000);
}

TEST_P(SeedTest, AddKernelWithFewerThreadsThanElementsWritesOnlyTheCoveredPart) {
  add_all_types("add_kernel", config(3, 100), 1000, 300);
}

TEST_P(SeedTest, AddKernelOnOneBlockOfOneThreadWritesOnlyElementZero) {
  add_all_types("add_kernel", config(1, 1), 50, 1);
}

TEST_P(SeedTest, AddKernelWithAutomaticConfigurationForSizeWritesEveryElement) {
  add_all_types("add_kernel", config_auto(100003), 100003, 100003);
}

TEST_P(SeedTest, AddKernelWithThreadsGivenAndBlocksFromSizeWritesEveryElement) {
  LaunchConfig c = config_auto(1001);
  c.threads = 32;
  add_all_types("add_kernel", c, 1001, 1001);
}

// --- add_stride: a grid-stride loop covers any length with any grid -------------------------

TEST_P(SeedTest, AddStrideWithMoreThreadsThanElementsWritesEveryElement) {
  add_all_types("add_stride", config(4, 256), 1000, 1000);
}

TEST_P(SeedTest, AddStrideWithFewerThreadsThanElementsStillWritesEveryElement) {
  add_all_types("add_stride", config(3, 100), 10007, 10007);
}

TEST_P(SeedTest, AddStrideOnOneBlockOfOneThreadStillWritesEveryElement) {
  add_all_types("add_stride", config(1, 1), 1000, 1000);
}

TEST_P(SeedTest, AddStrideWithAutomaticGridWritesEveryElement) {
  add_all_types("add_stride", config_auto(), 100003, 100003);
}

TEST_P(SeedTest, AddStrideReadsAndWritesStridedViews) {
  // x and y every other element of their buffers, out the odd elements of its own: the even
  // elements of out's buffer must keep their value.
  const std::int64_t n = 501;
  const auto xv = random_values<double>(2 * n, 6), yv = random_values<double>(3 * n, 7);
  Array base = put(loom::full<double>({2 * n}, -7.0));
  const Array x = put(loom::from_vector(xv)).slice(0, 0, 2 * n, 2);
  const Array y = put(loom::from_vector(yv)).slice(0, 0, 3 * n, 3);
  launch("add_stride", config(2, 64), x, y, base.slice(0, 1, 2 * n, 2));
  std::vector<double> want(2 * n, -7.0);
  for (std::int64_t i = 0; i < n; ++i) want[2 * i + 1] = xv[2 * i] + yv[3 * i];
  EXPECT_TRUE(equal_values(values_of<double>(get(base)), want));
}

TEST_P(SeedTest, AddStrideReadsAndWritesReversedViews) {
  const std::int64_t n = 300;
  const auto xv = random_values<float>(n, 23), yv = random_values<float>(n, 24);
  const auto rev = [n](const Array& a) { return a.slice(0, n - 1, -n - 1, -1); };
  Array out = put(loom::full<float>({n}, -7.0f));
  launch("add_stride", config(2, 32), rev(put(loom::from_vector(xv))), put(loom::from_vector(yv)),
         rev(out));
  std::vector<float> want(n);
  for (std::int64_t i = 0; i < n; ++i) want[n - 1 - i] = xv[n - 1 - i] + yv[i];
  EXPECT_TRUE(equal_values(values_of<float>(get(out)), want));
}

// --- hypot_stride: loom's hypot functor, grid-stride -----------------------------------------

// seeds.hpp: hypot_stride uses the math plugin's Hypot functor, "the same bits as the hypot ufunc
// on every target".
TEST_P(SeedTest, HypotStrideGivesTheSameBitsAsTheHypotUfunc) {
  hypot_matches_ufunc(config(8, 64), 5000);
}

// hypot_stride is written with t.grid_stride: on the host each thread takes a run of elements
// (units of 16 from 16 a thread on), on cuda CUDA's mapping. Many elements a thread, a count
// that is no multiple of 16, and 2-D and 3-D grids and blocks (every element once, over all axes).
TEST_P(SeedTest, HypotStrideWithManyElementsAThreadGivesTheUfuncsBitsEverywhere) {
  hypot_matches_ufunc(config(4, 32), 40000);  // 312.5 a thread
  hypot_matches_ufunc(config(4, 32), 40001);
  hypot_matches_ufunc(config(4, 32), 2047);  // one short of 16 a thread
  hypot_matches_ufunc(config(3, 7), 100003);
}

TEST_P(SeedTest, HypotStrideOn2DAnd3DLaunchesGivesTheUfuncsBitsEverywhere) {
  hypot_matches_ufunc(config({3, 2}, {16, 4}), 30011);
  hypot_matches_ufunc(config({2, 2, 3}, {4, 2, 8}), 30011);
  hypot_matches_ufunc(config({2, 2, 3}, {4, 2, 8}), 100);
}

TEST_P(SeedTest, HypotStrideWithFewerThreadsThanElementsIsWithinOneUlpOfStdHypot) {
  hypot_case<float>(config(2, 64));
  hypot_case<double>(config(2, 64));
}

TEST_P(SeedTest, HypotStrideWithMoreThreadsThanElementsIsWithinOneUlpOfStdHypot) {
  hypot_case<float>(config(40, 256));
  hypot_case<double>(config(40, 256));
}

TEST_P(SeedTest, HypotStrideOnOneBlockOfOneThreadIsWithinOneUlpOfStdHypot) {
  hypot_case<float>(config(1, 1));
  hypot_case<double>(config(1, 1));
}

TEST_P(SeedTest, HypotStrideWithAutomaticGridIsWithinOneUlpOfStdHypot) {
  hypot_case<float>(config_auto());
  hypot_case<double>(config_auto());
}

// --- square_kernel: one element per thread ---------------------------------------------------

TEST_P(SeedTest, SquareWithMoreThreadsThanElementsWritesEveryElement) {
  square_all_types(config(8, 128), 1000, 1000);
}

TEST_P(SeedTest, SquareWithFewerThreadsThanElementsWritesOnlyTheCoveredPart) {
  square_all_types(config(5, 32), 1000, 160);
}

TEST_P(SeedTest, SquareOnOneBlockOfOneThreadWritesOnlyElementZero) {
  square_all_types(config(1, 1), 10, 1);
}

TEST_P(SeedTest, SquareWithAutomaticConfigurationForSizeWritesEveryElement) {
  square_all_types(config_auto(4097), 4097, 4097);
}

// --- thread counters --------------------------------------------------------------------------

TEST_P(SeedTest, ThreadCounterSafeCountsEveryThreadOfA1DGrid) {
  Array counter = put(loom::zeros({1}, DType::int32));
  launch("thread_counter_safe", config(64, 64), counter);
  EXPECT_EQ(get(counter).at<std::int32_t>(0), 64 * 64);
}

TEST_P(SeedTest, ThreadCounterSafeCountsEveryThreadOfA3DGrid) {
  Array counter = put(loom::zeros({1}, DType::int32));
  launch("thread_counter_safe", config({2, 3, 4}, {4, 4, 2}), counter);
  EXPECT_EQ(get(counter).at<std::int32_t>(0), 2 * 3 * 4 * 4 * 4 * 2);
}

TEST_P(SeedTest, ThreadCounterSafeOnOneBlockOfOneThreadCountsOne) {
  Array counter = put(loom::full<std::int32_t>({1}, 41));
  launch("thread_counter_safe", config(1, 1), counter);
  EXPECT_EQ(get(counter).at<std::int32_t>(0), 42);
}

// thread_counter_race is WRONG BY DESIGN (the seeds' race condition): counter[0] += 1 without an
// atomic loses increments wherever threads run concurrently. Only `cpu`, which runs one thread
// at a time, counts every thread; elsewhere the count is at most the number of threads.
TEST_P(SeedTest, ThreadCounterRaceCountsEveryThreadOnlyOnCpuAndNeverMoreElsewhere) {
  const std::int64_t threads = 256 * 256;
  Array counter = put(loom::zeros({1}, DType::int32));
  launch("thread_counter_race", config(256, 256), counter);
  const std::int32_t got = get(counter).at<std::int32_t>(0);
  if (serial()) {
    EXPECT_EQ(got, threads);
  } else {
    EXPECT_GE(got, 1);
    EXPECT_LE(got, threads);
    if (got < threads) std::cout << "[ race ] " << target() << " lost " << threads - got << "\n";
  }
}

// --- histograms: the seeds' cpu_histogram rule --------------------------------------------------

// The seeds' cpu_histogram, written from its Python: bin = np.int32((x - xmin) / bin_width) in
// x's precision, counted when 0 <= bin < nbins. np.int32 truncates toward zero, so values up to
// one bin below xmin count in bin 0; NaN and values beyond int32 give INT32_MIN and are dropped.
template <class T>
std::vector<std::int32_t> cpu_histogram(const std::vector<T>& x, T xmin, T xmax, int nbins) {
  std::vector<std::int32_t> h(nbins, 0);
  const T width = (xmax - xmin) / static_cast<T>(nbins);
  for (T v : x) {
    const T q = (v - xmin) / width;
    if (std::isnan(q) || q >= T(2147483648.0) || q < T(-2147483648.0)) continue;
    const auto b = static_cast<std::int64_t>(std::trunc(static_cast<double>(q)));
    if (b >= 0 && b < nbins) ++h[b];
  }
  return h;
}

// Random values over [-6, 6) and the edge cases: xmin and xmax exactly, each bin edge, values
// just below xmin (bin 0 by truncation), exactly one bin below xmin, +-inf, NaN, +-1e30.
template <class T>
std::vector<T> histogram_data(std::size_t n, T xmin, T xmax, int nbins, unsigned seed) {
  auto x = random_values<T>(n, seed, -6, 6);
  const T width = (xmax - xmin) / static_cast<T>(nbins);
  for (int b = 0; b <= nbins; ++b) x.push_back(xmin + static_cast<T>(b) * width);
  const T more[] = {xmin,
                    xmax,
                    std::nextafter(xmax, xmin),
                    std::nextafter(xmin, xmax),
                    std::nextafter(xmin, -xmax),
                    static_cast<T>(xmin - T(0.3) * width),
                    static_cast<T>(xmin - width),
                    static_cast<T>(xmin - T(1.5) * width),
                    std::numeric_limits<T>::infinity(),
                    -std::numeric_limits<T>::infinity(),
                    std::numeric_limits<T>::quiet_NaN(),
                    T(1e30),
                    T(-1e30)};
  for (int k = 0; k < 7; ++k) x.insert(x.end(), std::begin(more), std::end(more));
  std::shuffle(x.begin(), x.end(), std::mt19937(seed));
  return x;
}

class HistogramTest : public SeedTest {
 protected:
  template <class T>
  void histogram_case(const std::string& kernel, LaunchConfig c, std::size_t n, int nbins,
                      T xmin = T(-4), T xmax = T(4)) {
    SCOPED_TRACE(kernel + " " + std::string(loom::name(dtype_v<T>)) + " " + std::to_string(nbins) +
                 " bins");
    const auto xv = histogram_data<T>(n, xmin, xmax, nbins, 8);
    if (kernel == "histogram_shared") c.shared_bytes = 4 * nbins;
    Array hist = put(loom::zeros({nbins}, DType::int32));
    launch(kernel, c, put(loom::from_vector(xv)), xmin, xmax, hist);
    EXPECT_TRUE(
        equal_values(values_of<std::int32_t>(get(hist)), cpu_histogram(xv, xmin, xmax, nbins)));
  }
  void every_kernel_and_type(const LaunchConfig& c, std::size_t n) {
    for (const char* k : {"histogram", "histogram_shared"}) {
      histogram_case<float>(k, c, n, 10);
      histogram_case<double>(k, c, n, 10);
      histogram_case<float>(k, c, n, 1000, -5.0f, 7.0f);
      histogram_case<double>(k, c, n, 1000, -5.0, 7.0);
    }
  }
};

TEST_P(HistogramTest, WithFewerThreadsThanElementsMatchesTheSeedsCpuHistogram) {
  every_kernel_and_type(config(128, 64), 100000);
}

TEST_P(HistogramTest, WithMoreThreadsThanElementsMatchesTheSeedsCpuHistogram) {
  every_kernel_and_type(config(16, 256), 1000);
}

TEST_P(HistogramTest, OnOneBlockOfOneThreadMatchesTheSeedsCpuHistogram) {
  every_kernel_and_type(config(1, 1), 3000);
}

TEST_P(HistogramTest, WithAutomaticConfigurationMatchesTheSeedsCpuHistogram) {
  every_kernel_and_type(config_auto(), 100000);
}

// histogram_shared's middle phase is a t.grid_stride loop: many elements a thread (runs of 16s
// on the host), and 2-D and 3-D grids and blocks, where every element counts once (the global
// histogram's hand-written loop over x would count each once per thread along y and z).
TEST_P(HistogramTest, SharedWithManyElementsAThreadMatchesTheSeedsCpuHistogram) {
  histogram_case<float>("histogram_shared", config(8, 32), 200003, 10);
  histogram_case<double>("histogram_shared", config(8, 32), 200003, 1000, -5.0, 7.0);
  histogram_case<float>("histogram_shared", config(8, 32), 4095, 10);
}

TEST_P(HistogramTest, SharedOn2DAnd3DLaunchesMatchesTheSeedsCpuHistogram) {
  histogram_case<float>("histogram_shared", config({4, 3}, {8, 4, 2}), 100000, 10);
  histogram_case<double>("histogram_shared", config({2, 2, 2}, {16, 2}), 100000, 1000, -5.0, 7.0);
  histogram_case<float>("histogram_shared", config({2, 2, 2}, {16, 2}), 50, 10);
}

TEST_P(HistogramTest, AddsToTheCountsAlreadyInTheHistogram) {
  const auto xv = histogram_data<float>(5000, -4.0f, 4.0f, 10, 9);
  Array hist = put(loom::full<std::int32_t>({10}, 100));
  launch("histogram", config(8, 64), put(loom::from_vector(xv)), -4.0f, 4.0f, hist);
  auto want = cpu_histogram(xv, -4.0f, 4.0f, 10);
  for (auto& w : want) w += 100;
  EXPECT_TRUE(equal_values(values_of<std::int32_t>(get(hist)), want));
}

TEST_P(HistogramTest, Float64BoundsAreConvertedForTheFloat32Overload) {
  const auto xv = histogram_data<float>(5000, -4.0f, 4.0f, 10, 10);
  Array hist = put(loom::zeros({10}, DType::int32));
  launch("histogram", config(8, 64), put(loom::from_vector(xv)), -4.0, 4.0, hist);
  EXPECT_TRUE(equal_values(values_of<std::int32_t>(get(hist)), cpu_histogram(xv, -4.0f, 4.0f, 10)));
}

// --- maximum_3d: a 3-D grid over 3-D arrays -----------------------------------------------------

class Maximum3DTest : public SeedTest {
 protected:
  // c = max(a, b) over shape (ni, nj, nk); elements with i < ci, j < cj, k < ck are written,
  // the rest keep -1000. `transposed`: a and b are transposed views of (nk, nj, ni) arrays.
  template <class T>
  void max_case(const LaunchConfig& c, std::int64_t ni, std::int64_t nj, std::int64_t nk,
                std::int64_t ci, std::int64_t cj, std::int64_t ck, bool transposed = false) {
    SCOPED_TRACE(std::string(loom::name(dtype_v<T>)));
    const std::int64_t n = ni * nj * nk;
    const auto av = random_values<T>(n, 11), bv = random_values<T>(n, 12);
    const Shape shape = transposed ? Shape{nk, nj, ni} : Shape{ni, nj, nk};
    Array a = put(loom::from_vector(av, shape)), b = put(loom::from_vector(bv, shape));
    if (transposed) a = a.transpose(), b = b.transpose();
    Array out = put(loom::full<T>({ni, nj, nk}, T(-1000)));
    launch("maximum_3d", c, a, b, out);
    const Array ah = get(a).copy(), bh = get(b).copy();  // C order of the (ni, nj, nk) views
    const auto at = values_of<T>(ah), bt = values_of<T>(bh);
    std::vector<T> want(n, T(-1000));
    for (std::int64_t i = 0; i < std::min(ni, ci); ++i)
      for (std::int64_t j = 0; j < std::min(nj, cj); ++j)
        for (std::int64_t k = 0; k < std::min(nk, ck); ++k) {
          const std::int64_t e = (i * nj + j) * nk + k;
          want[e] = std::max(at[e], bt[e]);
        }
    EXPECT_TRUE(equal_values(values_of<T>(get(out)), want));
  }
  void both_types(const LaunchConfig& c, std::int64_t ni, std::int64_t nj, std::int64_t nk,
                  std::int64_t ci, std::int64_t cj, std::int64_t ck, bool transposed = false) {
    max_case<float>(c, ni, nj, nk, ci, cj, ck, transposed);
    max_case<double>(c, ni, nj, nk, ci, cj, ck, transposed);
  }
};

TEST_P(Maximum3DTest, A3DGridCoveringTheShapeWritesEveryElement) {
  both_types(config({2, 2, 2}, {4, 4, 4}), 5, 6, 7, 8, 8, 8);
}

TEST_P(Maximum3DTest, TheSeedsConfigurationOf8x8x8BlocksWritesEveryElement) {
  both_types(config({4, 4, 4}, {8, 8, 8}), 32, 32, 32, 32, 32, 32);
}

TEST_P(Maximum3DTest, A3DGridSmallerThanTheShapeWritesOnlyTheCoveredBox) {
  both_types(config({1, 1, 1}, {4, 4, 4}), 5, 6, 7, 4, 4, 4);
}

TEST_P(Maximum3DTest, OneBlockOfOneThreadWritesOnlyTheFirstElement) {
  both_types(config(1, 1), 5, 6, 7, 1, 1, 1);
}

TEST_P(Maximum3DTest, A2DGridWritesOnlyThePlaneKEqualsZero) {
  both_types(config({2, 2}, {4, 4}), 5, 6, 7, 8, 8, 1);
}

TEST_P(Maximum3DTest, ReadsTransposedViews) {
  both_types(config({2, 2, 2}, {4, 4, 4}), 5, 6, 7, 8, 8, 8, /*transposed=*/true);
}

INSTANTIATE_TEST_SUITE_P(Targets, SeedTest, ::testing::ValuesIn(kEveryWhere), where_name);
INSTANTIATE_TEST_SUITE_P(Targets, HistogramTest, ::testing::ValuesIn(kEveryWhere), where_name);
INSTANTIATE_TEST_SUITE_P(Targets, Maximum3DTest, ::testing::ValuesIn(kEveryWhere), where_name);

}  // namespace
}  // namespace loom_kernel_test
