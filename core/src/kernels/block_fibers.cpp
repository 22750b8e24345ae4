// The threads of one host block as fibers (Boost.Context) on the calling OS thread, so that
// syncthreads() can suspend a thread until every thread of its block has arrived, and a warp
// function until every lane of its mask has called it. Stacks come from a per-OS-thread pool
// with guard pages and are reused from block to block.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <boost/context/fiber.hpp>
#include <cstddef>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "kernels/kernel_watchdog.hpp"
#include "kernels/shared_check.hpp"
#include "loom/error.hpp"
#include "loom/kernel_host.hpp"

// AddressSanitizer must be told of every switch between stacks, or it reports false errors on
// fiber stacks; Boost 1.74's fcontext fibers do not tell it, so the switches here do.
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#define LOOM_ASAN_FIBERS 1
#else
#define LOOM_ASAN_FIBERS 0
#endif

namespace ctx = boost::context;

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
  ctx::fiber* scheduler = nullptr;    // the running fiber's way back to run_block_fibers
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

std::uint32_t block_barriers(const BlockSync* s) { return s->barriers; }
std::uint32_t warp_syncs(const BlockSync* s, std::int64_t warp, std::uint32_t* mask) {
  const auto w = static_cast<std::size_t>(warp);
  if (w >= s->warp_syncs.size()) return *mask = 0, 0;
  *mask = s->warp_sync_masks[w];
  return s->warp_syncs[w];
}

namespace {

// Thrown inside a waiting thread when its block is abandoned, so that its stack unwinds the
// ordinary way (destructors run) before the fiber ends.
struct BlockAbort {};

// Switch notes for ASan around a switch away from the current stack (to `bottom`/`size`;
// fake == nullptr when the current fiber is ending) and after arriving back.
inline void leaving(void** fake, const void* bottom, std::size_t size) {
#if LOOM_ASAN_FIBERS
  __sanitizer_start_switch_fiber(fake, bottom, size);
#else
  (void)fake, (void)bottom, (void)size;
#endif
}
inline void arrived(void* fake, const void** from_bottom, std::size_t* from_size) {
#if LOOM_ASAN_FIBERS
  __sanitizer_finish_switch_fiber(fake, from_bottom, from_size);
#else
  (void)fake, (void)from_bottom, (void)from_size;
#endif
}

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
bool is_shuffle(WarpOp op) {
  return op == WarpOp::shfl_idx || op == WarpOp::shfl_up || op == WarpOp::shfl_down ||
         op == WarpOp::shfl_xor;
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
// "lane 3" / "lanes 0-2, 5, 7": the lanes of a mask, runs as ranges.
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
// A call as its messages name it: "shfl_sync(mask 0x0000ffff)", "activemask()".
std::string call_str(const LaneCall& c) {
  return std::string(op_name(c.op)) +
         (c.op == WarpOp::activemask ? std::string("()") : "(mask " + hex_mask(c.mask) + ")");
}

// The lanes of warp w that exist in a block of n threads (all 32 but in a partial last warp).
std::uint32_t lanes_present(std::int64_t n, std::int64_t w) {
  const std::int64_t k = n - w * kWarpSize;
  return k >= kWarpSize ? kFullMask : (std::uint32_t{1} << k) - 1;
}

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

namespace {

// Below each stack: PROT_NONE pages (address space only). Plugins built with loom_add_plugin probe
// every page of a frame (-fstack-clash-protection), so one page would do for them; 64 KiB also
// stops a frame up to that size in a plugin built without the flag (docs/kernels.md).
constexpr std::size_t kGuardBytes = 64 * 1024;

std::size_t page_size() { return static_cast<std::size_t>(sysconf(_SC_PAGESIZE)); }

// Stacks of one size with a guard below each, kept for the life of the OS thread; a launch
// asking for another size maps them again.
class StackPool {
 public:
  ~StackPool() { release(); }
  // Stack i (0-based) of this OS thread, of `bytes` (a multiple of the page), made on first use.
  ctx::stack_context get(std::size_t i, std::size_t bytes) {
    if (bytes != bytes_) {
      release();
      bytes_ = bytes;
    }
    while (stacks_.size() <= i) {
      void* p = mmap(nullptr, total(), PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
      if (p == MAP_FAILED) {
        throw KernelError("could not map a " + std::to_string(bytes_) +
                          "-byte stack for kernel thread " + std::to_string(i) +
                          " of a block (host targets run threads that use syncthreads as fibers)");
      }
#if LOOM_ASAN_FIBERS
      // Fibers end without returning from their first frames, so ASan's shadow of an unmapped
      // stack keeps their redzones: clear it for memory that may reuse those addresses.
      __asan_unpoison_memory_region(p, total());
#endif
      if (mprotect(p, guard(), PROT_NONE) != 0) {  // never run without the guard
        munmap(p, total());
        throw KernelError("could not protect the guard below kernel thread " + std::to_string(i) +
                          "'s fiber stack");
      }
      stacks_.push_back(p);
    }
    ctx::stack_context sc;
    sc.size = bytes_;
    sc.sp = static_cast<char*>(stacks_[i]) + total();
    return sc;
  }

 private:
  static std::size_t guard() { return std::max(kGuardBytes, page_size()); }
  std::size_t total() const { return bytes_ + guard(); }
  void release() {
    for (void* p : stacks_) munmap(p, total());
    stacks_.clear();
  }
  std::size_t bytes_ = 0;
  std::vector<void*> stacks_;
};

// The pool owns the memory: a finished fiber gives nothing back.
struct PooledStack {
  ctx::stack_context allocate() { return {}; }
  void deallocate(ctx::stack_context&) noexcept {}
};

}  // namespace

namespace {

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
