// Warp functions (issue 15) on every target, against CUDA's definitions (CUDA C++ Programming
// Guide, "Warp Shuffle Functions" and "Warp Vote Functions") computed here by plain loops: every
// shuffle for the six types with full and partial masks and widths, votes on lane-dependent
// predicates, syncwarp ordering shared memory, warp and block sums by shfl_down_sync with the
// reference tree's bits, activemask in divergent code; blocks of 32, 64 and 96 threads, a partial
// warp (48), 2-d and 3-d blocks (lane = linear rank % 32). On host targets the misuses CUDA leaves
// undefined are KernelErrors, and so is a warp function in a kernel that did not declare
// uses_syncthreads (on every host path, the fibers ones included).
#include <algorithm>
#include <bit>
#include <cstring>
#include <functional>
#include <set>

#include "helpers.hpp"
#include "loom/warp.hpp"

namespace loom_kernel_test {
namespace {

using loom::dtype_v;
using loom::kFullMask;
using loom::kWarpSize;

enum class Shfl { idx, up, down, xor_ };

// The lane whose value a shuffle gives `lane`, from the Programming Guide's words: within the
// caller's segment of `width` lanes, src modulo width (idx); lane - delta unless that is before
// the segment (up); lane + delta unless past the segment's end (down); lane ^ lane_mask unless
// past the segment's end, earlier segments being readable (xor). Otherwise the caller's own.
int reference_source(Shfl op, int lane, int arg, int width) {
  const int start = lane / width * width, end = start + width;
  switch (op) {
    case Shfl::idx:
      return start + ((arg % width) + width) % width;
    case Shfl::up:
      return lane - arg >= start ? lane - arg : lane;
    case Shfl::down:
      return lane + arg < end ? lane + arg : lane;
    case Shfl::xor_:
      return (lane ^ arg) < end ? lane ^ arg : lane;
  }
  return lane;
}

// The lanes a block of n threads has in warp w.
std::uint32_t lanes_present(std::int64_t n, std::int64_t w) {
  const std::int64_t k = n - w * kWarpSize;
  return k >= kWarpSize ? kFullMask : (std::uint32_t{1} << k) - 1;
}

template <class T>
std::uint64_t bits_of(T v) {
  std::uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}

// A block's shape.
struct Block {
  std::int64_t x, y = 1, z = 1;
  std::int64_t count() const { return x * y * z; }
  operator Extent() const { return {x, y, z}; }  // NOLINT: a launch's .threads
};
// Block shapes: whole warps, a partial last warp, 2-d and 3-d.
const Block kBlocks[] = {{32}, {64}, {96}, {48}, {8, 12}, {16, 3}, {4, 4, 4}, {7, 5}};
const std::uint32_t kMasks[] = {kFullMask, 0x0000ffffu, 0xaaaaaaaau, 0x80000001u, 0xf0f0f00fu};

std::string shape_str(const Block& d) {
  std::string s = "(";  // appends: `"(" + std::string&&` trips GCC 12's -Wrestrict
  s += std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) + ")";
  return s;
}
std::string hex(std::uint32_t m) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08x", m);
  return b;
}

class WarpTest : public KernelTest {
 protected:
  static constexpr std::int64_t kGrid = 3;  // blocks a launch

