// The CUDA loops of a binary op T(T,T) beyond the elementwise one, the twin of methods.hpp:
// accumulate's scan (ScanCall) and at's updates (AtCall); reduce is reduce.cuh's red_launch.
// def::ufunc (ufunc.cuh) attaches them to every T(T,T) loop.
//
// accumulate. Non-reorderable ops: strictly in order per line (the cpu result, bit for bit), a
// block per line streaming it through shared memory (reduce.cuh's ordered_lines) or a thread per
// line, lines spread over threads. Reorderable ops: a single-pass tile scan over all lines
// (scan_tiles, below), or a thread per line when the lines are short or many and not the input's
// innermost dim. Both fix their association order by the shape alone, so a call gives the same
// bits on every run and every GPU (not cub::DeviceScan: its float results vary from run to run,
// as its documentation says).
//
// at. Reorderable ops on 4- and 8-byte types: one atomic update per (index, trailing element), a
// compare-and-swap loop applying the functor, or the native atomicAdd where the functor is
// declared an add (device_add<F>) and the type's native add rounds as the functor does (not
// float32: its atomic add flushes subnormals). Integer results do not depend on the order, so
// they equal cpu's bit for bit. Everything else (non-reorderable ops, other sizes) is ordered: the
// indices are sorted stably (cub::DeviceRadixSort, one instantiation for every op and type), then
// one thread per distinct index and trailing element applies its updates in their original order
// (the cpu result, bit for bit).
//
// Only included by .cu files.
#pragma once
// Tells ufunc_elementwise.cuh that the method loops are defined in this file (ufunc.cuh).
#define LOOM_DEF_DEVICE_METHODS 1
#include <cstdint>
#include <type_traits>

#include "loom/def/at.cuh"
#include "loom/def/device_access.cuh"
#include "loom/def/launch.cuh"
#include "loom/def/reduce.cuh"
#include "loom/def/scan.cuh"

namespace loom::def::cu {

// Fills the cuda loops of `impl` for signature S when S is T(T,T): the reduce, accumulate and at
// methods. Reorderable: loops that use trees, scans and atomics when the call allows (they run in
// order for a call that says the op is not reorderable); not: only the ordered loops, so that a
// non-reorderable op instantiates no tree, CUB scan or atomic kernel.
template <class F, class S>
void set_device_methods(LoopImpl& impl, bool reorderable) {
  using T = typename binary_type<S>::type;
  if constexpr (!std::is_void_v<T>) {
    if (reorderable) {
      impl.device_reduce = &red_launch<F, T>;

      impl.device_scan = &scan_launch<F, T>;

      impl.device_at = &at_launch<F, T>;
    } else {
      impl.device_reduce = &red_ordered_launch<F, T>;

      impl.device_scan = &scan_ordered_launch<F, T>;

      impl.device_at = &at_ordered_launch<F, T>;
    }
  }
}
template <class F, class S>
void set_ordered_device_methods(LoopImpl& impl) {
  using T = typename binary_type<S>::type;
  if constexpr (!std::is_void_v<T>) {
    impl.device_reduce = &red_ordered_launch<F, T>;

    impl.device_scan = &scan_ordered_launch<F, T>;

    impl.device_at = &at_ordered_launch<F, T>;
  }
}

}  // namespace loom::def::cu
