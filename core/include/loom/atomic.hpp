// Atomics for custom kernels, the same calls on every target: CUDA's atomic* on the device,
// std::atomic_ref on the host. Each returns the value stored before (Numba's cuda.atomic.*).
// Types: int32, uint32, int64, uint64, float32, float64 (add, sub, max, min, nanmax, nanmin, exch,
// cas); the integer ones for and/or/xor; uint32 and uint64 for inc/dec (Numba's sets). Another
// type is a compile error naming the operation.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "loom/hd.hpp"

#if !defined(__CUDA_ARCH__)
#include <atomic>
#include <cstring>
#endif

namespace loom {

template <class T>
concept atomic_value = std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::uint32_t> ||
    std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::uint64_t> ||
    std::is_same_v<T, float> || std::is_same_v<T, double>;

namespace detail {

#if defined(__CUDA_ARCH__)
// The CUDA type of the same size that atomicCAS and atomicExch take.
template <class T>
using cuda_bits = std::conditional_t<sizeof(T) == 4, unsigned int, unsigned long long>;

template <class T>
__device__ T bits_to(cuda_bits<T> b) {
  T v;
  memcpy(&v, &b, sizeof(T));
  return v;
}
template <class T>
__device__ cuda_bits<T> to_bits(T v) {
  cuda_bits<T> b;
  memcpy(&b, &v, sizeof(T));
  return b;
}
// old = *p; *p = f(old) in a compare-and-swap loop, for what CUDA has no instruction for.
template <class T, class F>
__device__ T cas_loop(T* p, F f) {
  auto* q = reinterpret_cast<cuda_bits<T>*>(p);
  cuda_bits<T> old = *q, seen;
  do {
    seen = old;
    old = atomicCAS(q, seen, to_bits(f(bits_to<T>(seen))));
  } while (old != seen);
  return bits_to<T>(old);
}
#else
// The address range the host's block shared memory comes from (core/src/kernels/host_shared.cpp). A
// block's threads all run on one OS thread and its fibers switch only at barriers, so an atomic
// on the block's shared memory needs no locked instruction: a plain read-modify-write is the same
// serial history (and a third of the time of a locked add in histogram_shared).
struct HostSharedRegion {
  std::uintptr_t lo = 0, size = 0;
};
extern HostSharedRegion host_shared_region;
inline bool block_shared(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) - host_shared_region.lo < host_shared_region.size;
}

// A checked launch's block shared memory comes from a range of its own, outside the one above:
// its atomics take the locked path (the same results), after which they tell the race checker
// (they are no races; core/src/kernels/shared_check.cpp), `old` being the value they replaced.
// Tested only after a locked instruction, which costs far more; the shared path is untouched.
extern HostSharedRegion host_checked_region;
void shared_check_atomic(const void* p, std::uint64_t old_bits, std::size_t size);
template <class T>
inline void note_atomic(const T* p, T old) {
  if (reinterpret_cast<std::uintptr_t>(p) - host_checked_region.lo < host_checked_region.size)
      [[unlikely]] {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &old, sizeof(T));
    shared_check_atomic(p, bits, sizeof(T));
  }
}

template <class T, class F>
T cas_loop(T* p, F f) {
  if (block_shared(p)) {
    const T old = *p;
    *p = f(old);
    return old;
  }
  std::atomic_ref<T> a(*p);
  T old = a.load(std::memory_order_relaxed);
  while (!a.compare_exchange_weak(old, f(old), std::memory_order_relaxed)) {
  }
  note_atomic(p, old);
  return old;
}
#endif

}  // namespace detail

// *p += v.
template <atomic_value T>
LOOM_HD T atomic_add(T* p, T v) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::uint64_t>) {
    // Two's-complement addition is the same for signed and unsigned 64-bit values.
    return static_cast<T>(
        atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v)));
  } else {
    return atomicAdd(p, v);
  }
#else
  if (detail::block_shared(p)) return detail::cas_loop(p, [v](T old) { return old + v; });
  const T old = std::atomic_ref<T>(*p).fetch_add(v, std::memory_order_relaxed);
  detail::note_atomic(p, old);
  return old;
#endif
}

// *p -= v.
template <atomic_value T>
LOOM_HD T atomic_sub(T* p, T v) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::uint32_t>) {
    return atomicSub(p, v);
  } else if constexpr (std::is_floating_point_v<T>) {
    return atomicAdd(p, -v);
  } else {
    return static_cast<T>(atomicAdd(reinterpret_cast<unsigned long long*>(p),
                                    0ull - static_cast<unsigned long long>(v)));
  }
#else
  if (detail::block_shared(p)) return detail::cas_loop(p, [v](T old) { return old - v; });
  const T old = std::atomic_ref<T>(*p).fetch_sub(v, std::memory_order_relaxed);
  detail::note_atomic(p, old);
  return old;
