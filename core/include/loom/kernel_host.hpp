// What the host kernel loops (def/kernel.hpp, compiled into plugins) need from the core: running
// one block's threads as fibers, so that they can wait for each other at syncthreads() and in
// warp functions.
#pragma once
#include <cstddef>
#include <cstdint>

#include "loom/thread_ctx.hpp"

namespace loom::detail {

// body(arg, rank, sync) runs thread `rank` of the block; it must hand `sync` to its ThreadCtx.
using ThreadBody = void (*)(void* arg, std::int64_t rank, BlockSync* sync);

// Runs nthreads bodies as fibers on the calling thread until all return, each on a stack of
// stack_bytes (KernelCall::stack_bytes) with a guard below; a barrier that some threads skip is
// a KernelError naming `block`. Rethrows the first exception a body throws. warp_functions: the
// kernel declared uses_syncthreads, so its threads may call warp functions (ThreadCtx::shfl_sync
// and the others wait for their warp here); without it they are a KernelError.
void run_block_fibers(std::int64_t nthreads, ThreadBody body, void* arg, const Dim3& block,
                      std::size_t stack_bytes, bool warp_functions);

// The calling OS thread's block shared memory (at least `bytes`, 64-byte aligned, reused from
// block to block: its contents at the start of a block are unspecified, as on a GPU). It lies in
// the range atomics recognise as block-private (atomic.hpp, detail::block_shared).
void* host_shared_memory(std::size_t bytes);

// The race checker of a checked host launch (docs/kernels.md, "Checked launches";
// core/src/kernels/shared_check.cpp): one shadow of the block shared memory per host loop call,
// opened when the launch gives shared memory (`record`: the launch's, KernelCall::shared_check;
// `threads`: the block's shape). The checked loop takes the block's shared memory from it, tells
// it where each block begins and ends, and BlockCtx tells it of the barriers of its loops.
struct SharedCheckRecord;
SharedShadow* shared_check_open(SharedCheckRecord* record, std::size_t shared_bytes,
                                const Dim3& threads);
void shared_check_close(SharedShadow* s) noexcept;
void* shared_check_memory(SharedShadow* s);
void shared_check_block_begin(SharedShadow* s, const unsigned (&block)[3]);
void shared_check_block_end(SharedShadow* s);
void shared_check_barrier(SharedShadow* s);

// Fiber stacks (docs/kernels.md, "Fiber stacks"): the default and the most a launch may ask.
inline constexpr std::size_t kDefaultFiberStack = 256 * 1024;
inline constexpr std::size_t kMinFiberStack = 16 * 1024;
inline constexpr std::size_t kMaxFiberStack = 8 * 1024 * 1024;

}  // namespace loom::detail
