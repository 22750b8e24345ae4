// The threads of one host block as fibers (Boost.Context) on the calling OS thread, so that
// syncthreads() can suspend a thread until every thread of its block has arrived, and a warp
// function until every lane of its mask has called it (the waits themselves: warp_calls.cpp).
// Stacks come from a per-OS-thread pool with guard pages and are reused from block to block
// (fiber_stacks.cpp).
#include <algorithm>
#include <boost/context/fiber.hpp>
#include <cstddef>
#include <exception>
#include <string>
#include <vector>

#include "kernels/block_sync.hpp"
#include "kernels/fiber_asan.hpp"
#include "kernels/fiber_stacks.hpp"
#include "kernels/kernel_watchdog.hpp"
#include "loom/error.hpp"
#include "loom/kernel_host.hpp"

namespace ctx = boost::context;

namespace loom::detail {

namespace {

// The lane whose value a shuffle gives `lane`: PTX's shfl.sync rule (what CUDA's __shfl*_sync
// compile to): the operand's low 5 bits, and CUDA's clamp operand for segments of `width` lanes;
// a source outside the caller's segment (or past it, for xor) gives the caller its own value.
int shuffle_source(WarpOp op, int lane, std::int32_t b, std::int32_t width) {
  const int seg = kWarpSize - width;                 // c[12:8]
  const int clamp = op == WarpOp::shfl_up ? 0 : 31;  // c[4:0]
  const int max_lane = (lane & seg) | (clamp & ~seg);
  const int min_lane = lane & seg;
  const int bval = b & 31;
  int j = lane;
  bool ok = false;
  switch (op) {
    case WarpOp::shfl_up:
      j = lane - bval, ok = j >= max_lane;
      break;
    case WarpOp::shfl_down:
      j = lane + bval, ok = j <= max_lane;
      break;
    case WarpOp::shfl_xor:
      j = lane ^ bval, ok = j <= max_lane;
      break;
    default:
      j = min_lane | (bval & ~seg & 31), ok = j <= max_lane;
      break;
  }
  return ok ? j : lane;
}

// The scheduler's view of the warps of a block whose kernel may call warp functions: per warp, a
// bit per lane in each state. A lane not in any of them is running or queued to run.
struct WarpBook {
  struct Warp {
    std::uint32_t present = 0;   // lanes the block has
    std::uint32_t exited = 0;    // returned
    std::uint32_t at_block = 0;  // waiting at syncthreads()
    std::uint32_t arrived = 0;   // waiting in a warp function other than activemask
    std::uint32_t active = 0;    // waiting in activemask()
    std::uint32_t running() const { return present & ~(exited | at_block | arrived | active); }
  };
  std::vector<Warp> warps;
};

template <class F>
void each_lane(std::uint32_t lanes, F&& f) {
  for (; lanes; lanes &= lanes - 1) f(__builtin_ctz(lanes));
}

}  // namespace

void run_block_fibers(std::int64_t nthreads, ThreadBody body, void* arg, const Dim3& block,
                      std::size_t stack_bytes, bool warp_functions) {
  thread_local StackPool pool;
  // The core checked the launch's value; round up to whole pages (mmap's unit).
  const std::size_t pg = page_size();
  stack_bytes = (std::max(stack_bytes, kMinFiberStack) + pg - 1) / pg * pg;
  WatchScope watch(block);
  BlockSync sync;
  sync.nthreads = nthreads;
  sync.warps = warp_functions;
  WarpBook book;
  if (warp_functions) {
    sync.calls.resize(static_cast<std::size_t>(nthreads));
    book.warps.resize(static_cast<std::size_t>((nthreads + kWarpSize - 1) / kWarpSize));
    sync.warp_syncs.resize(book.warps.size());
    sync.warp_sync_masks.resize(book.warps.size());
    for (std::size_t w = 0; w < book.warps.size(); ++w) {
      book.warps[w].present = lanes_present(nthreads, static_cast<std::int64_t>(w));
    }
  }
  std::exception_ptr error;
  std::vector<ctx::fiber> fibers;
  std::vector<ctx::stack_context> stacks;
  fibers.reserve(static_cast<std::size_t>(nthreads));
  for (std::int64_t r = 0; r < nthreads; ++r) {
    ctx::stack_context sc = pool.get(static_cast<std::size_t>(r), stack_bytes);
    stacks.push_back(sc);
    fibers.emplace_back(std::allocator_arg, ctx::preallocated(sc.sp, sc.size, sc), PooledStack{},
                        [&, r](ctx::fiber&& scheduler) {
                          arrived(nullptr, &sync.main_bottom, &sync.main_size);
                          sync.scheduler = &scheduler;
                          try {
                            if (!sync.aborting) body(arg, r, &sync);  // unstarted: never run
                          } catch (const ctx::detail::forced_unwind&) {
                            throw;  // the fiber is being destroyed: let Boost unwind it
                          } catch (const BlockAbort&) {
                            // the block was abandoned while this thread waited
                          } catch (...) {
                            if (!error) error = std::current_exception();
                          }
                          leaving(nullptr, sync.main_bottom, sync.main_size);
                          return std::move(scheduler);
                        });
  }
  // Runs thread r until it waits at a barrier or in a warp function, or ends.
  auto step = [&](std::size_t r) {
    watch.step(static_cast<std::int64_t>(r));
    void* fake = nullptr;
    const auto& sc = stacks[r];
    leaving(&fake, static_cast<char*>(sc.sp) - sc.size, sc.size);
    fibers[r] = std::move(fibers[r]).resume();
    arrived(fake, nullptr, nullptr);
  };
  const auto where = [&] { return "block " + dim_str(block); };
  // The threads to run, in order: all of them at the start and after each block barrier, and the
  // lanes of each warp function call that completes.
  std::vector<std::int32_t> queue(static_cast<std::size_t>(nthreads));
  for (std::int64_t r = 0; r < nthreads; ++r)
    queue[static_cast<std::size_t>(r)] = static_cast<std::int32_t>(r);
  std::size_t head = 0;
  auto lane_call = [&](std::size_t w, int k) -> LaneCall& {
    return sync.calls[w * kWarpSize + static_cast<std::size_t>(k)];
  };
  auto requeue = [&](std::size_t w, std::uint32_t lanes) {
    each_lane(lanes, [&](int k) { queue.push_back(static_cast<std::int32_t>(w * kWarpSize + k)); });
  };
  // activemask(): the lanes waiting in it go on, each told the set of them, once no other lane of
  // their warp can run (the others wait elsewhere or have returned): what converged lanes see.
  auto settle_active = [&](std::size_t w) {
    WarpBook::Warp& wp = book.warps[w];
    if (!wp.active || wp.running()) return;
    each_lane(wp.active, [&](int k) { lane_call(w, k).result = wp.active; });
    requeue(w, wp.active);
    wp.active = 0;
  };
  // Lane k of warp w waits in a warp function: when every lane of its mask waits with the same
  // mask, the call completes and they go on with their results.
  auto warp_arrive = [&](std::size_t w, int k) {
    WarpBook::Warp& wp = book.warps[w];
    const LaneCall& me = lane_call(w, k);
    if (me.op == WarpOp::activemask) {
      wp.active |= std::uint32_t{1} << k;
      settle_active(w);
      return;
    }
    wp.arrived |= std::uint32_t{1} << k;
    const std::uint32_t m = me.mask;
    bool complete = (wp.arrived & m) == m;
    if (complete) each_lane(m, [&](int j) { complete = complete && lane_call(w, j).mask == m; });
    if (complete) {
      const LaneCall& first = lane_call(w, __builtin_ctz(m));
      std::string differ;
      each_lane(m, [&](int j) {
        const LaneCall& c = lane_call(w, j);
        if (differ.empty() && (c.op != first.op || c.bytes != first.bytes)) {
          const auto what = [](const LaneCall& x) {
            return std::string(op_name(x.op)) +
                   (is_shuffle(x.op) ? " (" + std::to_string(x.bytes) + "-byte value)" : "");
          };
          differ = "lane " + std::to_string(__builtin_ctz(m)) + " calls " + what(first) +
                   ", lane " + std::to_string(j) + " " + what(c);
        }
      });
      if (!differ.empty()) {
        error = std::make_exception_ptr(KernelError(
            "the lanes of mask " + hex_mask(m) + " in warp " + std::to_string(w) + " of " +
            where() + " call different warp functions: " + differ +
            " (undefined behaviour in CUDA: every lane a mask names calls the same one)"));
        return;
      }
      // Every result from the deposits, before any lane runs on and calls again.
      std::uint32_t ballot = 0;
      each_lane(m, [&](int j) {
        if (lane_call(w, j).bits) ballot |= std::uint32_t{1} << j;
      });
      each_lane(m, [&](int j) {
        LaneCall& c = lane_call(w, j);
        switch (c.op) {
          case WarpOp::ballot:
            c.result = ballot;
            break;
          case WarpOp::all:
            c.result = ballot == m;
            break;
          case WarpOp::any:
            c.result = ballot != 0;
            break;
          case WarpOp::shfl_idx:
          case WarpOp::shfl_up:
          case WarpOp::shfl_down:
          case WarpOp::shfl_xor: {
            // A source lane outside the mask gives CUDA an unspecified value: the caller's own.
            const int src = shuffle_source(c.op, j, c.b, c.width);
            c.result = (m >> src & 1) ? lane_call(w, src).bits : c.bits;
            break;
          }
          default:
            break;
        }
      });
      if (first.op == WarpOp::syncwarp) ++sync.warp_syncs[w], sync.warp_sync_masks[w] = m;
      wp.arrived &= ~m;
      requeue(w, m);
    }
    settle_active(w);
  };
  // A warp function that cannot complete: its mask names lanes that returned, wait at
  // syncthreads() or wait in another call. CUDA leaves that undefined (a hang, or wrong values).
  auto stuck = [&]() -> std::exception_ptr {
    for (std::size_t w = 0; w < book.warps.size(); ++w) {
      const WarpBook::Warp& wp = book.warps[w];
      if (!wp.arrived) continue;
      const LaneCall& c = lane_call(w, __builtin_ctz(wp.arrived));
      std::uint32_t gone = 0, barrier = 0;
      std::string others;
      each_lane(c.mask, [&](int j) {
        const std::uint32_t bit = std::uint32_t{1} << j;
        const LaneCall& o = lane_call(w, j);
        if (wp.exited & bit) {
          gone |= bit;
        } else if (wp.at_block & bit) {
          barrier |= bit;
        } else if (o.mask != c.mask || (wp.active & bit)) {
          others += "; lane " + std::to_string(j) + " waits in " + call_str(o);
        }
      });
      std::string why;
      if (gone)
        why += "; " + lanes_str(gone) + (__builtin_popcount(gone) > 1 ? " have" : " has") +
               " returned";
      if (barrier)
        why += "; " + lanes_str(barrier) + (__builtin_popcount(barrier) > 1 ? " wait" : " waits") +
               " at syncthreads()";
      why += others;
      return std::make_exception_ptr(
          KernelError(call_str(c) + " in warp " + std::to_string(w) + " of " + where() +
                      " cannot complete: every lane of its mask must call it with the same mask" +
                      why + " (undefined behaviour in CUDA: a hang or wrong values)"));
    }
    return nullptr;
  };
  // Runs the queue until no thread can run; then either every live thread waits at the block
  // barrier (all go on, or a KernelError when some threads returned: a barrier not every thread
  // reaches, a hang on a GPU), or a warp function cannot complete.
  std::int64_t finished = 0;
  while (finished < nthreads) {
    while (head < queue.size() && !error) {
      const auto r = static_cast<std::size_t>(queue[head++]);
      step(r);
      if (error) break;
      const std::size_t w = r / kWarpSize;
      const int k = static_cast<int>(r % kWarpSize);
      if (!fibers[r]) {
        ++finished;
        if (warp_functions) book.warps[w].exited |= std::uint32_t{1} << k, settle_active(w);
      } else if (sync.wait == BlockSync::Wait::warp) {
        warp_arrive(w, k);
      } else if (warp_functions) {
        book.warps[w].at_block |= std::uint32_t{1} << k;
        settle_active(w);
      }
      // Keep the queue short in long warp-function runs without a block barrier.
      if (head >= 4096 && 2 * head >= queue.size()) {
        queue.erase(queue.begin(), queue.begin() + static_cast<std::ptrdiff_t>(head));
        head = 0;
      }
    }
    if (error || finished == nthreads) break;
    if (warp_functions && (error = stuck())) break;
    if (finished > 0) {
      error = std::make_exception_ptr(KernelError(
          "syncthreads() was not reached by every thread of " + where() + ": " +
          std::to_string(finished) + " of " + std::to_string(nthreads) +
          " threads returned while the others wait at a barrier (on a GPU this hangs or "
          "corrupts results); make every thread of a block call it the same number of times"));
      break;
    }
    queue.clear();
    head = 0;
    for (std::int64_t r = 0; r < nthreads; ++r) queue.push_back(static_cast<std::int32_t>(r));
    for (auto& wp : book.warps) wp.at_block = 0;
    ++sync.barriers;
  }
  // After an error, threads still waiting unwind their stacks (BlockAbort) and end; threads not
  // started yet end without running the kernel.
  sync.aborting = true;
  for (std::size_t r = 0; r < fibers.size(); ++r) {
    if (fibers[r]) step(r);
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace loom::detail