  // Every shuffle of t_warp_shuffle for one type, block shape, mask, delta, lane mask and width,
  // against reference_source. A source lane outside the mask gives an unspecified value in CUDA:
  // not checked on cuda; the host documents the caller's own value, checked there.
  template <class T>
  void shuffle_case(const Block& block, std::uint32_t mask, int delta, int lane_mask, int width,
                    unsigned seed) {
    SCOPED_TRACE(std::string(loom::name(dtype_v<T>)) + ", block " + shape_str(block) + ", mask " +
                 hex(mask) + ", delta " + std::to_string(delta) + ", lane_mask " +
                 std::to_string(lane_mask) + ", width " + std::to_string(width));
    const std::int64_t nt = block.count(), n = kGrid * nt;
    const std::vector<T> v = random_values<T>(n, seed, 0, 1e6);
    const std::vector<std::int32_t> src = random_values<std::int32_t>(n, seed + 1, -40, 40);
    const T sentinel = T(12345678);  // exact in every type, outside the values
    Array out = put(loom::full<T>({n, 4}, sentinel));
    launch("t_warp_shuffle", config(kGrid, block), put(loom::from_vector(v)),
           put(loom::from_vector(src)), out, mask, std::int32_t{delta}, std::int32_t{lane_mask},
           std::int32_t{width});
    const std::vector<T> got = values_of<T>(get(out));
    for (std::int64_t g = 0; g < n; ++g) {
      const std::int64_t r = g % nt, base = g - r % kWarpSize;
      const int lane = static_cast<int>(r % kWarpSize);
      const std::uint32_t m = mask & lanes_present(nt, r / kWarpSize);
      const int args[4] = {src[g], delta, delta, lane_mask};
      const Shfl ops[4] = {Shfl::idx, Shfl::up, Shfl::down, Shfl::xor_};
      for (int k = 0; k < 4; ++k) {
        const T have = got[g * 4 + k];
        if (!(m >> lane & 1)) {
          ASSERT_EQ(bits_of(have), bits_of(sentinel)) << "row " << g << " is not in the mask";
          continue;
        }
        const int s = reference_source(ops[k], lane, args[k], width);
        if (!(m >> s & 1) && !on_host()) continue;  // unspecified in CUDA
        const T want = (m >> s & 1) ? v[base + s] : v[g];
        ASSERT_EQ(bits_of(have), bits_of(want))
            << "row " << g << " (lane " << lane << "), shuffle " << k << " of " << args[k]
            << ": want lane " << s << "'s value";
      }
    }
  }
  template <class T>
  void shuffle_type(unsigned seed) {
    for (const auto& block : kBlocks) {
      for (std::uint32_t mask : kMasks) {
        shuffle_case<T>(block, mask, 1, 1, 32, seed);
        shuffle_case<T>(block, mask, 16, 31, 32, seed + 2);
        shuffle_case<T>(block, mask, 3, 5, 8, seed + 4);
        shuffle_case<T>(block, mask, 0, 16, 16, seed + 6);
        if (HasFatalFailure()) return;
      }
    }
  }
};

TEST_P(WarpTest, ShufflesGiveCudasSourceLaneForEveryTypeMaskAndBlockShape) {
  shuffle_type<std::int32_t>(1);
  shuffle_type<std::uint32_t>(2);
  shuffle_type<std::int64_t>(3);
  shuffle_type<std::uint64_t>(4);
  shuffle_type<float>(5);
  shuffle_type<double>(6);
}

TEST_P(WarpTest, ShufflesWithEveryDeltaAndWidth) {
  for (int width : {1, 2, 4, 8, 16, 32}) {
    for (int d : {0, 1, 2, 5, 7, 15, 17, 31}) {
      shuffle_case<float>({64}, kFullMask, d, d, width, 40 + d);
      shuffle_case<std::int64_t>({48}, 0x7fff00ffu, d, 31 - d, width, 50 + d);
      if (HasFatalFailure()) return;
    }
  }
}

