// Non-temporal ("streaming") stores for the host SIMD loops. A loop whose output is far larger
// than the caches gains nothing from keeping it there, and an ordinary store first reads each
// cache line it writes (write-allocate): a third of a unary op's memory traffic, a quarter of a
// binary op's. Streaming stores skip that read. They change no value, only where the bytes go.
#pragma once
#include <cstdint>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace loom::def::detail {

// Outputs of at least this many bytes in one loop call stream. Chosen above the last-level cache
// share of a core on the machines measured (docs/vectorization.md), so that an output the next
// call may read from cache stays there. A parallel call's chunks are smaller and do not stream.
inline constexpr std::int64_t kStreamBytes = std::int64_t{32} << 20;

// Whether the SIMD loop over batches of B writing n elements at out streams, and the elements
// before the first register-aligned one (they go through the padded-buffer path instead).
template <class B>
bool stream_plan(const typename B::value_type* out, std::int64_t n, std::int64_t& head) {
#if defined(__SSE2__)
  using T = typename B::value_type;
  const auto addr = reinterpret_cast<std::uintptr_t>(out);
  if (n * static_cast<std::int64_t>(sizeof(T)) < kStreamBytes || addr % sizeof(T) != 0) {
    return false;
  }
  constexpr std::uintptr_t kReg = sizeof(typename B::register_type);
  head = static_cast<std::int64_t>((kReg - addr % kReg) % kReg / sizeof(T));
  return true;
#else
  (void)out, (void)n, (void)head;
  return false;
#endif
}

// r to the register-aligned p, bypassing the caches.
template <class B>
[[gnu::always_inline]] inline void stream_store(typename B::value_type* p, const B& r) {
#if defined(__SSE2__)
  using V = typename B::register_type;
  const V v = r;
  if constexpr (sizeof(V) == 64) {
#if defined(__AVX512F__)
    __m512i w;
    std::memcpy(&w, &v, 64);
    _mm512_stream_si512(reinterpret_cast<__m512i*>(p), w);
#endif
  } else if constexpr (sizeof(V) == 32) {
#if defined(__AVX__)
    __m256i w;
    std::memcpy(&w, &v, 32);
    _mm256_stream_si256(reinterpret_cast<__m256i*>(p), w);
#endif
  } else {
    static_assert(sizeof(V) == 16);
    __m128i w;
    std::memcpy(&w, &v, 16);
    _mm_stream_si128(reinterpret_cast<__m128i*>(p), w);
  }
#else
  r.store_aligned(p);
#endif
}

// Streaming stores are weakly ordered: fence before the loop returns, so that whichever thread
// learns the call is done (a TBB task's completion, the caller) sees the bytes.
inline void stream_fence() {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

}  // namespace loom::def::detail
