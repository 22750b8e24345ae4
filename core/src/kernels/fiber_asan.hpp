// What AddressSanitizer must be told of fiber stacks: every switch between stacks, or it reports
// false errors on them; Boost 1.74's fcontext fibers do not tell it, so the switches in
// block_fibers.cpp and warp_calls.cpp do. Internal to the core.
#pragma once
#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#define LOOM_ASAN_FIBERS 1
#else
#define LOOM_ASAN_FIBERS 0
#endif

namespace loom::detail {

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

}  // namespace loom::detail