#endif
}

// *p = max(*p, v). For floats the stored value is replaced only when *p < v, so a NaN argument
// never replaces and a NaN already stored stays (the same rule on every target).
template <atomic_value T>
LOOM_HD T atomic_max(T* p, T v) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<T, std::int64_t>) {
    return atomicMax(reinterpret_cast<long long*>(p), static_cast<long long>(v));
  } else if constexpr (std::is_same_v<T, std::uint64_t>) {
    return atomicMax(reinterpret_cast<unsigned long long*>(p), v);
  } else if constexpr (std::is_integral_v<T>) {
    return atomicMax(p, v);
  } else {
    return detail::cas_loop(p, [v](T old) { return old < v ? v : old; });
  }
#else
  return detail::cas_loop(p, [v](T old) { return old < v ? v : old; });
#endif
}

// *p = min(*p, v); for floats replaced only when v < *p (see atomic_max).
template <atomic_value T>
LOOM_HD T atomic_min(T* p, T v) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<T, std::int64_t>) {
    return atomicMin(reinterpret_cast<long long*>(p), static_cast<long long>(v));
  } else if constexpr (std::is_same_v<T, std::uint64_t>) {
    return atomicMin(reinterpret_cast<unsigned long long*>(p), v);
  } else if constexpr (std::is_integral_v<T>) {
    return atomicMin(p, v);
  } else {
    return detail::cas_loop(p, [v](T old) { return v < old ? v : old; });
  }
#else
  return detail::cas_loop(p, [v](T old) { return v < old ? v : old; });
#endif
}

// *p = v.
template <atomic_value T>
LOOM_HD T atomic_exch(T* p, T v) {
#if defined(__CUDA_ARCH__)
  auto* q = reinterpret_cast<detail::cuda_bits<T>*>(p);
  return detail::bits_to<T>(atomicExch(q, detail::to_bits(v)));
#else
  if (detail::block_shared(p)) return detail::cas_loop(p, [v](T) { return v; });
  const T old = std::atomic_ref<T>(*p).exchange(v, std::memory_order_relaxed);
  detail::note_atomic(p, old);
  return old;
#endif
}

// if (*p == expected) *p = desired; returns the old value (equal to expected on success).
// Floats compare by bits, as CUDA's atomicCAS does (so -0.0 != 0.0 and a NaN can match).
template <atomic_value T>
LOOM_HD T atomic_cas(T* p, T expected, T desired) {
#if defined(__CUDA_ARCH__)
  auto* q = reinterpret_cast<detail::cuda_bits<T>*>(p);
  return detail::bits_to<T>(atomicCAS(q, detail::to_bits(expected), detail::to_bits(desired)));
#else
  if (detail::block_shared(p)) {  // bits compared, as below
    const T old = *p;
    if (std::memcmp(&old, &expected, sizeof(T)) == 0) *p = desired;
    return old;
  }
  // On failure compare_exchange stores the value it saw in `expected`: the old value either way.
  std::atomic_ref<T>(*p).compare_exchange_strong(expected, desired, std::memory_order_relaxed);
  detail::note_atomic(p, expected);
  return expected;
#endif
}

// *p = max(*p, v) with NaN as missing data, as Numba's cuda.atomic.nanmax and CUDA's fmax: a NaN
// argument leaves a number stored, a stored NaN is replaced by the argument (NaN only if both
// are). Integers: atomic_max.
template <class T>
LOOM_HD T atomic_nanmax(T* p, T v) {
  static_assert(atomic_value<T>,
                "atomic_nanmax: T must be int32, uint32, int64, uint64, float32 or float64");
  // Only the static_assert's message for another type, not errors from the body.
  if constexpr (!(atomic_value<T>)) {
    return v;
  } else {
    if constexpr (std::is_integral_v<T>) {
      return atomic_max(p, v);
    } else {
      // old != old: the stored value is a NaN, replaced by anything.
      return detail::cas_loop(p, [v](T old) { return old != old || old < v ? v : old; });
    }
  }
}

// *p = min(*p, v) with NaN as missing data (see atomic_nanmax).
template <class T>
LOOM_HD T atomic_nanmin(T* p, T v) {
  static_assert(atomic_value<T>,
                "atomic_nanmin: T must be int32, uint32, int64, uint64, float32 or float64");
  // Only the static_assert's message for another type, not errors from the body.
  if constexpr (!(atomic_value<T>)) {
    return v;
  } else {
    if constexpr (std::is_integral_v<T>) {
      return atomic_min(p, v);
    } else {
      return detail::cas_loop(p, [v](T old) { return old != old || v < old ? v : old; });
    }
  }
}

