// Kernels of test_fibers.cpp (issue 12, fiber stacks and spin-waits on host targets).
#include <chrono>
#include <cstdint>

#include "loom/def/kernel.hpp"
#include "loom/plugin.hpp"

namespace {

// One thread writes every byte of a KiB-kilobyte local array (a frame of about that size) on
// each side of a barrier, and out[thread] = the sum of its bytes, computed from the array.
template <int KiB>
struct DeepFrame {
  static constexpr bool uses_syncthreads = true;
  void operator()(const loom::ThreadCtx& t, loom::View<std::int64_t> out) const {
    volatile unsigned char buf[KiB * 1024];  // volatile: the frame is really there
    const std::int64_t tid = t.grid();
    for (int i = 0; i < KiB * 1024; ++i) buf[i] = static_cast<unsigned char>(i + tid);
    t.syncthreads();
    std::int64_t s = 0;
    for (int i = 0; i < KiB * 1024; ++i) s += buf[i];
    if (tid < out.size()) out(tid) = s;
  }
};

// Thread 0 spins until thread 1 of its block sets flag[0]; on a GPU that ends, on a host target
// thread 1 never runs while thread 0 spins. Gives up after `seconds` (so the test ends), leaving
// out[0] = 1 if the flag was seen and 0 otherwise.
struct SpinWait {
  static constexpr bool uses_syncthreads = true;
  void operator()(const loom::ThreadCtx& t, loom::View<std::int32_t> flag,
                  loom::View<std::int32_t> out, double seconds) const {
    if (t.threadIdx.x == 1) __atomic_store_n(&flag(0), 1, __ATOMIC_RELEASE);
    if (t.threadIdx.x == 0) {
      const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
      int seen = 0;
      while (!(seen = __atomic_load_n(&flag(0), __ATOMIC_ACQUIRE)) &&
             std::chrono::steady_clock::now() < end) {
      }
      out(0) = seen;
    }
    t.syncthreads();
  }
};

void register_all(loom::Registrar& reg) {
  loom::def::kernel<DeepFrame<130>>(reg, "rt_frame_130k", "130 KiB of locals");
  loom::def::kernel<DeepFrame<300>>(reg, "rt_frame_300k", "300 KiB of locals");
  loom::def::kernel<DeepFrame<600>>(reg, "rt_frame_600k", "600 KiB of locals");
  loom::def::kernel<SpinWait>(reg, "rt_spin_wait", "thread 0 waits for thread 1's flag");
}

}  // namespace

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "redteam_fibers", loom::Family::host,
                              &register_all, nullptr}))
