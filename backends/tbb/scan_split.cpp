// Parallel accumulate. Two ways to run a ScanCall, chosen from its shape and the op alone:
//  - many lines (or an op that is not reorderable): whole lines in parallel, each scanned in order
//    by the loop's scan, exactly as the serial backend does it (the cpu bits);
//  - few long lines of a reorderable op: each line cut into blocks fixed by its length; pass 1
//    folds every block but the last (pairwise, the loop's fold), the block totals are scanned in
//    order into each block's carry, and pass 2 scans every block from its carry. Not the cpu's
//    bits (the association differs), but the same bits on every run with any thread count, and
//    an error no larger than the serial scan's. The blocks run in rounds that fit in cache, so
//    that pass 2 rereads the input from cache.
#include "scan_split.hpp"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "chunking.hpp"
#include "loom/error.hpp"

namespace loom::backend::tbb_backend {

namespace {

// The first out and x elements of line `line` of the outer dims (C order).
void line_start(const ScanCall& c, std::int64_t line, char*& out, const char*& x) {
  out = c.out;
  x = c.x;
  for (int k = static_cast<int>(c.outer_shape.size()) - 1; k >= 0; --k) {
    const std::int64_t i = line % c.outer_shape[k];
    line /= c.outer_shape[k];
    out += i * c.outer_out_strides[k];
    x += i * c.outer_x_strides[k];
  }
}

// The blocks of a line of n elements: kScanBlock elements, more when there would be more than
// kMaxScanBlocks, rounded to kAlign (so that every block but the last starts SIMD-aligned
// relative to the line's start, as the fold's batches do).
Chunks scan_blocks(std::int64_t n) {
  return {n, round_up(std::max(kScanBlock, ceil_div(n, kMaxScanBlocks)), kAlign)};
}

void blocked_scan(const ScanCall& c, const Executor& ex, std::int64_t lines, const Chunks& blocks) {
  const LoopImpl& l = *c.loop;
  if (!l.fold || !l.scan) {
    throw LookupError("parallel accumulate: the " + std::string(name(c.dtype)) +
                      " loop has no fold or scan (a T(T,T) loop registered without methods)");
  }
  const std::int64_t nb = blocks.count();
  const std::int64_t isz = static_cast<std::int64_t>(itemsize(c.dtype));
  // totals[line][b]: the fold of block b; carry[line][b]: op over blocks 0..b-1, in order (the
  // carry of block 0 is unused: block 0 starts from nothing, as the serial scan does).
  std::vector<unsigned char> totals(static_cast<std::size_t>(lines * nb * isz));
  std::vector<unsigned char> carry(totals.size());
  auto at = [&](std::vector<unsigned char>& v, std::int64_t line, std::int64_t b) {
    return reinterpret_cast<char*>(v.data() + (line * nb + b) * isz);
  };
  // Rounds of `per` blocks of every line, one after the other: pass 1 of a round, its carries,
  // pass 2 of the round, so that pass 2 finds the round's input still in cache (reading it from
  // memory once rather than twice). Rounds change when things run, not what is computed. A
  // stride-0 input (a broadcast view) reads one element: its bytes count as one, never zero.
  const std::int64_t block_bytes =
      std::max<std::int64_t>(blocks.size * std::abs(c.x_step) * lines, 1);
  const std::int64_t per = std::max(ceil_div(ex.threads(), lines),
                                    std::max<std::int64_t>(kScanRoundBytes / block_bytes, 1));
  for (std::int64_t b0 = 0; b0 < nb; b0 += per) {
    const std::int64_t b1 = std::min(nb, b0 + per);
    // Pass 1: the fold of every block of the round but each line's last (no one's carry).
    const std::int64_t e1 = std::min(b1, nb - 1), nfold = std::max<std::int64_t>(e1 - b0, 0);
    ex.run(lines * nfold, [&](std::int64_t t) {
      const std::int64_t line = t / nfold, b = b0 + t % nfold;
      char* out;
      const char* x;
      line_start(c, line, out, x);
      const char* xb = x + blocks.begin(b) * c.x_step;
      char* acc = at(totals, line, b);
      std::memcpy(acc, xb, isz);
      l.fold(acc, xb + c.x_step, blocks.end(b) - blocks.begin(b) - 1, c.x_step, l.data);
    });
    // The round's carries, in block order: carry[b] = carry[b-1] op total[b-1] (carry[1] =
    // total[0]), continuing the previous round's with the loop's scan.
    const std::int64_t first = std::max<std::int64_t>(b0, 1);
    if (b1 > first) {
      for (std::int64_t line = 0; line < lines; ++line) {
        l.scan(at(carry, line, first), at(totals, line, first - 1), b1 - first, isz, isz,
               first >= 2 ? at(carry, line, first - 1) : nullptr, l.data);
      }
    }
    // Pass 2: every block of the round scanned from its carry.
    ex.run(lines * (b1 - b0), [&](std::int64_t t) {
      const std::int64_t line = t / (b1 - b0), b = b0 + t % (b1 - b0);
      char* out;
      const char* x;
      line_start(c, line, out, x);
      const std::int64_t i = blocks.begin(b);
      l.scan(out + i * c.out_step, x + i * c.x_step, blocks.end(b) - i, c.out_step, c.x_step,
             b == 0 ? nullptr : at(carry, line, b), l.data);
    });
  }
}

}  // namespace

void run_scan_split(const ScanCall& c, const Executor& ex) {
  const std::int64_t lines = shape_size(c.outer_shape);
  if (lines == 0 || c.n == 0) return;
  const Chunks blocks = scan_blocks(c.n);
  // Decided from the shape and the op only: the bits must not depend on the executor.
  if (c.reorderable && lines < kMinScanLines && blocks.count() >= 2) {
    return blocked_scan(c, ex, lines, blocks);
  }
  if (!ex.parallel() || lines < 2) return run_scan_range(c, 0, lines);
  const Chunks ch = balanced_chunks(lines, c.n, ex.threads());
  ex.run(ch.count(), [&](std::int64_t i) { run_scan_range(c, ch.begin(i), ch.end(i)); });
}

}  // namespace loom::backend::tbb_backend