// The integer types of CUDA's atomicAnd/Or/Xor (the 64-bit ones as unsigned long long).
template <class T>
concept atomic_integer = std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::uint32_t> ||
    std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::uint64_t>;

// *p &= v.
template <class T>
LOOM_HD T atomic_and(T* p, T v) {
  static_assert(atomic_integer<T>, "atomic_and: T must be int32, uint32, int64 or uint64");
  // Only the static_assert's message for another type, not errors from the body.
  if constexpr (!(atomic_integer<T>)) {
    return v;
  } else {
#if defined(__CUDA_ARCH__)
    if constexpr (sizeof(T) == 8) {
      // Bitwise operations are the same on signed and unsigned bits.
      return static_cast<T>(
          atomicAnd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v)));
    } else {
      return atomicAnd(p, v);
    }
#else
    if (detail::block_shared(p)) return detail::cas_loop(p, [v](T old) { return old & v; });
    const T old = std::atomic_ref<T>(*p).fetch_and(v, std::memory_order_relaxed);
    detail::note_atomic(p, old);
    return old;
#endif
  }
}

// *p |= v.
template <class T>
LOOM_HD T atomic_or(T* p, T v) {
  static_assert(atomic_integer<T>, "atomic_or: T must be int32, uint32, int64 or uint64");
  // Only the static_assert's message for another type, not errors from the body.
  if constexpr (!(atomic_integer<T>)) {
    return v;
  } else {
#if defined(__CUDA_ARCH__)
    if constexpr (sizeof(T) == 8) {
      return static_cast<T>(
          atomicOr(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v)));
    } else {
      return atomicOr(p, v);
    }
#else
    if (detail::block_shared(p)) return detail::cas_loop(p, [v](T old) { return old | v; });
    const T old = std::atomic_ref<T>(*p).fetch_or(v, std::memory_order_relaxed);
    detail::note_atomic(p, old);
    return old;
#endif
  }
}

// *p ^= v.
template <class T>
LOOM_HD T atomic_xor(T* p, T v) {
  static_assert(atomic_integer<T>, "atomic_xor: T must be int32, uint32, int64 or uint64");
  // Only the static_assert's message for another type, not errors from the body.
  if constexpr (!(atomic_integer<T>)) {
    return v;
  } else {
#if defined(__CUDA_ARCH__)
    if constexpr (sizeof(T) == 8) {
      return static_cast<T>(
          atomicXor(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v)));
    } else {
      return atomicXor(p, v);
    }
#else
    if (detail::block_shared(p)) return detail::cas_loop(p, [v](T old) { return old ^ v; });
    const T old = std::atomic_ref<T>(*p).fetch_xor(v, std::memory_order_relaxed);
    detail::note_atomic(p, old);
    return old;
#endif
  }
}

// *p = *p >= v ? 0 : *p + 1 (CUDA's atomicInc: a counter that wraps to 0 after v).
// uint32 is atomicInc on the device; uint64 (which CUDA lacks, Numba has) a compare-and-swap loop.
template <class T>
LOOM_HD T atomic_inc(T* p, T v) {
  static_assert(std::is_same_v<T, std::uint32_t> || std::is_same_v<T, std::uint64_t>,
                "atomic_inc: T must be uint32 or uint64 (CUDA's atomicInc wraps unsigned values)");
  // Only the static_assert's message for another type, not errors from the body.
  if constexpr (!(std::is_same_v<T, std::uint32_t> || std::is_same_v<T, std::uint64_t>)) {
    return v;
  } else {
#if defined(__CUDA_ARCH__)
    if constexpr (std::is_same_v<T, std::uint32_t>) return atomicInc(p, v);
#endif
    return detail::cas_loop(p, [v](T old) { return old >= v ? T(0) : static_cast<T>(old + 1); });
  }
}

// *p = (*p == 0 || *p > v) ? v : *p - 1 (CUDA's atomicDec: counts down from v and wraps to v).
template <class T>
LOOM_HD T atomic_dec(T* p, T v) {
  static_assert(std::is_same_v<T, std::uint32_t> || std::is_same_v<T, std::uint64_t>,
                "atomic_dec: T must be uint32 or uint64 (CUDA's atomicDec wraps unsigned values)");
  // Only the static_assert's message for another type, not errors from the body.
  if constexpr (!(std::is_same_v<T, std::uint32_t> || std::is_same_v<T, std::uint64_t>)) {
    return v;
  } else {
#if defined(__CUDA_ARCH__)
    if constexpr (std::is_same_v<T, std::uint32_t>) return atomicDec(p, v);
#endif
    return detail::cas_loop(
        p, [v](T old) { return old == 0 || old > v ? v : static_cast<T>(old - 1); });
  }
}

}  // namespace loom
