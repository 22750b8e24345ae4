// What a kernel thread sees: every thread of the grid runs exactly once, with CUDA's threadIdx,
// blockIdx, blockDim and gridDim, and Numba's grid() and gridsize(), in 1-, 2- and 3-D launches;
// in a plain kernel and in one with barriers (whose threads are fibers on host targets).
#include "helpers.hpp"

namespace loom_kernel_test {
namespace {

class ThreadCtxTest : public KernelTest {
 protected:
  // Launches t_coords over blocks x threads and checks every row against the coordinates that
  // its linear index (block-major, x fastest) implies.
  void check_grid(loom::Dim3 g, loom::Dim3 b) {
    check_grid("t_coords", g, b);
    check_grid("t_coords_sync", g, b);
  }
  void check_grid(const std::string& kernel, loom::Dim3 g, loom::Dim3 b) {
    SCOPED_TRACE(kernel + ": blocks (" + std::to_string(g.x) + ", " + std::to_string(g.y) + ", " +
                 std::to_string(g.z) + "), threads (" + std::to_string(b.x) + ", " +
                 std::to_string(b.y) + ", " + std::to_string(b.z) + ")");
    const std::int64_t nthreads = g.count() * b.count();
    Array rows = put(loom::zeros({nthreads, 20}, DType::int64));
    launch(kernel, config({g.x, g.y, g.z}, {b.x, b.y, b.z}), rows);
    const auto v = values_of<std::int64_t>(get(rows));
    std::int64_t bad = 0;
    for (std::int64_t r = 0; r < nthreads && bad < 5; ++r) {
      const std::int64_t rank = r % b.count(), block = r / b.count();
      const std::int64_t tx = rank % b.x, ty = rank / b.x % b.y, tz = rank / (b.x * b.y);
      const std::int64_t bx = block % g.x, by = block / g.x % g.y, bz = block / (g.x * g.y);
      const std::int64_t want[20] = {tx,
                                     ty,
                                     tz,
                                     bx,
                                     by,
                                     bz,
                                     b.x,
                                     b.y,
                                     b.z,
                                     g.x,
                                     g.y,
                                     g.z,
                                     bx * b.x + tx,
                                     by * b.y + ty,
                                     bz * b.z + tz,
                                     std::int64_t{g.x} * b.x,
                                     std::int64_t{g.y} * b.y,
                                     std::int64_t{g.z} * b.z,
                                     bx * b.x + tx,
                                     1};
      for (int c = 0; c < 20; ++c) {
        if (v[r * 20 + c] != want[c]) {
          ADD_FAILURE() << "thread " << r << " column " << c << ": got " << v[r * 20 + c]
                        << ", want " << want[c];
          ++bad;
          break;
        }
      }
    }
  }
};

TEST_P(ThreadCtxTest, EveryThreadOfA1DGridRunsOnceWithItsCoordinates) { check_grid({7}, {33}); }

TEST_P(ThreadCtxTest, EveryThreadOfA2DGridRunsOnceWithItsCoordinates) {
  check_grid({3, 5}, {8, 4});
}

TEST_P(ThreadCtxTest, EveryThreadOfA3DGridRunsOnceWithItsCoordinates) {
  check_grid({2, 3, 4}, {4, 2, 3});
}

TEST_P(ThreadCtxTest, TheLargestBlockRunsEveryThreadOnce) { check_grid({2}, {1024}); }

TEST_P(ThreadCtxTest, ABlockDeepInZRunsEveryThreadOnce) { check_grid({1, 1, 2}, {2, 2, 64}); }

TEST_P(ThreadCtxTest, OneBlockOfOneThreadRunsOnce) { check_grid({1}, {1}); }

INSTANTIATE_TEST_SUITE_P(Targets, ThreadCtxTest, ::testing::ValuesIn(kEveryWhere), where_name);

}  // namespace
}  // namespace loom_kernel_test
