// Red-team cases of issue 12, items 6 and 9 (host kernels): deep frames on the fiber stacks of
// syncthreads kernels, the stack_bytes launch option, a spin-wait on another thread of the block
// (the watchdog's note) and block_sum with block sizes that are not powers of two. A frame too
// deep for its stack must die on the guard below it (in a child), never write past it.
// Rules: docs/kernels.md, "Fiber stacks" and "Spin-waits".
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "loom/kernel_host.hpp"
#include "loom/loom.hpp"

namespace {

using loom::Array;
using loom::DType;

const std::string kFibers = std::string(LOOM_REDTEAM_PLUGINS) + "/fibers";

loom::Runtime& runtime() {
  static loom::Runtime rt(loom::RuntimeOptions{.plugin_path = {kFibers}});
  return rt;
}

std::vector<std::string> host_targets() {
  std::vector<std::string> t = {"cpu"};
  for (const auto& i : runtime().targets()) {
    if (i.target == "parallel" && i.available) t.push_back("parallel");
  }
  return t;
}

// DeepFrame<KiB>'s out[thread]: the sum of (unsigned char)(i + thread) over its KiB * 1024 bytes,
// whole cycles of 0..255.
std::int64_t frame_sum(int kib) { return std::int64_t{kib} * 1024 / 256 * (255 * 256 / 2); }

// Launches a deep-frame kernel (2 blocks of 4 threads) and checks every thread's sum.
void run_frame(const std::string& kernel, int kib, const std::string& target,
               std::size_t stack_bytes = 0) {
  const Array out = loom::full({8}, std::int64_t{-1});
  runtime().kernel(kernel).launch(
      {.blocks = 2, .threads = 4, .stack_bytes = stack_bytes, .target = target}, out);
  for (std::int64_t i = 0; i < 8; ++i) {
    EXPECT_EQ(out.at<std::int64_t>(i), frame_sum(kib)) << kernel << " on " << target;
  }
}

// A frame deeper than its stack dies on the guard page: SIGSEGV (AddressSanitizer reports the
// fault as a stack overflow and exits 1).
#if defined(__SANITIZE_ADDRESS__)
#define LOOM_EXPECT_GUARD_DEATH(stmt) EXPECT_DEATH(stmt, "stack-overflow|SEGV")
#else
#define LOOM_EXPECT_GUARD_DEATH(stmt) EXPECT_EXIT(stmt, ::testing::KilledBySignal(SIGSEGV), "")
#endif

TEST(RedteamFibers, DefaultStackIs256KiBAndTheBoundsAre16KiBTo8MiB) {
  EXPECT_EQ(loom::detail::kDefaultFiberStack, 256u * 1024);
  EXPECT_EQ(loom::detail::kMinFiberStack, 16u * 1024);
  EXPECT_EQ(loom::detail::kMaxFiberStack, 8u * 1024 * 1024);
}

// The case: 130 KiB of locals used to write below a 64 KiB stack and its guard page.
TEST(RedteamFibers, A130KiBFrameRunsOnTheDefaultStack) {
  for (const auto& t : host_targets()) run_frame("rt_frame_130k", 130, t);
}

// The same kernel on the old 64 KiB stack, asked for explicitly: the frame's page probes
// (-fstack-clash-protection) hit the guard instead of skipping over it.
TEST(RedteamFibers, A130KiBFrameOnA64KiBStackDiesOnTheGuard) {
  for (const auto& t : host_targets()) {
    LOOM_EXPECT_GUARD_DEATH(run_frame("rt_frame_130k", 130, t, 64 * 1024));
  }
}

// Smaller overflows (300 KiB on 256 KiB) die too, and do not corrupt anything before.
TEST(RedteamFibers, A300KiBFrameOnTheDefaultStackDiesOnTheGuard) {
  for (const auto& t : host_targets()) {
    LOOM_EXPECT_GUARD_DEATH(run_frame("rt_frame_300k", 300, t));
  }
}

TEST(RedteamFibers, StackBytesRaisesTheStackForDeepFrames) {
  for (const auto& t : host_targets()) {
    run_frame("rt_frame_300k", 300, t, 512 * 1024);
    run_frame("rt_frame_600k", 600, t, 1024 * 1024);
    run_frame("rt_frame_600k", 600, t, loom::detail::kMaxFiberStack);
    // Back to the default after a larger stack: the pool maps its stacks again.
    run_frame("rt_frame_130k", 130, t);
  }
}

TEST(RedteamFibers, A600KiBFrameOnA512KiBStackDiesOnTheGuard) {
  LOOM_EXPECT_GUARD_DEATH(run_frame("rt_frame_600k", 600, "cpu", 512 * 1024));
}

TEST(RedteamFibers, StackBytesOutsideTheBoundsIsALaunchError) {
  const Array out = loom::full({8}, std::int64_t{-1});
  for (const std::size_t bytes : {std::size_t{1}, std::size_t{16 * 1024 - 1},
                                  std::size_t{8 * 1024 * 1024 + 1}, std::size_t{1} << 40}) {
    try {
      runtime()
          .kernel("rt_frame_130k")
          .launch({.blocks = 2, .threads = 4, .stack_bytes = bytes, .target = "cpu"}, out);
      ADD_FAILURE() << bytes << ": no error";
    } catch (const loom::LaunchError& e) {
      EXPECT_EQ(std::string(e.what()),
                "kernel 'rt_frame_130k': stack_bytes=" + std::to_string(bytes) +
                    " is outside the fiber stacks host targets give a kernel thread (16384 to "
                    "8388608 bytes; 0: the default, 262144)");
    }
  }
  EXPECT_EQ(out.at<std::int64_t>(0), -1);  // refused before any thread ran
}

TEST(RedteamFibers, StackBytesAtTheBoundsIsAccepted) {
  const Array out = loom::zeros({2}, DType::int32);
  const Array flag = loom::zeros({1}, DType::int32);
  for (const std::size_t bytes : {loom::detail::kMinFiberStack, loom::detail::kMaxFiberStack}) {
    flag.at<std::int32_t>(0) = 1;  // already set: thread 0 does not wait
    runtime()
        .kernel("rt_spin_wait")
        .launch({.blocks = 1, .threads = 2, .stack_bytes = bytes, .target = "cpu"}, flag, out, 0.0);
    EXPECT_EQ(out.at<std::int32_t>(0), 1) << bytes;
  }
}

// A spin-wait on a flag another thread of the block sets never ends on a host target (threads
// run one at a time); the watchdog notes it on stderr. The kernel gives up after 3 s.
TEST(RedteamFibers, SpinWaitOnAnotherThreadIsNotedByTheWatchdog) {
  EXPECT_EXIT(
      {
        setenv("LOOM_KERNEL_WATCHDOG", "0.5", 1);
        const Array out = loom::full({2}, std::int32_t{-1});
        const Array flag = loom::zeros({1}, DType::int32);
        runtime()
            .kernel("rt_spin_wait")
            .launch({.blocks = 1, .threads = 2, .target = "cpu"}, flag, out, 3.0);
        // Thread 1 ran only after thread 0 gave up: the flag was never seen.
        std::_Exit(out.at<std::int32_t>(0) == 0 && flag.at<std::int32_t>(0) == 1 ? 0 : 5);
      },
      ::testing::ExitedWithCode(0),
      "loom: note: kernel thread 0 of block \\(0, 0, 0\\) on a host target has run for 0.5 s "
      "without reaching syncthreads\\(\\) or returning");
}

TEST(RedteamFibers, WatchdogOffGivesNoNote) {
  EXPECT_EXIT(
      {
        setenv("LOOM_KERNEL_WATCHDOG", "0", 1);
        const Array out = loom::full({2}, std::int32_t{-1});
        const Array flag = loom::zeros({1}, DType::int32);
        runtime()
            .kernel("rt_spin_wait")
            .launch({.blocks = 1, .threads = 2, .target = "cpu"}, flag, out, 1.5);
        std::fprintf(stderr, "done\n");
        std::_Exit(out.at<std::int32_t>(0) == 0 ? 0 : 5);
      },
      ::testing::ExitedWithCode(0), "^done\n$");
}

TEST(RedteamFibers, WatchdogValueThatIsNotSecondsIsAValueError) {
  EXPECT_EXIT(
      {
        setenv("LOOM_KERNEL_WATCHDOG", "soon", 1);
        const Array out = loom::zeros({2}, DType::int32);
        const Array flag = loom::full({1}, std::int32_t{1});
        try {
          runtime()
              .kernel("rt_spin_wait")
              .launch({.blocks = 1, .threads = 2, .target = "cpu"}, flag, out, 0.0);
        } catch (const loom::ValueError& e) {
          std::fprintf(stderr, "%s\n", e.what());
          std::_Exit(0);
        }
        std::_Exit(2);
      },
      ::testing::ExitedWithCode(0),
      "LOOM_KERNEL_WATCHDOG='soon' is not a number of seconds from 0 \\(off\\) to 1e6");
}

// Issue 12, item 9: the seed's tree dropped partial sums unless the block was a power of two.
TEST(RedteamFibers, BlockSumIsRightForBlockSizesThatAreNotPowersOfTwo) {
  std::vector<std::string> targets = host_targets();
  for (const auto& i : runtime().targets()) {
    if (i.target == "cuda" && i.available) targets.push_back("cuda");
  }
  for (const auto& t : targets) {
    for (const std::int64_t bs : {3, 6, 7, 100, 255, 1000}) {
      const std::int64_t nb = 3, n = nb * bs;
      const Array x = loom::arange(1.0, double(n) + 1.0);
      const Array out = loom::zeros({nb});
      runtime()
          .kernel("block_sum")
          .launch({.blocks = nb, .threads = bs, .shared_bytes = std::size_t(8 * bs), .target = t},
                  x, out);
      for (std::int64_t b = 0; b < nb; ++b) {
        const double lo = double(b * bs + 1), hi = double((b + 1) * bs);
        EXPECT_EQ(out.at<double>(b), (lo + hi) * double(bs) / 2)
            << t << " block " << b << " of " << bs << " threads";
      }
    }
  }
}

}  // namespace
