// t.grid_stride(n) (loom/grid_stride.hpp) on every target and host path: every index of [0, n)
// comes up exactly once across the grid, and none past it, for n = 0, negative, odd, smaller
// than the grid, equal to it and much larger, on 1-, 2- and 3-D grids and blocks, in a thread
// kernel and in a block kernel's phase. And the mapping each target documents: on the host
// contiguous runs in rank order, balanced within one unit (16 elements once every thread has
// one, else 1), runs starting on a unit; on cuda CUDA's loop, index i on thread i % threads.
#include <algorithm>
#include <vector>

#include "helpers.hpp"

namespace loom_kernel_test {
namespace {

class GridStrideTest : public KernelTest {
 protected:
  void check(loom::Dim3 g, loom::Dim3 b, std::int64_t n) {
    check("t_grid_stride", g, b, n);
    check("t_grid_stride_block", g, b, n);
  }
  void check(const std::string& kernel, loom::Dim3 g, loom::Dim3 b, std::int64_t n) {
    SCOPED_TRACE(kernel + ": blocks (" + std::to_string(g.x) + ", " + std::to_string(g.y) + ", " +
                 std::to_string(g.z) + "), threads (" + std::to_string(b.x) + ", " +
                 std::to_string(b.y) + ", " + std::to_string(b.z) + "), n = " + std::to_string(n));
    const std::int64_t len = std::max<std::int64_t>(n, 0) + 1, threads = g.count() * b.count();
    Array hits = put(loom::zeros({len}, DType::int32));
    Array owner = put(loom::full<std::int64_t>({len}, -1));
    launch(kernel, config({g.x, g.y, g.z}, {b.x, b.y, b.z}), hits, owner, n);
    const auto h = values_of<std::int32_t>(get(hits));
    const auto o = values_of<std::int64_t>(get(owner));
    std::int64_t wrong = 0, first = -1;
    for (std::int64_t i = 0; i + 1 < len; ++i) {
      if (h[i] != 1 && wrong++ == 0) first = i;
    }
    EXPECT_EQ(wrong, 0) << "indices not visited exactly once; first " << first << " visited "
                        << h[first] << " times";
    EXPECT_EQ(h[len - 1], 0) << "index n = " << len - 1 << " visited";
    if (wrong != 0 || n <= 0) return;
    // Each thread's indices, from the owners.
    std::vector<std::int64_t> count(threads, 0), start(threads, -1);
    for (std::int64_t i = 0; i < n; ++i) {
      ASSERT_TRUE(o[i] >= 0 && o[i] < threads) << "owner of " << i << ": " << o[i];
      if (count[o[i]]++ == 0) start[o[i]] = i;
    }
    if (!on_host()) {  // CUDA's grid-stride loop
      for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(o[i], i % threads) << "index " << i;
      return;
    }
    // Runs: the owners do not decrease, so each thread's indices are contiguous and in rank order.
    for (std::int64_t i = 1; i < n; ++i) {
      ASSERT_LE(o[i - 1], o[i]) << "index " << i << ": not contiguous runs in rank order";
    }
    const std::int64_t unit = n / 16 >= threads ? 16 : 1;
    const auto [lo, hi] = std::minmax_element(count.begin(), count.end());
    // Balanced within a unit, except the last unit, which may be short.
    EXPECT_LE(*hi - *lo, unit + (unit - 1)) << "threads get " << *lo << " to " << *hi;
    EXPECT_LE(*hi, (n + threads * unit - 1) / (threads * unit) * unit);
    for (std::int64_t r = 0; r < threads; ++r) {
      if (count[r] > 0) {
        ASSERT_EQ(start[r] % unit, 0) << "thread " << r << " starts at " << start[r];
      }
    }
  }
};

// Grid of 3 blocks x 32 threads: 96 threads.
TEST_P(GridStrideTest, NothingForAnEmptyOrNegativeRange) {
  check({3}, {32}, 0);
  check({3}, {32}, -5);
}

TEST_P(GridStrideTest, FewerElementsThanThreadsEachOnce) {
  check({3}, {32}, 1);
  check({3}, {32}, 7);
  check({3}, {32}, 95);
}

TEST_P(GridStrideTest, AsManyElementsAsThreadsEachOnce) { check({3}, {32}, 96); }

TEST_P(GridStrideTest, SomeElementsMoreThanThreadsEachOnce) {
  check({3}, {32}, 97);
  check({3}, {32}, 191);
  check({3}, {32}, 1535);  // one short of 16 a thread
}

TEST_P(GridStrideTest, ManyElementsAThreadEachOnce) {
  check({3}, {32}, 1536);  // 16 a thread: units of 16
  check({3}, {32}, 1537);
  check({3}, {32}, 100003);   // odd, about 1042 a thread
  check({4}, {256}, 262144);  // 256 a thread, as [1024, 256] on 64M
}

TEST_P(GridStrideTest, OneThreadTakesEverything) {
  check({1}, {1}, 1);
  check({1}, {1}, 1001);
}

TEST_P(GridStrideTest, ALargeGridOverAFewElementsEachOnce) { check({200}, {256}, 3); }

TEST_P(GridStrideTest, TwoDimensionalGridsAndBlocksEachOnce) {
  for (std::int64_t n : {0, 5, 192, 193, 3071, 3072, 12345}) check({3, 2}, {8, 4}, n);
}

TEST_P(GridStrideTest, ThreeDimensionalGridsAndBlocksEachOnce) {
  for (std::int64_t n : {1, 287, 288, 4609, 100001}) check({2, 3, 2}, {4, 2, 3}, n);
}

INSTANTIATE_TEST_SUITE_P(Targets, GridStrideTest, ::testing::ValuesIn(kEveryWhere), where_name);

}  // namespace
}  // namespace loom_kernel_test
