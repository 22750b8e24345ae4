// A host block's shared state while its threads run as fibers: what block_fibers.cpp's scheduler
// and the waits its threads call (warp_calls.cpp: syncthreads(), the warp functions) both read and
// write, and the pieces of their messages. Internal to the core.
#pragma once
#include <boost/context/fiber.hpp>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "loom/thread_ctx.hpp"
#include "loom/warp.hpp"

namespace loom::detail {

// What a lane waiting in a warp function asked for (written by warp_call before it switches back
// to the scheduler), and what it gets (written by the scheduler when the call completes).
struct LaneCall {
  WarpOp op = WarpOp::syncwarp;
  std::uint32_t bytes = 0;  // a shuffled value's size
  std::uint32_t mask = 0;
  std::int32_t b = 0, width = kWarpSize;  // a shuffle's lane operand and segment width
  std::uint64_t bits = 0;                 // the value, or the predicate
  std::uint64_t result = 0;
};

struct BlockSync {
  boost::context::fiber* scheduler = nullptr;  // the running fiber's way back to run_block_fibers
  bool aborting = false;              // a thread failed: waiting threads unwind instead of going on
  const void* main_bottom = nullptr;  // the scheduler's stack, for ASan
  std::size_t main_size = 0;
  // What the thread that just switched back to the scheduler waits for.
  enum class Wait : std::uint8_t { block, warp } wait = Wait::block;
  bool warps = false;  // the kernel declared uses_syncthreads: warp functions may wait
  std::int64_t nthreads = 0;
  std::vector<LaneCall> calls;  // one per thread, when warps
  // For the race checker of checked launches (shared_check.cpp): the block barriers passed, and
  // per warp the syncwarp calls completed and the mask of the last.
  std::uint32_t barriers = 0;
  std::vector<std::uint32_t> warp_syncs, warp_sync_masks;
};

// Thrown inside a waiting thread when its block is abandoned, so that its stack unwinds the
// ordinary way (destructors run) before the fiber ends.
struct BlockAbort {};

// A lane's warp function, the lanes of a mask and a block's index as the messages name them.
const char* op_name(WarpOp op);
std::string hex_mask(std::uint32_t m);
std::string dim_str(const Dim3& d);
std::string lanes_str(std::uint32_t lanes);  // "lane 3" / "lanes 0-2, 5, 7"
std::string call_str(const LaneCall& c);     // "shfl_sync(mask 0x0000ffff)", "activemask()"

// Inline: warp_call's checks run on every call.
inline bool is_shuffle(WarpOp op) {
  return op == WarpOp::shfl_idx || op == WarpOp::shfl_up || op == WarpOp::shfl_down ||
         op == WarpOp::shfl_xor;
}
// The lanes of warp w that exist in a block of n threads (all 32 but in a partial last warp).
inline std::uint32_t lanes_present(std::int64_t n, std::int64_t w) {
  const std::int64_t k = n - w * kWarpSize;
  return k >= kWarpSize ? kFullMask : (std::uint32_t{1} << k) - 1;
}

}  // namespace loom::detail