// Predicates with a pattern in the lane (and one random), ballot/all/any against their
// definitions over the mask; activemask on entry is the warp's lanes, laneid the rank % 32.
TEST_P(WarpTest, VotesAndActivemaskAndLaneidFollowCudasDefinitions) {
  for (const auto& block : kBlocks) {
    const std::int64_t nt = block.count(), n = 3 * nt;
    const auto rnd = random_values<std::int32_t>(n, 9, 0, 2);
    const std::function<std::int32_t(std::int64_t)> patterns[] = {
        [](std::int64_t) { return 1; },
        [](std::int64_t) { return 0; },
        [nt](std::int64_t g) { return static_cast<std::int32_t>(g % nt % kWarpSize % 3 == 0); },
        [nt](std::int64_t g) { return static_cast<std::int32_t>(g % nt % kWarpSize == 31); },
        [nt](std::int64_t g) { return static_cast<std::int32_t>(g % nt % kWarpSize != 0); },
        [&rnd](std::int64_t g) { return rnd[g]; }};
    for (const auto& pat : patterns) {
      std::vector<std::int32_t> pred(n);
      for (std::int64_t g = 0; g < n; ++g) pred[g] = pat(g) * 7;  // any nonzero is true
      for (std::uint32_t mask : kMasks) {
        SCOPED_TRACE("block " + shape_str(block) + ", mask " + hex(mask));
        Array out = put(loom::full<std::uint32_t>({n, 5}, 0xdeadu));
        launch("t_warp_vote", config(3, block), put(loom::from_vector(pred)), out, mask);
        const auto got = values_of<std::uint32_t>(get(out));
        for (std::int64_t g = 0; g < n; ++g) {
          const std::int64_t r = g % nt, base = g - r % kWarpSize;
          const int lane = static_cast<int>(r % kWarpSize);
          const std::uint32_t present = lanes_present(nt, r / kWarpSize), m = mask & present;
          ASSERT_EQ(got[g * 5 + 0], present) << "activemask, row " << g;
          ASSERT_EQ(got[g * 5 + 1], static_cast<std::uint32_t>(lane)) << "laneid, row " << g;
          if (!(m >> lane & 1)) {
            for (int k = 2; k < 5; ++k) ASSERT_EQ(got[g * 5 + k], 0xdeadu) << "row " << g;
            continue;
          }
          std::uint32_t ballot = 0;
          for (int j = 0; j < kWarpSize; ++j) {
            if ((m >> j & 1) && pred[base + j] != 0) ballot |= std::uint32_t{1} << j;
          }
          ASSERT_EQ(got[g * 5 + 2], ballot) << "ballot_sync, row " << g;
          ASSERT_EQ(got[g * 5 + 3], ballot == m ? 1u : 0u) << "all_sync, row " << g;
          ASSERT_EQ(got[g * 5 + 4], ballot != 0 ? 1u : 0u) << "any_sync, row " << g;
        }
      }
    }
  }
}

// Without syncwarp the host's lanes (one at a time) would read shared memory not yet written
// (or, in the second round, overwritten), so this fails if syncwarp does not wait.
TEST_P(WarpTest, SyncwarpOrdersSharedMemoryBetweenTheLanesOfItsMask) {
  for (const auto& block : kBlocks) {
    for (std::uint32_t mask : kMasks) {
      SCOPED_TRACE("block " + shape_str(block) + ", mask " + hex(mask));
      const std::int64_t nt = block.count(), n = 3 * nt;
      const auto v = random_values<std::int32_t>(n, 11, -1e6, 1e6);
      Array out = put(loom::full<std::int32_t>({n, 2}, -1));
      launch("t_warp_sync_shared", config(3, block, 4 * nt), put(loom::from_vector(v)), out, mask);
      const auto got = values_of<std::int32_t>(get(out));
      for (std::int64_t g = 0; g < n; ++g) {
        const std::int64_t r = g % nt, base = g - r % kWarpSize;
        const int lane = static_cast<int>(r % kWarpSize);
        const std::uint32_t m = mask & lanes_present(nt, r / kWarpSize);
        for (int k = 0; k < 2; ++k) {
          if (!(m >> lane & 1)) {
            ASSERT_EQ(got[g * 2 + k], -1) << "row " << g;
            continue;
          }
          int next = lane;
          do next = (next + 1) % kWarpSize;
          while (!(m >> next & 1));
          ASSERT_EQ(got[g * 2 + k], v[base + next] + k) << "row " << g << ", round " << k;
        }
      }
    }
  }
}

