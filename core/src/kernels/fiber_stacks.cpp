// Fiber stacks for host blocks: mapped with PROT_NONE guard pages below, kept per OS thread.
#include "kernels/fiber_stacks.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <string>

#include "kernels/fiber_asan.hpp"
#include "loom/error.hpp"

namespace ctx = boost::context;

namespace loom::detail {

namespace {

// Below each stack: PROT_NONE pages (address space only). Plugins built with loom_add_plugin probe
// every page of a frame (-fstack-clash-protection), so one page would do for them; 64 KiB also
// stops a frame up to that size in a plugin built without the flag (docs/kernels.md).
constexpr std::size_t kGuardBytes = 64 * 1024;

}  // namespace

std::size_t page_size() { return static_cast<std::size_t>(sysconf(_SC_PAGESIZE)); }

ctx::stack_context StackPool::get(std::size_t i, std::size_t bytes) {
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

std::size_t StackPool::guard() { return std::max(kGuardBytes, page_size()); }

void StackPool::release() {
  for (void* p : stacks_) munmap(p, total());
  stacks_.clear();
}

}  // namespace loom::detail
