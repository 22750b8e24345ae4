// View<T, N>: what a gufunc or kernel functor sees of one array argument — a pointer, N sizes and
// N byte strides, indexable with N integers. Trivially copyable, usable in host and device code.
// Host code built with LOOM_BOUNDS_CHECK (the default when NDEBUG is not defined) checks every
// index against the shape and throws IndexError. A checked kernel launch (LaunchConfig::checked)
// or gufunc call (CallOptions::checked), or either under LOOM_CHECKED=1, gives its Views a
// ViewCheck on every target, device code included: a bad index is recorded once per launch or
// call and reads zero or writes nowhere (docs/kernels.md, "Checked launches").
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "loom/hd.hpp"

#ifndef LOOM_BOUNDS_CHECK
#ifdef NDEBUG
#define LOOM_BOUNDS_CHECK 0
#else
#define LOOM_BOUNDS_CHECK 1
#endif
#endif

// View's accessors are inlined into every loop, also the fast one whose check the compiler then
// folds away: left to its heuristics, GCC kept a 2-d operator() (with its check) out of line.
#if defined(__CUDACC__)
#define LOOM_VIEW_INLINE __forceinline__
#else
#define LOOM_VIEW_INLINE [[gnu::always_inline]] inline
#endif

namespace loom {

namespace detail {
// `base` is the View's data pointer: a kernel's host loop names the argument it belongs to.
[[noreturn]] void view_index_error(const void* base, int axis, std::int64_t index,
                                   std::int64_t extent, int ndim);

// A checked launch's error record: the first out-of-bounds View access of the launch. Host memory
// on host targets, a device buffer on cuda, read by the core after the launch. Plain data so that
// both sides agree on its bytes; flag is claimed once (atomically) by the first failing access.
struct CheckRecord {
  unsigned flag = 0;  // 0 until an access fails
  int axis = 0, ndim = 0;
  int shared = 0;  // the View lies in the block's dynamic shared memory
  std::int64_t index = 0, size = 0;
  const void* view = nullptr;  // the failing View's data pointer: names the argument
  unsigned block[3] = {}, thread[3] = {};
  // A gufunc call's: the operand (its ViewCheck's arg) and the instance, the flat index in the
  // call's loop space (a kernel's Views leave -1 in both).
  int arg = 0;
  std::int64_t instance = 0;
};

struct SharedShadow;  // core/src/kernels/shared_check.cpp
struct BlockSync;     // core/src/kernels/block_sync.hpp

// What a checked View points at: the launch's record, the thread that accesses (kept current by
// the checked loops), its block's shared memory, and the slot a bad access gets instead of memory.
// On host targets also the race checker's shadow of the shared memory (null without shared
// memory, and on cuda) and, on the fibers path, the block's barrier, whose count it reads.
struct ViewCheck {
  CheckRecord* record = nullptr;
  unsigned block[3] = {}, thread[3] = {};
  const void* shared_mem = nullptr;
  std::size_t shared_bytes = 0;
  int arg = -1;                // a gufunc's checked loop: the operand this check belongs to
  std::int64_t instance = -1;  // and the instance running now (kept current by the loop)
  SharedShadow* shadow = nullptr;
  BlockSync* sync = nullptr;
  alignas(16) unsigned char scratch[32] = {};
};

// The kind of a View's element, for the race checker's messages: 'f' float, 'i' signed, 'u'
// unsigned, 'b' bool, 'v' anything else (named by its size).
template <class T>
constexpr char elem_kind() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, bool>) {
    return 'b';
  } else if constexpr (std::is_floating_point_v<U>) {
    return 'f';
  } else if constexpr (std::is_integral_v<U>) {
    return std::is_signed_v<U> ? 'i' : 'u';
  } else {
    return 'v';
  }
}

#if !defined(__CUDA_ARCH__)
// A checked host View's access in bounds, out of line and called after the fast path's own code,
// so that View::operator() stays as small as the fast loops need (the inliner weighs it even where
// the check is a null it folds later): the element at p, index (i0, i1, i2) of its View; `code`
// packs the View's ndim, the element's size << 8 and its elem_kind << 16. An element of the
// block's shared memory is noted by the race checker when the launch has one (ViewCheck::shadow;
// core/src/kernels/shared_check.cpp); any other access returns at once.
void view_check_touch(ViewCheck* c, const void* p, std::int64_t i0, std::int64_t i1,
                      std::int64_t i2, unsigned code);
#endif

// Host side of a checked View's bad access (core/src/ops/kernel.cpp, out of line and cold, so that
// View::operator() stays small enough to inline into the fast loops): claims the record if this is
// the launch's first bad access (std::atomic_ref) and returns the thread's scratch slot, zeroed.
[[gnu::cold]] void* view_check_host(ViewCheck* c, const void* view, int axis, std::int64_t index,
                                    std::int64_t size, int ndim);