// The 32 lanes' values after off = 16, 8, 4, 2, 1 steps of v[i] += shfl_down(v, off), where a lane
// past the end adds its own value (CUDA's rule): lane 0's result, in the kernel's order.
template <class T>
T reference_warp_sum(const T* x) {
  T v[kWarpSize];
  std::copy(x, x + kWarpSize, v);
  for (int off = kWarpSize / 2; off > 0; off /= 2) {
    T next[kWarpSize];
    for (int i = 0; i < kWarpSize; ++i) next[i] = v[i] + (i + off < kWarpSize ? v[i + off] : v[i]);
    std::copy(next, next + kWarpSize, v);
  }
  return v[0];
}

TEST_P(WarpTest, WarpSumByShflDownHasTheReferenceTreesBits) {
  for (std::int64_t bs : {32, 64, 96, 1024}) {
    SCOPED_TRACE("blocks of " + std::to_string(bs));
    const std::int64_t n = 5 * bs;
    const auto xf = random_values<float>(n, 21, -1e3, 1e3);
    const auto xd = random_values<double>(n, 22, -1e3, 1e3);
    const auto xi = random_values<std::int32_t>(n, 23, -1e4, 1e4);
    Array of = put(loom::zeros({n / 32}, DType::float32));
    Array od = put(loom::zeros({n / 32}, DType::float64));
    Array oi = put(loom::zeros({n / 32}, DType::int32));
    launch("t_warp_sum", config(5, bs), put(loom::from_vector(xf)), of);
    launch("t_warp_sum", config(5, bs), put(loom::from_vector(xd)), od);
    launch("t_warp_sum", config(5, bs), put(loom::from_vector(xi)), oi);
    const auto gf = values_of<float>(get(of));
    const auto gd = values_of<double>(get(od));
    const auto gi = values_of<std::int32_t>(get(oi));
    for (std::int64_t w = 0; w < n / 32; ++w) {
      ASSERT_EQ(bits_of(gf[w]), bits_of(reference_warp_sum(xf.data() + 32 * w))) << "warp " << w;
      ASSERT_EQ(bits_of(gd[w]), bits_of(reference_warp_sum(xd.data() + 32 * w))) << "warp " << w;
      ASSERT_EQ(gi[w], reference_warp_sum(xi.data() + 32 * w)) << "warp " << w;
    }
  }
}

// Warp sums, a barrier, then warp 0 sums the warp sums: the same bits as the two-level tree.
TEST_P(WarpTest, BlockSumByWarpsAndABarrierHasTheReferenceTreesBits) {
  for (std::int64_t bs : {32, 64, 96, 256, 1024}) {
    SCOPED_TRACE("blocks of " + std::to_string(bs));
    const std::int64_t nblocks = 7, n = nblocks * bs - bs / 3;  // the last block part-empty
    const auto x = random_values<double>(n, 31, -1e3, 1e3);
    Array out = put(loom::zeros({nblocks}, DType::float64));
    launch("t_block_sum_warps", config(nblocks, bs), put(loom::from_vector(x)), out);
    const auto got = values_of<double>(get(out));
    for (std::int64_t b = 0; b < nblocks; ++b) {
      double partial[kWarpSize] = {};
      for (std::int64_t w = 0; w < bs / kWarpSize; ++w) {
        double lanes[kWarpSize];
        for (int i = 0; i < kWarpSize; ++i) {
          const std::int64_t g = b * bs + w * kWarpSize + i;
          lanes[i] = g < n ? x[g] : 0.0;
        }
        partial[w] = reference_warp_sum(lanes);
      }
      ASSERT_EQ(bits_of(got[b]), bits_of(reference_warp_sum(partial))) << "block " << b;
    }
  }
}

