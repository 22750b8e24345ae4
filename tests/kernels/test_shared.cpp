// Block shared memory and barriers on every target: block_sum's tree sum in shared memory for
// several block sizes; on host targets the rules a GPU cannot report (a barrier some threads skip,
// syncthreads() in a kernel that did not declare it, more shared memory than the launch gave).
// Issue 15: 2-d and 3-d shared arrays ({rows, cols[, depth]}), fixed-size LOOM_SHARED arrays and
// per-thread local_array.
#include <algorithm>
#include <tuple>

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

// ---- issue 15: multi-dimensional and fixed-size shared arrays ----

// t_shared_2d / t_shared_3d over blocks of `threads`, the tile at byte_offset: each thread gets the
// rank of the thread mirrored in its block (the tile is shared and indexed in C order) and its
// own rank back through a 1-d view of the same bytes (C order: last index fastest).
TEST_P(SharedTest, TwoDimensionalSharedArrayIsOneCOrderTilePerBlock) {
  for (const auto& [bx, by, off] : std::vector<std::tuple<unsigned, unsigned, std::int64_t>>{
           {8, 4, 0}, {32, 32, 0}, {5, 3, 8}, {1, 7, 64}, {16, 1, 0}}) {
    SCOPED_TRACE(std::to_string(bx) + "x" + std::to_string(by) + " at " + std::to_string(off));
    const std::int64_t nb = 6, n = bx * by;
    Array out = put(loom::full<std::int64_t>({2 * nb * n}, -1));
    launch("t_shared_2d", config(nb, Extent{bx, by}, off + 8 * n), out, off);
    std::vector<std::int64_t> want;
    for (std::int64_t b = 0; b < nb; ++b)
      for (std::int64_t r = 0; r < n; ++r)
        want.insert(want.end(), {1000 * b + (n - 1 - r), 1000 * b + r});
    EXPECT_EQ(values_of<std::int64_t>(get(out)), want);
  }
}

TEST_P(SharedTest, ThreeDimensionalSharedArrayIsOneCOrderTilePerBlock) {
  for (const auto& [bx, by, bz] : std::vector<std::tuple<unsigned, unsigned, unsigned>>{
           {4, 4, 4}, {8, 2, 3}, {1, 1, 64}, {16, 8, 8}}) {
    SCOPED_TRACE(std::to_string(bx) + "x" + std::to_string(by) + "x" + std::to_string(bz));
    const std::int64_t nb = 5, n = std::int64_t{bx} * by * bz;
    Array out = put(loom::full<double>({2 * nb * n}, -1.0));
    launch("t_shared_3d", config(nb, Extent{bx, by, bz}, 16 + 8 * n), out, std::int64_t{16});
    std::vector<double> want;
    for (std::int64_t b = 0; b < nb; ++b)
      for (std::int64_t r = 0; r < n; ++r)
        want.insert(want.end(), {1000.0 * b + double(n - 1 - r), 1000.0 * b + double(r)});
    EXPECT_EQ(values_of<double>(get(out)), want);
  }
}

