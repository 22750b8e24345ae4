// The host's block shared memory: one slot per OS thread in one address range reserved when
// libloom loads, so that atomics can tell a block's shared memory from global memory by its
// address alone (atomic.hpp, detail::block_shared) and skip the locked instruction there.
#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "loom/atomic.hpp"
#include "loom/error.hpp"
#include "loom/kernel_host.hpp"

namespace loom::detail {

HostSharedRegion host_shared_region;
HostSharedRegion host_checked_region;

namespace {

// A slot holds the most a block may ask for on the host (227 KiB, as sm_90); 16384 slots reserve
// 4 GiB of address space and no memory until touched. Checked launches (their race checker,
// shared_check.cpp) take their slots from a second range, so that atomics can tell them apart.
constexpr std::size_t kSlotBytes = 256 * 1024;
constexpr std::size_t kSlots = 16384;

struct Region {
  unsigned char* base = nullptr;
  std::mutex m;
  std::vector<std::size_t> free;  // slots given back by OS threads that ended
  std::size_t next = 0;
  explicit Region(HostSharedRegion& range) {
    void* p = mmap(nullptr, kSlotBytes * kSlots, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return;  // every thread then takes the heap buffer below
    base = static_cast<unsigned char*>(p);
    range = {reinterpret_cast<std::uintptr_t>(p), kSlotBytes * kSlots};
  }
  // No destructor: slots may be in use by threads that outlive static destruction.
};

// The range of fast launches (checked = false) or of checked ones.
template <bool Checked>
Region& region() {
  static Region* r = new Region(Checked ? host_checked_region : host_shared_region);  // as above
  return *r;
}

// Reserved while libloom loads, before any thread can run a kernel: the ranges are written once,
// here, and only read afterwards.
const bool reserved = (region<false>(), region<true>(), true);

// This OS thread's slot, given back (its pages dropped) when the thread ends. Where the range is
// exhausted or could not be reserved, a heap buffer: atomics on it stay locked, results the same
// (in a checked launch the race checker then takes its atomics for plain accesses).
template <bool Checked>
struct Slot {
  unsigned char* p = nullptr;
  std::size_t index = 0;
  std::unique_ptr<unsigned char[], void (*)(unsigned char*)> heap{
      nullptr, [](unsigned char* q) { ::operator delete[](q, std::align_val_t{64}); }};
  ~Slot() {
    if (!p || heap) return;
    madvise(p, kSlotBytes, MADV_DONTNEED);
    Region& r = region<Checked>();
    std::lock_guard lock(r.m);
    r.free.push_back(index);
  }
  void take() {
    Region& r = region<Checked>();
    {
      std::lock_guard lock(r.m);
      if (r.base && (!r.free.empty() || r.next < kSlots)) {
        if (!r.free.empty()) {
          index = r.free.back();
          r.free.pop_back();
        } else {
          index = r.next++;
        }
        p = r.base + index * kSlotBytes;
      }
    }
    if (p && mprotect(p, kSlotBytes, PROT_READ | PROT_WRITE) == 0) return;
    if (p) {  // the slot could not be made writable: give its index back
      std::lock_guard lock(r.m);
      r.free.push_back(index);
    }
    p = static_cast<unsigned char*>(::operator new[](kSlotBytes, std::align_val_t{64}));
    heap.reset(p);
  }
};

template <bool Checked>
void* slot_memory(std::size_t bytes) {
  (void)reserved;
  if (bytes > kSlotBytes) {
    throw LaunchError("a host block asked for " + std::to_string(bytes) +
                      " bytes of shared memory, more than the " + std::to_string(kSlotBytes) +
                      " a host slot holds");
  }
  thread_local Slot<Checked> slot;
  if (!slot.p) slot.take();
  return slot.p;
}

}  // namespace

void* host_shared_memory(std::size_t bytes) { return slot_memory<false>(bytes); }
void* host_checked_shared_memory(std::size_t bytes) { return slot_memory<true>(bytes); }

}  // namespace loom::detail
