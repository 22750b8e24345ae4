// The race checker of checked host launches (docs/kernels.md, "Checked launches"): what it found
// first, and the message the launch raises (KernelError) after it.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "loom/kernel.hpp"

namespace loom::detail {

// The first shared-memory race or read of shared memory nothing wrote in a launch: claimed once
// (flag), by the first OS thread to find one on `parallel`.
struct SharedCheckRecord {
  enum class Kind : std::uint8_t {
    uninit,       // `thread` read bytes no thread of the block wrote
    write_write,  // `thread` wrote what `other` wrote in the same barrier interval
    read_write,   // `thread` wrote what `other` read
    write_read,   // `thread` read what `other` wrote
  };
  std::atomic<unsigned> flag{0};
  Kind kind = Kind::uninit;
  unsigned block[3] = {}, thread[3] = {}, other[3] = {};
  bool after_barrier = false;  // the interval began at a barrier, not at the block's start
  // The element: its bytes in the block's shared memory, its kind (view.hpp elem_kind) and its
  // index in the View that accessed it (ndim -1: an atomic through a raw pointer, no index).
  std::size_t offset = 0, size = 0;
  char elem = 'v';
  int ndim = 0;
  std::int64_t index[3] = {};
};

// "kernel 'k': shared memory race in block (0, 0, 0): thread (3, 0, 0) wrote element 5 of a
// float32 View of the block's shared memory (bytes 20-23), which thread (2, 0, 0) read since the
// last barrier; ..." (the record must hold a finding: flag set).
std::string shared_check_error(const KernelCall& c, const SharedCheckRecord& r);

// The fibers' counts the checker reads (kept by block_fibers.cpp's scheduler, read in
// warp_calls.cpp): block barriers passed, and a warp's completed syncwarp calls (and in *mask,
// the mask of the last).
std::uint32_t block_barriers(const BlockSync* s);
std::uint32_t warp_syncs(const BlockSync* s, std::int64_t warp, std::uint32_t* mask);

// This OS thread's block shared memory for checked launches (host_shared.cpp): as
// host_shared_memory, from the range atomics recognise as a checked launch's.
void* host_checked_shared_memory(std::size_t bytes);

}  // namespace loom::detail