TEST_P(SharedTest, TwoDimensionalSharedArrayLargerThanTheLaunchGaveIsALaunchError) {
  if (!on_host()) GTEST_SKIP() << "device code does not check shared_array sizes (host targets do)";
  Array out = put(loom::full<std::int64_t>({2 * 32}, 7));
  try {
    launch("t_shared_2d", config(1, Extent{8, 4}, 8 * 32 - 1), out, std::int64_t{0});
    FAIL() << "no error";
  } catch (const loom::LaunchError& e) {
    EXPECT_NE(std::string(e.what()).find("kernel 't_shared_2d': the kernel uses 256 bytes of "
                                         "shared memory but the launch gave 255"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(values_of<std::int64_t>(get(out)), std::vector<std::int64_t>(64, 7));
}

TEST_P(SharedTest, FixedSizeSharedArraysAreSharedByTheBlockAndDistinctPerDeclaration) {
  for (std::int64_t bs : {128, 64, 1, 33}) {
    SCOPED_TRACE(bs);
    const std::int64_t nb = 9;
    Array out = put(loom::zeros({nb * bs, 2}, DType::int32));
    launch("t_shared_fixed", config(nb, bs), out);
    std::vector<std::int32_t> want;
    for (std::int64_t b = 0; b < nb; ++b)
      for (std::int64_t r = 0; r < bs; ++r)
        want.insert(want.end(), {std::int32_t(1000 * b + bs - 1 - r), std::int32_t(-(bs - 1 - r))});
    EXPECT_EQ(values_of<std::int32_t>(get(out)), want);
  }
}

// ThreadCtx on its own (as a host target builds it): the checks and the layout.
TEST(SharedArrayShape, HostChecksNegativeAndOverflowingShapes) {
  loom::ThreadCtx t;  // no buffer: every call below throws before using one
  t.shared_bytes = 256;
  const auto message = [&](auto f) {
    try {
      f();
    } catch (const loom::LaunchError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message([&] {
              t.shared_array<float>({3, -1});
            }),
            "the kernel asks shared_array for a (3, -1) array of 4-byte elements at byte offset 0: "
            "a negative extent; the launch gave 256 bytes of shared memory");
  EXPECT_EQ(message([&] {
              t.shared_array<double>({std::int64_t{1} << 31, std::int64_t{1} << 31, 8});
            }),
            "the kernel asks shared_array for a (2147483648, 2147483648, 8) array of 8-byte "
            "elements at byte offset 0: more bytes than a size_t holds (18446744073709551615); "
            "the launch gave 256 bytes of shared memory");
  EXPECT_EQ(message([&] {
              t.shared_array<char>({1, 1}, SIZE_MAX);
            }),
            "the kernel asks shared_array for a (1, 1) array of 1-byte elements at byte offset "
            "18446744073709551615: more bytes than a size_t holds (18446744073709551615); the "
            "launch gave 256 bytes of shared memory");
  EXPECT_EQ(message([&] {
              t.shared_array<float>({8, 8}, 4);
            }),
            "the kernel uses 260 bytes of shared memory but the launch gave 256; set "
            "LaunchConfig::shared_bytes");
  // Exactly the buffer, and empty shapes anywhere, are fine.
  alignas(64) unsigned char buf[256];
  t.shared_mem = buf;
  const loom::View<float, 2> a = t.shared_array<float>({8, 8});
  EXPECT_EQ(a.size(0), 8);
  EXPECT_EQ(a.size(1), 8);
  EXPECT_EQ(a.strides[0], 32);
  EXPECT_EQ(a.strides[1], 4);
  const loom::View<std::int16_t, 3> b = t.shared_array<std::int16_t>({2, 3, 4}, 16);
  EXPECT_EQ(reinterpret_cast<unsigned char*>(b.data), buf + 16);
  EXPECT_EQ(b.strides[0], 24);
  EXPECT_EQ(b.strides[1], 8);
  EXPECT_EQ(b.strides[2], 2);
  EXPECT_EQ(&b(1, 2, 3), reinterpret_cast<std::int16_t*>(buf + 16) + 23);
  EXPECT_EQ(t.shared_array<double>({0, 1 << 20, 1 << 20}).size(0), 0);
  EXPECT_EQ(t.shared_array<float>(2, 8).size(), 2);  // (n, byte_offset) stays the 1-d array
}

// ---- issue 15: per-thread local arrays ----

TEST_P(SharedTest, LocalArraysArePerThreadOnEveryPath) {
  for (const char* k : {"t_local_arrays", "t_local_arrays_sync"}) {
    SCOPED_TRACE(k);
    const std::int64_t n = 1000;
    const auto xv = random_values<float>(n * 8, 21, -50, 50);
    Array out = put(loom::zeros({n, 9}, DType::float32));
    launch(k, config(8, 128), put(loom::from_vector(xv).reshape({n, 8})), out);
    std::vector<float> want;
    for (std::int64_t i = 0; i < n; ++i) {
      std::vector<float> row(xv.begin() + 8 * i, xv.begin() + 8 * (i + 1));
      std::sort(row.begin(), row.end());
      row.push_back(150.0f);
      want.insert(want.end(), row.begin(), row.end());
    }
    EXPECT_EQ(values_of<float>(get(out)), want);
  }
}

TEST(LocalArray, IsAnAggregateWithACOrderView) {
  using A = loom::local_array<std::int32_t, 2, 3, 4>;
  static_assert(std::is_trivially_copyable_v<A> && std::is_aggregate_v<A>);
  static_assert(sizeof(A) == 24 * sizeof(std::int32_t) && A::ndim == 3 && A::count == 24);
  static_assert(A::size(0) == 2 && A::size(1) == 3 && A::size(2) == 4);
  A a{};
  for (std::int32_t k = 0; k < A::count; ++k) EXPECT_EQ(a.data[k], 0);
  a(1, 2, 3) = 5;
  EXPECT_EQ(a.data[23], 5);
  const loom::View<std::int32_t, 3> v = a.view();
  EXPECT_EQ(v.strides[0], 48);
  EXPECT_EQ(v.strides[1], 16);
  EXPECT_EQ(v.strides[2], 4);
  EXPECT_EQ(&v(1, 2, 3), &a.data[23]);
#if LOOM_BOUNDS_CHECK
  EXPECT_THROW(a(2, 0, 0), loom::IndexError);
#endif
}

TEST_P(SharedTest, AtomicsOnSharedMemoryGiveOneSerialHistoryPerBlock) {
  // The host runs them as plain read-modify-writes (one OS thread a block); every target must
  // give the same results: each block's add returns 0..n-1 once each, max/inc/xor are exact.
  for (const std::int64_t n : {1, 7, 64, 256, 1000}) {
    const std::int64_t nb = 5;
    Array old = put(loom::zeros({nb, n}, DType::int64));
    Array cells = put(loom::zeros({nb, 4}, DType::int64));
    launch("t_shared_atomics", config(nb, n, 40), old, cells);
    const auto o = values_of<std::int64_t>(get(old));
    const auto c = values_of<std::int64_t>(get(cells));
    std::int64_t x = 0;
    for (std::int64_t r = 0; r < n; ++r) x ^= r;
    for (std::int64_t b = 0; b < nb; ++b) {
      std::vector<std::int64_t> seen(o.begin() + b * n, o.begin() + (b + 1) * n);
      std::sort(seen.begin(), seen.end());
      for (std::int64_t r = 0; r < n; ++r) ASSERT_EQ(seen[r], r) << "block " << b << ", n " << n;
      EXPECT_EQ(c[b * 4 + 0], n);
      EXPECT_EQ(c[b * 4 + 1], n - 1);
      EXPECT_EQ(c[b * 4 + 2], n % 7);  // atomic_inc with limit 6 counts modulo 7
      EXPECT_EQ(c[b * 4 + 3], x);
    }
  }
}

TEST_P(SharedTest, EachThreadOfActiveThreadsRunsTheFirstOnesByRank) {
  // 1-d and 3-d blocks (rank = x + bx * (y + by * z)); active below, at and above the block.
  for (const Extent threads : {Extent(24), Extent(4, 3, 2)}) {
    for (const std::int32_t active : {0, 1, 7, 24, 30}) {
      const std::int64_t nb = 3, nt = 24;
      Array cell = put(loom::zeros({nb, nt}, DType::int32));
      Array count = put(loom::zeros({nb}, DType::int32));
      launch("t_active_threads", config(nb, threads, 4), cell, count, active);
      const auto c = values_of<std::int32_t>(get(cell));
      const auto n = values_of<std::int32_t>(get(count));
      for (std::int64_t b = 0; b < nb; ++b) {
        EXPECT_EQ(n[b], std::min<std::int32_t>(active, nt)) << "block " << b;
        for (std::int64_t r = 0; r < nt; ++r) {
          ASSERT_EQ(c[b * nt + r], 2 + (r < active ? 1 : 0))
              << "block " << b << ", rank " << r << ", active " << active << ", threads "
              << threads.x << "x" << threads.y << "x" << threads.z;
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Targets, SharedTest, ::testing::ValuesIn(kEveryWhere), where_name);

}  // namespace
}  // namespace loom_kernel_test
