// Atomics for custom kernels, the same calls on every target: CUDA's atomic* on the device,
// std::atomic_ref on the host. Each returns the value stored before (Numba's cuda.atomic.*).
// Types: int32, uint32, int64, uint64, float32, float64.
#pragma once
#include <cstdint>
#include <type_traits>

#include "loom/hd.hpp"

#if !defined(__CUDA_ARCH__)
#include <atomic>
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
template <class T, class F>
T cas_loop(T* p, F f) {
  std::atomic_ref<T> a(*p);
  T old = a.load(std::memory_order_relaxed);
  while (!a.compare_exchange_weak(old, f(old), std::memory_order_relaxed)) {
  }
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
  return std::atomic_ref<T>(*p).fetch_add(v, std::memory_order_relaxed);
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
  return std::atomic_ref<T>(*p).fetch_sub(v, std::memory_order_relaxed);
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
  return std::atomic_ref<T>(*p).exchange(v, std::memory_order_relaxed);
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
  // On failure compare_exchange stores the value it saw in `expected`: the old value either way.
  std::atomic_ref<T>(*p).compare_exchange_strong(expected, desired, std::memory_order_relaxed);
  return expected;
#endif
}

}  // namespace loom
