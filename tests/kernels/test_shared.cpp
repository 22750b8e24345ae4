// Block shared memory and barriers on every target: block_sum's tree sum in shared memory for
// several block sizes; on host targets the rules a GPU cannot report (a barrier some threads skip,
// syncthreads() in a kernel that did not declare it, more shared memory than the launch gave).
#include "helpers.hpp"

namespace loom_kernel_test {
namespace {

using loom::dtype_v;

class SharedTest : public KernelTest {
 protected:
  // block_sum over nblocks blocks of bs threads on n = nblocks * bs - bs / 2 whole numbers (the
  // last block half full: its missing elements count as zero); out has nout entries.
  template <class T>
  void block_sum_case(std::int64_t nblocks, std::int64_t bs, std::int64_t nout = -1) {
    SCOPED_TRACE(std::string(loom::name(dtype_v<T>)) + ", " + std::to_string(nblocks) +
                 " blocks of " + std::to_string(bs));
    if (nout < 0) nout = nblocks;
    const std::int64_t n = nblocks * bs - bs / 2;
    std::vector<T> xv;  // whole numbers: sums exact in every type and order
    for (std::int64_t v : random_values<std::int64_t>(n, 13, -1000, 1000)) xv.push_back(T(v));
    Array out = put(loom::full<T>({nout}, T(-7)));
    launch("block_sum", config(nblocks, bs, sizeof(T) * bs), put(loom::from_vector(xv)), out);
    std::vector<T> want(nout, T(-7));
    for (std::int64_t b = 0; b < std::min(nblocks, nout); ++b) {
      T s = 0;
      for (std::int64_t i = b * bs; i < std::min(n, (b + 1) * bs); ++i) s += xv[i];
      want[b] = s;
    }
    EXPECT_EQ(values_of<T>(get(out)), want);
  }
  void every_type(std::int64_t nblocks, std::int64_t bs, std::int64_t nout = -1) {
    block_sum_case<double>(nblocks, bs, nout);
    block_sum_case<float>(nblocks, bs, nout);
    block_sum_case<std::int32_t>(nblocks, bs, nout);
    block_sum_case<std::int64_t>(nblocks, bs, nout);
  }
};

TEST_P(SharedTest, BlockSumGivesEachBlocksSumForBlocksOf1To1024Threads) {
  for (std::int64_t bs : {1, 2, 32, 64, 256, 1024}) every_type(5, bs);
}

// Issue 12: the seed's tree assumed a power of two and dropped partial sums otherwise.
TEST_P(SharedTest, BlockSumGivesEachBlocksSumForBlockSizesThatAreNotPowersOfTwo) {
  for (std::int64_t bs : {3, 5, 6, 7, 33, 100, 129, 255, 1000, 1023}) every_type(5, bs);
}

TEST_P(SharedTest, BlockSumOverManyBlocksGivesEachBlocksSum) { every_type(2048, 128); }

TEST_P(SharedTest, BlockSumWritesOnlyTheOutputsThatExist) { every_type(8, 64, 3); }

TEST_P(SharedTest, SharedHistogramWithMoreBinsThanThreadsMatchesTheGlobalOne) {
  const auto xv = random_values<float>(20000, 14, -1, 11);
  Array global = put(loom::zeros({1000}, DType::int32));
  Array shared = put(loom::zeros({1000}, DType::int32));
  const Array x = put(loom::from_vector(xv));
  launch("histogram", config(16, 64), x, 0.0f, 10.0f, global);
  launch("histogram_shared", config(16, 64, 4 * 1000), x, 0.0f, 10.0f, shared);
  EXPECT_EQ(values_of<std::int32_t>(get(shared)), values_of<std::int32_t>(get(global)));
}

TEST_P(SharedTest, SyncthreadsWithoutDeclaringUsesSyncthreadsIsAKernelErrorOnHostTargets) {
  if (!on_host())
    GTEST_SKIP() << "t_sync_undeclared has no CUDA half: the GPU needs no declaration";
  Array out = put(loom::zeros({8}, DType::int32));
  try {
    launch("t_sync_undeclared", config(2, 4), out);
    FAIL() << "no error";
  } catch (const loom::KernelError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("kernel 't_sync_undeclared': syncthreads() called by a kernel that does not "
                     "declare `static constexpr bool uses_syncthreads = true;`"),
              std::string::npos)
        << m;
  }
}

TEST_P(SharedTest, AThreadReturningBeforeABarrierIsAKernelErrorNamingTheBlock) {
  if (!on_host()) GTEST_SKIP() << "on a GPU this hangs or corrupts results: host targets only";
  Array out = put(loom::zeros({32}, DType::int32));
  try {
    launch("t_barrier_divergent", config(4, 8), out, std::int32_t{2});
    FAIL() << "no error";
  } catch (const loom::KernelError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("kernel 't_barrier_divergent': syncthreads() was not reached by every thread "
                     "of block (2, 0, 0): 1 of 8 threads returned while the others wait"),
              std::string::npos)
        << m;
  }
}

TEST_P(SharedTest, AfterABarrierErrorTheNextLaunchRunsNormally) {
  if (!on_host()) GTEST_SKIP() << "on a GPU this hangs or corrupts results: host targets only";
  Array out = put(loom::zeros({32}, DType::int32));
  EXPECT_THROW(launch("t_barrier_divergent", config(4, 8), out, std::int32_t{0}),
               loom::KernelError);
  EXPECT_THROW(launch("t_barrier_divergent", config(4, 8), out, std::int32_t{3}),
               loom::KernelError);
  Array all = put(loom::zeros({32}, DType::int32));
  launch("t_barrier_divergent", config(4, 8), all, std::int32_t{-1});  // no block skips
  EXPECT_EQ(values_of<std::int32_t>(get(all)), std::vector<std::int32_t>(32, 1));
  every_type(4, 256);
}

TEST_P(SharedTest, SharedArrayLargerThanTheLaunchsSharedBytesIsALaunchError) {
  if (!on_host()) GTEST_SKIP() << "device code does not check shared_array sizes (host targets do)";
  const auto xv = random_values<float>(1000, 15, -5, 5);
  Array hist = put(loom::full<std::int32_t>({10}, 3));
  try {
    launch("histogram_shared", config(4, 32, 39), put(loom::from_vector(xv)), -4.0f, 4.0f, hist);
    FAIL() << "no error";
  } catch (const loom::LaunchError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("kernel 'histogram_shared': the kernel uses 40 bytes of shared memory but "
                     "the launch gave 39; set LaunchConfig::shared_bytes"),
              std::string::npos)
        << m;
  }
  EXPECT_EQ(values_of<std::int32_t>(get(hist)), std::vector<std::int32_t>(10, 3));
}

TEST_P(SharedTest, BlockSumWithoutSharedBytesIsALaunchError) {
  if (!on_host()) GTEST_SKIP() << "device code does not check shared_array sizes (host targets do)";
  Array out = put(loom::full<double>({2}, -7.0));
  EXPECT_THROW(launch("block_sum", config(2, 64), put(loom::zeros({128})), out), loom::LaunchError);
  EXPECT_EQ(values_of<double>(get(out)), std::vector<double>(2, -7.0));
}

INSTANTIATE_TEST_SUITE_P(Targets, SharedTest, ::testing::ValuesIn(kEveryWhere), where_name);

}  // namespace
}  // namespace loom_kernel_test
