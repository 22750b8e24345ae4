// What the host kernel loops (def/kernel.hpp, compiled into plugins) need from the core: running
// one block's threads as fibers, so that they can wait for each other at syncthreads().
#pragma once
#include <cstdint>

#include "loom/thread_ctx.hpp"

namespace loom::detail {

// body(arg, rank, sync) runs thread `rank` of the block; it must hand `sync` to its ThreadCtx.
using ThreadBody = void (*)(void* arg, std::int64_t rank, BlockSync* sync);

// Runs nthreads bodies as fibers on the calling thread until all return; a barrier that some
// threads skip is a KernelError naming `block`. Rethrows the first exception a body throws.
void run_block_fibers(std::int64_t nthreads, ThreadBody body, void* arg, const Dim3& block);

}  // namespace loom::detail
