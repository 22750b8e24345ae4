// How the parallel backend cuts a call into chunks: the grain constants and the chunk arithmetic,
// shared by the elementwise, gufunc and reduction paths (docs/parallel.md explains the values).
#pragma once
#include <algorithm>
#include <cstdint>

namespace loom::backend::tbb_backend {

// Calls with less work than this (elements, or instances x core-dim product for a gufunc) run on
// the calling thread without touching TBB: waking the workers costs about as much as the call.
inline constexpr std::int64_t kSerialCutoff = 32 * 1024;
// The smallest chunk a task gets, in elements (work units for a gufunc).
inline constexpr std::int64_t kMinChunk = 16 * 1024;
// Elementwise chunk boundaries fall on multiples of this many elements, so that each chunk of a
// contiguous operand starts where the serial loop's SIMD batches would.
inline constexpr std::int64_t kAlign = 64;
// Chunks per thread: a few, so that a thread slowed by other load does not hold up the call.
inline constexpr std::int64_t kChunksPerThread = 4;

// Reductions whose chunking fixes the result's bits use constants only, never the thread count.
// A reduction over few outputs is cut along a reduced dim into chunks of about this many elements,
inline constexpr std::int64_t kReduceChunk = 64 * 1024;
// into at most this many chunks (bigger chunks for bigger inputs; bounds the partials' memory),
inline constexpr std::int64_t kMaxReduceChunks = 1024;
// each at least this many steps of the split dim (partials are at most 1/16 of the input).
inline constexpr std::int64_t kMinReduceRows = 16;
// A reduction is split over its outputs along a kept dim that gives this many pieces, each (unless
// the dim is the outermost) covering at least kContiguous elements of input between jumps: a
// task that reads short pieces of many rows defeats the prefetchers (3.5x slower than serial).
inline constexpr std::int64_t kMinOutputPieces = 16;
inline constexpr std::int64_t kContiguous = 4096;
// Chunks of a reduction whose innermost dim is kept and shorter than this are reduced one output
// at a time, not one loop call per innermost run.
inline constexpr std::int64_t kShortRun = 16;

// accumulate: a reorderable op over fewer lines than this is scanned in blocks along the axis
// (two passes); more lines run in parallel one whole line at a time (the cpu bits).
inline constexpr std::int64_t kMinScanLines = 16;
// Scan blocks: about this many elements each, at most kMaxScanBlocks per line (bigger blocks for
// longer lines), so that the blocks, hence the bits, depend on the line's length alone.
inline constexpr std::int64_t kScanBlock = 64 * 1024;
inline constexpr std::int64_t kMaxScanBlocks = 1024;
// Blocks run in rounds of about this many bytes of input (at least a block per thread), both
// passes of a round before the next, so that the second pass finds the input in cache.
inline constexpr std::int64_t kScanRoundBytes = 16 << 20;

// ufunc.at's ordered path: updates are sorted into at most kAtBuckets buckets of whole index
// ranges (2^s rows each; about kAtBucketsPerThread per thread), kAtBatch updates at a time (bounds
// the scratch memory and keeps it in cache), in chunks of kAtChunk updates per task.
inline constexpr std::int64_t kAtBuckets = 256;
inline constexpr std::int64_t kAtBucketsPerThread = 8;
// The rows of a bucket span at most about this many bytes of a when there are enough buckets.
inline constexpr std::int64_t kAtBucketBytes = 256 * 1024;
inline constexpr std::int64_t kAtBatch = 1 << 20;
inline constexpr std::int64_t kAtChunk = 16 * 1024;
// Atomic updates only when the indices span this many rows: fewer rows means threads contending
// for the same few cache lines, where the ordered path is faster (both give the same integers).
inline constexpr std::int64_t kAtomicMinRows = 4096;
// Both of at's paths over the updates do about twice the serial work: below this many threads
// the serial loop is as fast.
inline constexpr int kAtMinThreads = 4;
// at's private bins (reorderable ops on a 1-d a): the updates cut into at most kAtParts parts,
// each with at least kAtPartPerRow updates per row on average (so that combining the parts' bins
// costs at most half the updates), the bins of all parts at most kAtPartBytes. Fixed by the
// shape only: the bits never depend on the thread count. Each part applies kAtPartBlock updates
// at a time (first touches copied, the rest gathered for the loop's at, in cache).
inline constexpr std::int64_t kAtParts = 32;
inline constexpr std::int64_t kAtPartPerRow = 2;
inline constexpr std::int64_t kAtPartBytes = 64 << 20;
inline constexpr std::int64_t kAtPartBlock = 2048;

inline std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }
inline std::int64_t round_up(std::int64_t a, std::int64_t m) { return ceil_div(a, m) * m; }

// [0, n) cut into pieces of `size` (the last one shorter).
struct Chunks {
  std::int64_t n = 0;
  std::int64_t size = 1;
  std::int64_t count() const { return n > 0 ? ceil_div(n, size) : 0; }
  std::int64_t begin(std::int64_t i) const { return i * size; }
  std::int64_t end(std::int64_t i) const { return std::min(n, (i + 1) * size); }
};

// `n` items of `work` units each, on `threads` threads: chunks of at least kMinChunk units, about
// kChunksPerThread per thread, rounded up to a multiple of `align` items.
inline Chunks balanced_chunks(std::int64_t n, std::int64_t work, int threads,
                              std::int64_t align = 1) {
  const std::int64_t w = std::max<std::int64_t>(work, 1);
  std::int64_t size = std::max(ceil_div(kMinChunk, w), ceil_div(n, threads * kChunksPerThread));
  return {n, round_up(std::max<std::int64_t>(size, 1), align)};
}

}  // namespace loom::backend::tbb_backend