// activemask() in divergent code with the warp-aggregated atomic idiom: every thread whose
// predicate holds gets a distinct slot, and the counter counts them, on any target. On the host
// activemask() is documented to give exactly the warp's lanes that took the branch.
TEST_P(WarpTest, ActivemaskInDivergentCodeGivesTheLanesThatTookTheBranch) {
  for (const auto& block : kBlocks) {
    SCOPED_TRACE("block " + shape_str(block));
    const std::int64_t nt = block.count(), n = 4 * nt;
    const auto pred = random_values<std::int32_t>(n, 41, 0, 2);
    Array counter = put(loom::zeros({1}, DType::int32));
    Array slot = put(loom::full<std::int32_t>({n}, -1));
    Array mask = put(loom::zeros({n}, DType::uint32));
    launch("t_warp_aggregated_atomic", config(4, block), put(loom::from_vector(pred)), counter,
           slot, mask);
    const auto slots = values_of<std::int32_t>(get(slot));
    const auto masks = values_of<std::uint32_t>(get(mask));
    const std::int64_t taken = std::count(pred.begin(), pred.end(), 1);
    EXPECT_EQ(values_of<std::int32_t>(get(counter))[0], taken);
    std::set<std::int32_t> seen;
    for (std::int64_t g = 0; g < n; ++g) {
      if (pred[g] == 0) {
        ASSERT_EQ(slots[g], -1) << "row " << g;
        continue;
      }
      ASSERT_TRUE(slots[g] >= 0 && slots[g] < taken && seen.insert(slots[g]).second)
          << "row " << g << " slot " << slots[g];
      if (!on_host()) continue;
      const std::int64_t r = g % nt, base = g - r % kWarpSize;
      std::uint32_t want = 0;
      for (int j = 0; j < kWarpSize && r - r % kWarpSize + j < nt; ++j) {
        if (pred[base + j]) want |= std::uint32_t{1} << j;
      }
      ASSERT_EQ(masks[g], want) << "row " << g;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Errors (host targets: the GPU hangs, returns garbage or needs no declaration).

class WarpErrorTest : public KernelTest {
 protected:
  void SetUp() override {
    KernelTest::SetUp();
    if (!IsSkipped() && !on_host()) {
      GTEST_SKIP() << "undefined behaviour on a GPU; these kernels have no CUDA half";
    }
  }
  // The KernelError message of launching `kernel`, or a failure.
  template <class... A>
  std::string error_of(const std::string& kernel, const LaunchConfig& c, const A&... args) {
    try {
      launch(kernel, c, args...);
    } catch (const loom::KernelError& e) {
      return e.what();
    }
    ADD_FAILURE() << kernel << ": no KernelError";
    return "";
  }
  std::string misuse(std::int32_t what, loom::Extent threads = 64) {
    return error_of("t_warp_misuse", config(2, threads), put(loom::zeros({256}, DType::int32)),
                    what);
  }
};

#define EXPECT_HAS(message, part) \
  EXPECT_NE((message).find(part), std::string::npos) << (message) << "\n  lacks: " << (part)

TEST_P(WarpErrorTest, AWarpFunctionWithoutUsesSyncthreadsIsAKernelErrorOnEveryHostPath) {
  // The _fibers cases run this thread-loop kernel as fibers: it must fail there too.
  const std::string m =
      error_of("t_warp_undeclared", config(2, 32), put(loom::zeros({64}, DType::int32)));
  EXPECT_HAS(m,
             "kernel 't_warp_undeclared': shfl_sync() called by a kernel that does not declare "
             "`static constexpr bool uses_syncthreads = true;`: on host targets a warp function "
             "waits for the other lanes of its warp");
}

TEST_P(WarpErrorTest, AWarpFunctionInABlockKernelIsAKernelErrorOnEveryHostPath) {
  const std::string m =
      error_of("t_warp_in_block_kernel", config(2, 32), put(loom::zeros({64}, DType::int32)));
  EXPECT_HAS(m,
             "kernel 't_warp_in_block_kernel': syncwarp() called by a kernel that does not "
             "declare `static constexpr bool uses_syncthreads = true;`");
}

TEST_P(WarpErrorTest, AMaskNamingALaneThatReturnedIsAKernelErrorNamingBlockWarpMaskAndLane) {
  EXPECT_HAS(misuse(0),
             "kernel 't_warp_misuse': syncwarp(mask 0xffffffff) in warp 1 of block (1, 0, 0) "
             "cannot complete: every lane of its mask must call it with the same mask; lane 3 "
             "has returned (undefined behaviour in CUDA");
}

TEST_P(WarpErrorTest, AMaskNamingALaneAtSyncthreadsIsAKernelError) {
  EXPECT_HAS(misuse(1),
             "syncwarp(mask 0xffffffff) in warp 1 of block (1, 0, 0) cannot complete: every lane "
             "of its mask must call it with the same mask; lane 3 waits at syncthreads()");
}

TEST_P(WarpErrorTest, AMaskNotNamingTheCallerIsAKernelError) {
  EXPECT_HAS(misuse(2),
             "syncwarp(mask 0xfffffff7) called by thread (35, 0, 0) of block (1, 0, 0) (warp 1, "
             "lane 3): the mask does not name the calling lane; undefined behaviour in CUDA");
}

TEST_P(WarpErrorTest, AMaskNamingLanesAPartialWarpLacksIsAKernelError) {
  // Every block fails: on parallel any of them may be the one reported.
  EXPECT_HAS(misuse(3, 48), "syncwarp(mask 0xffffffff) called by thread (32, 0, 0) of block (");
  EXPECT_HAS(misuse(3, 48),
             "(warp 1, lane 0): the mask names lanes 16-31, which warp 1 does not have (a block "
             "of 48 threads; the warp's lanes are 0x0000ffff)");
  // The same kernel with whole warps runs.
  Array out = put(loom::zeros({256}, DType::int32));
  launch("t_warp_misuse", config(2, 64), out, std::int32_t{3});
  const auto got = values_of<std::int32_t>(get(out));
  EXPECT_EQ(std::count(got.begin(), got.end(), 1), 128);
}

TEST_P(WarpErrorTest, LanesOfOneMaskCallingDifferentWarpFunctionsIsAKernelError) {
  EXPECT_HAS(misuse(4),
             "the lanes of mask 0xffffffff in warp 1 of block (1, 0, 0) call different warp "
             "functions: lane 0 calls syncwarp, lane 3 ballot_sync (undefined behaviour in CUDA");
  EXPECT_HAS(misuse(7),
             "call different warp functions: lane 0 calls shfl_sync (4-byte value), lane 3 "
             "shfl_sync (8-byte value)");
}

TEST_P(WarpErrorTest, LanesOfOneWarpWaitingWithDifferentMasksIsAKernelError) {
  EXPECT_HAS(misuse(6),
             "syncwarp(mask 0x0000000f) in warp 1 of block (1, 0, 0) cannot complete: every lane "
             "of its mask must call it with the same mask; lane 3 waits in syncwarp(mask "
             "0xffffffff) (undefined behaviour in CUDA");
}

TEST_P(WarpErrorTest, AWidthThatIsNotAPowerOfTwoIsAKernelError) {
  EXPECT_HAS(misuse(5),
             "shfl_sync(mask 0xffffffff) called by thread (35, 0, 0) of block (1, 0, 0) (warp 1, "
             "lane 3): width 12 is not a power of two from 1 to 32");
}

TEST_P(WarpErrorTest, AfterAWarpErrorTheNextLaunchRunsNormally) {
  for (std::int32_t what : {0, 1, 2, 4, 5, 6, 7}) EXPECT_FALSE(misuse(what).empty());
  Array out = put(loom::zeros({256}, DType::int32));
  launch("t_warp_misuse", config(2, 96), out, std::int32_t{-1});  // nothing odd
  const auto got = values_of<std::int32_t>(get(out));
  EXPECT_EQ(std::count(got.begin(), got.end(), 1), 192);
}

INSTANTIATE_TEST_SUITE_P(Targets, WarpTest, ::testing::ValuesIn(kEveryWhere), where_name);
INSTANTIATE_TEST_SUITE_P(Targets, WarpErrorTest, ::testing::ValuesIn(kEveryWhere), where_name);

}  // namespace
}  // namespace loom_kernel_test
