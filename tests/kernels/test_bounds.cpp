// Out-of-bounds View access is an IndexError on host targets in builds with bounds checks (the
// test kernels' host half is built with LOOM_BOUNDS_CHECK=1): the launch names the kernel, the
// index, the axis and its size. The fast instantiation never checks device code; a checked launch
// does on every target (test_checked.cpp).
#include "helpers.hpp"

namespace loom_kernel_test {
namespace {

class BoundsTest : public KernelTest {
 protected:
  void SetUp() override {
    KernelTest::SetUp();
    if (!IsSkipped() && !on_host()) {
      GTEST_SKIP() << "the fast instantiation does not check device code (test_checked.cpp does)";
    }
  }
  template <class F>
  std::string index_error(F&& f) {
    try {
      f();
    } catch (const loom::IndexError& e) {
      return e.what();
    } catch (const std::exception& e) {
      return std::string("another error: ") + e.what();
    }
    return "no error";
  }
};

TEST_P(BoundsTest, ReadingPastTheEndOfAViewIsAnIndexError) {
  const Array x = loom::arange(0.0, 10.0, 1.0, DType::float32);
  Array out = loom::zeros({10}, DType::float32);
  EXPECT_EQ(index_error([&] { launch("t_read_past_end", config(1, 16), x, out); }),
            "kernel 't_read_past_end': argument 0 (const float32[:]) in block (0, 0, 0), thread "
            "(9, 0, 0): index 10 is out of bounds for axis 0 with size 10 (a 1-d View)");
}

TEST_P(BoundsTest, ReadingPastTheEndInAKernelWithBarriersIsAnIndexError) {
  const Array x = loom::arange(0.0, 16.0, 1.0, DType::float32);
  Array out = loom::zeros({16}, DType::float32);
  EXPECT_EQ(index_error([&] { launch("t_read_past_end_sync", config(2, 8), x, out); }),
            "kernel 't_read_past_end_sync': argument 0 (const float32[:]) in block (1, 0, 0), "
            "thread (7, 0, 0): index 16 is out of bounds for axis 0 with size 16 (a 1-d View)");
}

TEST_P(BoundsTest, AfterAnIndexErrorInABlockOfFibersTheNextLaunchRunsNormally) {
  const Array x = loom::arange(0.0, 16.0, 1.0, DType::float32);
  Array out = loom::zeros({16}, DType::float32);
  for (int k = 0; k < 3; ++k) {
    EXPECT_THROW(launch("t_read_past_end_sync", config(2, 8), x, out), loom::IndexError);
  }
  Array sums = loom::zeros({4});
  launch("block_sum", config(4, 256, 256 * 8), loom::full<double>({1024}, 1.0), sums);
  EXPECT_EQ(values_of<double>(sums), std::vector<double>(4, 256.0));
}

TEST_P(BoundsTest, ReadingPastARowOfA2DViewIsAnIndexErrorOnAxis1) {
  const Array x = loom::zeros({3, 4}, DType::float32);
  Array out = loom::zeros({1}, DType::float32);
  EXPECT_EQ(index_error([&] { launch("t_read_past_row", config(1, 1), x, out); }),
            "kernel 't_read_past_row': argument 0 (const float32[:, :]) in block (0, 0, 0), thread "
            "(0, 0, 0): index 4 is out of bounds for axis 1 with size 4 (a 2-d View)");
}

TEST_P(BoundsTest, AWritePastTheEndInABlockKernelNamesTheArgumentBlockAndThread) {
  Array out = loom::zeros({8}, DType::float32);
  EXPECT_EQ(index_error([&] { launch("t_write_past_end_block", config(2, 4), out, 0); }),
            "kernel 't_write_past_end_block': argument 0 (float32[:]) in block (1, 0, 0), thread "
            "(3, 0, 0): index 8 is out of bounds for axis 0 with size 8 (a 1-d View)");
}

TEST_P(BoundsTest, AReadPastASharedArraySaysItIsSharedMemory) {
  Array out = loom::zeros({9}, DType::float32);
  EXPECT_EQ(index_error([&] { launch("t_write_past_end_block", config(1, 4, 4 * 5), out, 1); }),
            "kernel 't_write_past_end_block': a View of the block's shared memory in block (0, 0, "
            "0), thread (3, 0, 0): index 4 is out of bounds for axis 0 with size 4 (a 1-d View)");
}

INSTANTIATE_TEST_SUITE_P(Targets, BoundsTest, ::testing::ValuesIn(kEveryWhere), where_name);

}  // namespace
}  // namespace loom_kernel_test
