// What the threads of a host block call to wait for each other: syncthreads() and the warp
// functions. Each deposits its call in the block's BlockSync and switches back to the scheduler
// (block_fibers.cpp), which resumes it when the call completes.
#include <cstdio>
#include <string>
#include <utility>

#include "kernels/block_sync.hpp"
#include "kernels/fiber_asan.hpp"
#include "kernels/shared_check.hpp"
#include "loom/error.hpp"
#include "loom/kernel_host.hpp"

namespace ctx = boost::context;

namespace loom::detail {

std::uint32_t block_barriers(const BlockSync* s) { return s->barriers; }
std::uint32_t warp_syncs(const BlockSync* s, std::int64_t warp, std::uint32_t* mask) {
  const auto w = static_cast<std::size_t>(warp);
  if (w >= s->warp_syncs.size()) return *mask = 0, 0;
  *mask = s->warp_sync_masks[w];
  return s->warp_syncs[w];
}

const char* op_name(WarpOp op) {
  switch (op) {
    case WarpOp::activemask:
      return "activemask";
    case WarpOp::syncwarp:
      return "syncwarp";
    case WarpOp::shfl_idx:
      return "shfl_sync";
    case WarpOp::shfl_up:
      return "shfl_up_sync";
    case WarpOp::shfl_down:
      return "shfl_down_sync";
    case WarpOp::shfl_xor:
      return "shfl_xor_sync";
    case WarpOp::ballot:
      return "ballot_sync";
    case WarpOp::all:
      return "all_sync";
    case WarpOp::any:
      return "any_sync";
  }
  return "?";
}

std::string hex_mask(std::uint32_t m) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", m);
  return buf;
}
std::string dim_str(const Dim3& d) {
  std::string s = "(";  // appended: g++ 12 warns (-Wrestrict) on "(" + std::string
  s += std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) + ")";
  return s;
}
// The lanes of a mask, runs as ranges.
std::string lanes_str(std::uint32_t lanes) {
  std::string s;
  for (int k = 0; k < kWarpSize; ++k) {
    if (!(lanes >> k & 1)) continue;
    int e = k;
    while (e + 1 < kWarpSize && (lanes >> (e + 1) & 1)) ++e;
    if (!s.empty()) s += ", ";
    s += std::to_string(k);
    if (e > k) s += '-', s += std::to_string(e);
    k = e;
  }
  return std::string(__builtin_popcount(lanes) == 1 ? "lane " : "lanes ") + s;
}
std::string call_str(const LaneCall& c) {
  return std::string(op_name(c.op)) +
         (c.op == WarpOp::activemask ? std::string("()") : "(mask " + hex_mask(c.mask) + ")");
}

namespace {

// Switches from the running thread back to the scheduler; returns when the scheduler resumes it.
void suspend(BlockSync* s) {
  ctx::fiber* back = s->scheduler;
  void* fake = nullptr;
  leaving(&fake, s->main_bottom, s->main_size);
  *back = std::move(*back).resume();
  arrived(fake, &s->main_bottom, &s->main_size);
  s->scheduler = back;
  if (s->aborting) throw BlockAbort{};
}

}  // namespace

void block_sync(BlockSync* s) {
  s->wait = BlockSync::Wait::block;
  suspend(s);
}

namespace {

// A call CUDA leaves undefined that the calling lane shows on its own: the reason, or nullptr.
// Out of line, so that warp_call's frame stays small (its switches are the hot path).
[[gnu::cold, gnu::noinline]] void check_warp_call(const ThreadCtx& t, const LaneCall& c,
                                                  std::int64_t nthreads) {
  const std::int64_t rank = t.thread_rank(), w = rank / kWarpSize;
  const int lane = static_cast<int>(rank % kWarpSize);
  const std::uint32_t present = lanes_present(nthreads, w);
  std::string why;
  if (c.op != WarpOp::activemask && !(c.mask >> lane & 1)) {
    why = "the mask does not name the calling lane";
  } else if (c.op != WarpOp::activemask && (c.mask & ~present)) {
    why = "the mask names " + lanes_str(c.mask & ~present) + ", which warp " + std::to_string(w) +
          " does not have (a block of " + std::to_string(nthreads) +
          " threads; the warp's lanes are " + hex_mask(present) + ")";
  } else if (is_shuffle(c.op)) {
    why = "width " + std::to_string(c.width) + " is not a power of two from 1 to 32";
  }
  throw KernelError(call_str(c) + " called by thread " + dim_str(t.threadIdx) + " of block " +
                    dim_str(t.blockIdx) + " (warp " + std::to_string(w) + ", lane " +
                    std::to_string(lane) + "): " + why + "; undefined behaviour in CUDA");
}

[[gnu::cold, gnu::noinline, noreturn]] void warp_undeclared(WarpOp op) {
  throw KernelError(std::string(op_name(op)) +
                    "() called by a kernel that does not declare `static constexpr bool "
                    "uses_syncthreads = true;`: on host targets a warp function waits for the "
                    "other lanes of its warp, which only such kernels' threads (fibers) can do "
                    "(block kernels cannot use warp functions on the host)");
}

}  // namespace

std::uint64_t warp_call(const ThreadCtx& t, WarpOp op, std::uint32_t mask, std::uint64_t bits,
                        std::int32_t b, std::int32_t width, std::uint32_t value_bytes) {
  BlockSync* s = t.sync;
  if (!s || !s->warps) warp_undeclared(op);
  const std::int64_t rank = t.thread_rank();
  const LaneCall c{op, value_bytes, mask, b, width, bits, 0};
  const std::uint32_t present = lanes_present(s->nthreads, rank / kWarpSize);
  const bool bad_mask =
      op != WarpOp::activemask && (!(mask >> (rank % kWarpSize) & 1) || (mask & ~present));
  const bool bad_width =
      is_shuffle(op) && (width < 1 || width > kWarpSize || (width & (width - 1)));
  if (bad_mask || bad_width) check_warp_call(t, c, s->nthreads);
  s->calls[static_cast<std::size_t>(rank)] = c;
  s->wait = BlockSync::Wait::warp;
  suspend(s);
  return s->calls[static_cast<std::size_t>(rank)].result;
}

}  // namespace loom::detail
