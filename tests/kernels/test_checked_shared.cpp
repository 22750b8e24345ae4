// The race checker of checked launches on host targets (docs/kernels.md, "Checked launches"): the
// first shared-memory race or read of shared memory nothing wrote is a KernelError after the
// launch, naming both threads, the block and the element; correct kernels run without one. On
// cpu and parallel (the thread loop, block kernels, fibers) and with every block's threads as
// fibers; cuda has no race checker (its checked launches check bounds only): skipped there.
#include "helpers.hpp"

namespace loom_kernel_test {
namespace {

class CheckedSharedTest : public KernelTest {
 protected:
  void SetUp() override {
    KernelTest::SetUp();
    if (!IsSkipped() && !on_host()) GTEST_SKIP() << "cuda has no race checker (bounds only)";
  }
  LaunchConfig checked(Extent blocks, Extent threads, std::size_t shared) const {
    LaunchConfig c = config(blocks, threads, shared);
    c.checked = true;
    return c;
  }
  // The KernelError a launch raised, "no error", or another error's text.
  template <class F>
  static std::string kernel_error(F&& f) {
    try {
      f();
    } catch (const loom::KernelError& e) {
      return e.what();
    } catch (const std::exception& e) {
      return std::string("another error: ") + e.what();
    }
    return "no error";
  }
};

const std::string kRaceAdvice =
    " (on a GPU the result depends on which runs first: put syncthreads() between the two "
    "accesses, or use an atomic)";
const std::string kUninitAdvice =
    ", which no thread of the block had written (a block's shared memory starts undefined, on a "
    "GPU as here)";

Array iota(std::int64_t n) {
  std::vector<float> v(n);
  for (std::int64_t i = 0; i < n; ++i) v[i] = static_cast<float>(i);
  return loom::from_vector(v);
}

TEST_P(CheckedSharedTest, ATreeSumMissingItsFirstBarrierIsARaceNamingBothThreads) {
  // Thread 0 adds s[4] before thread 4 has stored it (the host runs thread 0 first).
  Array out = loom::zeros({1}, DType::float32);
  EXPECT_EQ(kernel_error([&] { launch("t_tree_sum", checked(1, 8, 4 * 8), iota(8), out, 1); }),
            "kernel 't_tree_sum': shared memory race in block (0, 0, 0): thread (4, 0, 0) wrote "
            "element 4 of a float32 View of the block's shared memory (bytes 16-19), which thread "
            "(0, 0, 0) read since the block began" +
                kRaceAdvice);
}

TEST_P(CheckedSharedTest, ACorrectTreeSumHasNoFindingAndItsSums) {
  Array out = loom::zeros({3}, DType::float32);
  EXPECT_EQ(kernel_error([&] { launch("t_tree_sum", checked(3, 16, 4 * 16), iota(48), out, 0); }),
            "no error");
  EXPECT_EQ(values_of<float>(out), (std::vector<float>{120, 376, 632}));
}

TEST_P(CheckedSharedTest, AReadOfAnotherThreadsStoreWithoutABarrierIsAWriteReadRace) {
  // out[i] = s[(i + 7) % 8]: thread 1 reads s[0], which thread 0 stored in the same interval.
  Array out = loom::zeros({8}, DType::float32);
  EXPECT_EQ(
      kernel_error([&] { launch("t_shared_shift", checked(1, 8, 4 * 8), iota(8), out, 7, 0); }),
      "kernel 't_shared_shift': shared memory race in block (0, 0, 0): thread (1, 0, 0) read "
      "element 0 of a float32 View of the block's shared memory (bytes 0-3), which thread (0, 0, "
      "0) wrote since the block began" +
          kRaceAdvice);
}

TEST_P(CheckedSharedTest, TheSameAccessesAcrossABarrierAreNoRace) {
  Array out = loom::zeros({8}, DType::float32);
  EXPECT_EQ(
      kernel_error([&] { launch("t_shared_shift", checked(1, 8, 4 * 8), iota(8), out, 7, 1); }),
      "no error");
  EXPECT_EQ(values_of<float>(out), (std::vector<float>{7, 0, 1, 2, 3, 4, 5, 6}));
}

TEST_P(CheckedSharedTest, SyncwarpOrdersTheLanesOfAWarpButNotTwoWarps) {
  Array out = loom::zeros({64}, DType::float32);
  EXPECT_EQ(
      kernel_error([&] { launch("t_shared_shift", checked(1, 32, 4 * 32), iota(32), out, 1, 2); }),
      "no error");
  // Lane 0 of warp 0 reads s[32], which warp 1's lane 0 stored: syncwarp orders neither.
  EXPECT_EQ(
      kernel_error([&] { launch("t_shared_shift", checked(1, 64, 4 * 64), iota(64), out, 32, 2); }),
      "kernel 't_shared_shift': shared memory race in block (0, 0, 0): thread (0, 0, 0) read "
      "element 32 of a float32 View of the block's shared memory (bytes 128-131), which thread "
      "(32, 0, 0) wrote since the block began" +
          kRaceAdvice);
}

TEST_P(CheckedSharedTest, AReadOfSharedMemoryNothingWroteIsNamed) {
  Array out = loom::zeros({4}, DType::float32);
  EXPECT_EQ(kernel_error([&] { launch("t_shared_no_barrier", checked(1, 4, 4 * 4), out, 0); }),
            "kernel 't_shared_no_barrier': read of uninitialised shared memory in block (0, 0, 0): "
            "thread (0, 0, 0) read element 0 of a float32 View of the block's shared memory (bytes "
            "0-3)" +
                kUninitAdvice);
}

TEST_P(CheckedSharedTest, TwoThreadsWritingOneElementIsAWriteWriteRace) {
  Array out = loom::zeros({4}, DType::float32);
  EXPECT_EQ(
      kernel_error([&] { launch("t_shared_no_barrier", checked(1, 4, 4 * 4), out, 1); }),
      "kernel 't_shared_no_barrier': shared memory race in block (0, 0, 0): thread (1, 0, 0) "
      "wrote element 0 of a float32 View of the block's shared memory (bytes 0-3), which thread "
      "(0, 0, 0) also wrote since the block began" +
          kRaceAdvice);
}

TEST_P(CheckedSharedTest, EachThreadOnItsOwnElementIsNoRace) {
  Array out = loom::zeros({4}, DType::float32);
  EXPECT_EQ(kernel_error([&] { launch("t_shared_no_barrier", checked(1, 4, 4 * 4), out, 2); }),
            "no error");
  EXPECT_EQ(values_of<float>(out), (std::vector<float>{1, 2, 3, 4}));
}

TEST_P(CheckedSharedTest, AtomicsOnSharedMemoryAreNoRace) {
  Array out = loom::zeros({4}, DType::int32);
  EXPECT_EQ(kernel_error([&] { launch("t_shared_counters", checked(2, 64, 4 * 4), out, 1); }),
            "no error");
  EXPECT_EQ(values_of<std::int32_t>(out), (std::vector<std::int32_t>{16, 16, 16, 16}));
}

TEST_P(CheckedSharedTest, AnAtomicOnSharedMemoryNothingWroteReadsItUninitialised) {
  Array out = loom::zeros({4}, DType::int32);
  EXPECT_EQ(kernel_error([&] { launch("t_shared_counters", checked(1, 8, 4 * 4), out, 0); }),
            "kernel 't_shared_counters': read of uninitialised shared memory in block (0, 0, 0): "
            "thread (0, 0, 0) read element 0 of an int32 View of the block's shared memory (bytes "
            "0-3)" +
                kUninitAdvice);
}

TEST_P(CheckedSharedTest, ABlockKernelsPhaseIsAnIntervalAndItsEndABarrier) {
  Array out = loom::zeros({4}, DType::float32);
  EXPECT_EQ(kernel_error([&] { launch("t_block_neighbours", checked(1, 4, 4 * 4), out, 0); }),
            "no error");
  EXPECT_EQ(values_of<float>(out), (std::vector<float>{1, 3, 5, 3}));
  EXPECT_EQ(kernel_error([&] { launch("t_block_neighbours", checked(1, 4, 4 * 4), out, 1); }),
            "kernel 't_block_neighbours': shared memory race in block (0, 0, 0): thread (1, 0, 0) "
            "wrote element 1 of a float32 View of the block's shared memory (bytes 4-7), which "
            "thread (0, 0, 0) read since the block began" +
                kRaceAdvice);
}

TEST_P(CheckedSharedTest, OfSeveralRacingBlocksTheFirstToFindOneIsNamed) {
  // Three blocks of the racy tree sum, each racing as block 0 does: cpu runs block 0 first;
  // parallel names whichever block claims the record first among those running at once.
  Array out = loom::zeros({3}, DType::float32);
  const std::string e =
      kernel_error([&] { launch("t_tree_sum", checked(3, 8, 4 * 8), iota(24), out, 1); });
  EXPECT_NE(e.find("shared memory race in block ("), std::string::npos) << e;
  EXPECT_NE(e.find("): thread (4, 0, 0) wrote element 4 of"), std::string::npos) << e;
  if (serial()) {
    EXPECT_NE(e.find("in block (0, 0, 0): thread (4, 0, 0) wrote"), std::string::npos) << e;
  }
}

TEST_P(CheckedSharedTest, TheOtherTestsSharedMemoryKernelsRunCheckedWithoutAFinding) {
  // Block kernels with atomics and phases, a 2-d tile across a barrier, syncwarp with masks.
  Array old = loom::zeros({2, 64}, DType::int64), cells = loom::zeros({2, 4}, DType::int64);
  EXPECT_EQ(kernel_error([&] { launch("t_shared_atomics", checked(2, 64, 40), old, cells); }),
            "no error");
  EXPECT_EQ(values_of<std::int64_t>(cells)[0], 64);
  Array cell = loom::zeros({3, 24}, DType::int32), count = loom::zeros({3}, DType::int32);
  EXPECT_EQ(kernel_error([&] {
              launch("t_active_threads", checked(3, Extent(4, 3, 2), 4), cell, count, 7);
            }),
            "no error");
  EXPECT_EQ(values_of<std::int32_t>(count), (std::vector<std::int32_t>{7, 7, 7}));
  Array tiles = loom::zeros({2 * 2 * 32}, DType::int64);
  EXPECT_EQ(kernel_error([&] {
              launch("t_shared_2d", checked(2, Extent(8, 4), 16 + 8 * 32), tiles, std::int64_t{16});
            }),
            "no error");
  for (const std::uint32_t mask : {0xffffffffu, 0x0000ffffu, 0x55555555u}) {
    const std::int64_t nt = 64;
    std::vector<std::int32_t> v(3 * nt);
    for (std::int64_t i = 0; i < 3 * nt; ++i) v[i] = static_cast<std::int32_t>(i);
    Array warp_out = loom::full<std::int32_t>({3 * nt, 2}, -1);
    EXPECT_EQ(kernel_error([&] {
                launch("t_warp_sync_shared", checked(3, nt, 4 * nt), loom::from_vector(v), warp_out,
                       mask);
              }),
              "no error")
        << "mask " << mask;
  }
}

TEST_P(CheckedSharedTest, TheSeedKernelsOnSharedMemoryRunCheckedWithoutAFinding) {
  // Blocks of 12 (odd rounds of the tree), a part-empty last block; the histogram's three phases.
  const Array x = iota(40);
  for (const char* k : {"block_sum", "block_sum_sync"}) {
    Array out = loom::zeros({4}, DType::float32);
    EXPECT_EQ(kernel_error([&] { launch(k, checked(4, 12, 4 * 12), x, out); }), "no error") << k;
    EXPECT_EQ(values_of<float>(out), (std::vector<float>{66, 210, 354, 150})) << k;
  }
  Array hist = loom::zeros({10}, DType::int32);
  EXPECT_EQ(kernel_error(
                [&] { launch("histogram_shared", checked(3, 16, 4 * 10), x, 0.0f, 40.0f, hist); }),
            "no error");
  EXPECT_EQ(values_of<std::int32_t>(hist), std::vector<std::int32_t>(10, 4));
}

INSTANTIATE_TEST_SUITE_P(Targets, CheckedSharedTest, ::testing::ValuesIn(kEveryWhere), where_name);

}  // namespace
}  // namespace loom_kernel_test