// A checked View's bad access: records it if it is the launch's first, then returns the thread's
// scratch slot zeroed, so that a read gets 0 and a write lands nowhere that matters.
LOOM_HD inline void* view_check_failed(ViewCheck* c, const void* view, int axis, std::int64_t index,
                                       std::int64_t size, int ndim) {
#if defined(__CUDA_ARCH__)
  CheckRecord* r = c->record;
  if (atomicCAS(&r->flag, 0u, 1u) == 0u) {
    r->axis = axis;
    r->ndim = ndim;
    const auto v = reinterpret_cast<const unsigned char*>(view),
               sh = static_cast<const unsigned char*>(c->shared_mem);
    r->shared = sh && v >= sh && v < sh + c->shared_bytes;
    r->index = index;
    r->size = size;
    r->view = view;
    for (int k = 0; k < 3; ++k) {
      r->block[k] = c->block[k];
      r->thread[k] = c->thread[k];
    }
    r->arg = c->arg;
    r->instance = c->instance;
  }
  for (auto& b : c->scratch) b = 0;
  return c->scratch;
#else
  return view_check_host(c, view, axis, index, size, ndim);
#endif
}
}  // namespace detail

template <class T, int N = 1>
struct View {
  T* data = nullptr;
  std::int64_t shape[N > 0 ? N : 1] = {};
  std::int64_t strides[N > 0 ? N : 1] = {};  // in bytes
  // Set only by a checked launch (a second instantiation of the kernel's loop): null here
  // otherwise, a constant the compiler folds when it inlines the kernel into the fast loop.
  detail::ViewCheck* check = nullptr;

  LOOM_HD std::int64_t size(int axis = 0) const { return shape[axis]; }
  template <class... I>
  LOOM_VIEW_INLINE LOOM_HD T& operator()(I... idx) const {
    static_assert(sizeof...(I) == N, "View: one index per dimension");
    const std::int64_t ix[] = {static_cast<std::int64_t>(idx)..., 0};
    std::int64_t off = 0;
    if (check) [[unlikely]] {
      static_assert(sizeof(T) <= sizeof(check->scratch), "View: element larger than the scratch");
      for (int k = 0; k < N; ++k) {
        if (ix[k] < 0 || ix[k] >= shape[k]) {
          return *static_cast<T*>(detail::view_check_failed(check, data, k, ix[k], shape[k], N));
        }
      }
    }
#if LOOM_BOUNDS_CHECK && !defined(__CUDA_ARCH__)
    for (int k = 0; k < N; ++k)
      if (ix[k] < 0 || ix[k] >= shape[k]) detail::view_index_error(data, k, ix[k], shape[k], N);
#endif
    for (int k = 0; k < N; ++k) off += ix[k] * strides[k];
    using B = std::conditional_t<std::is_const_v<T>, const char, char>;
    T* const p = reinterpret_cast<T*>(reinterpret_cast<B*>(data) + off);
#if !defined(__CUDA_ARCH__)
    if (check) [[unlikely]] {
      detail::view_check_touch(
          check, p, ix[0], N > 1 ? ix[1] : 0, N > 2 ? ix[2] : 0,
          static_cast<unsigned>(N | sizeof(T) << 8 | unsigned{detail::elem_kind<T>()} << 16));
    }
#endif
    return *p;
  }
  // The view of row i (drops the first axis).
  LOOM_VIEW_INLINE LOOM_HD View<T, N - 1> operator[](std::int64_t i) const {
    static_assert(N > 0);
    View<T, N - 1> v;
    v.check = check;
    if (check && (i < 0 || i >= shape[0])) [[unlikely]] {
      // A bad row: a view of the scratch slot with empty axes, so its accesses read 0 / write
      // nowhere (and a 0-d view reads the slot itself).
      v.data = static_cast<T*>(detail::view_check_failed(check, data, 0, i, shape[0], N));
      return v;
    }
#if LOOM_BOUNDS_CHECK && !defined(__CUDA_ARCH__)
    if (i < 0 || i >= shape[0]) detail::view_index_error(data, 0, i, shape[0], N);
#endif
    using B = std::conditional_t<std::is_const_v<T>, const char, char>;
    v.data = reinterpret_cast<T*>(reinterpret_cast<B*>(data) + i * strides[0]);
    for (int k = 1; k < N; ++k) {
      v.shape[k - 1] = shape[k];
      v.strides[k - 1] = strides[k];
    }
    return v;
  }
  LOOM_HD bool contiguous_last() const { return N == 0 || strides[N - 1] == sizeof(T); }
};

}  // namespace loom
