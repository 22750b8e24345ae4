// Deterministic parallel reductions. Operand 0 of a ReduceCall is the output with stride 0 on the
// reduced dims. Two ways to cut one, chosen from the shape alone:
//  - over the outputs, along the outermost kept dim that gives enough pieces of enough contiguous
//    input: each output is then reduced exactly as the serial backend does it (the cpu bits);
//  - otherwise along the longest reduced dim, in chunks whose boundaries depend only on the shape:
//    chunk 0 folds into the output, every other chunk into a partial that starts from the chunk's
//    first element, and the partials are combined in a fixed binary tree, then into the output.
// A non-reorderable op (ReduceCall::ordered) is only ever cut the first way, into as few as two
// pieces if need be, so that every output is folded strictly in order (the cpu bits).
#include "reduce_split.hpp"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

#include "chunking.hpp"

namespace loom::backend::tbb_backend {

namespace {

// The call's operand pointers moved to the box corner `lo`, with operand 0 replaced by `out`.
struct Box {
  char* base[2];
  Shape strides[2];
};

Box box_at(const ReduceCall& c, char* out, const Shape& out_strides, const Shape& lo) {
  Box b{{out, c.iter.base[1]}, {out_strides, c.iter.strides[1]}};
  for (std::size_t k = 0; k < lo.size(); ++k) {
    b.base[0] += lo[k] * out_strides[k];
    b.base[1] += lo[k] * c.iter.strides[1][k];
  }
  return b;
}

// Reduces the box [lo, lo + ext) into `out` (laid out with `out_strides`). by_output: one output
// at a time, over all its reduced elements (the same order of operations as the serial one, but
// one loop call per output instead of one per short run of a small innermost kept dim).
void run_box(const ReduceCall& c, char* out, const Shape& out_strides, const Shape& lo,
             const Shape& ext, const std::vector<bool>& reduced, bool by_output) {
  const Box b = box_at(c, out, out_strides, lo);
  if (!by_output) {
    ReduceCall sub{StridedIter::make(b.base, b.strides, ext), c.loop, c.dtype, c.stream};
    sub.ordered = c.ordered;
    return run_reduce_range(sub, 0, sub.iter.size());
  }
  Shape kept = ext, red = ext;
  for (std::size_t k = 0; k < ext.size(); ++k) (reduced[k] ? kept[k] : red[k]) = 1;
  const StridedIter outs = StridedIter::make(b.base, b.strides, kept);
  outs.for_each_run(0, outs.size(), [&](char** p, std::int64_t n, const std::int64_t* st) {
    for (std::int64_t j = 0; j < n; ++j) {
      char* const one[2] = {p[0] + j * st[0], p[1] + j * st[1]};
      ReduceCall sub{StridedIter::make(one, b.strides, red), c.loop, c.dtype, c.stream};
      sub.ordered = c.ordered;
      run_reduce_range(sub, 0, sub.iter.size());
    }
  });
}

// Copies the input at the box [lo, lo + ext) into `out` (laid out with `out_strides`).
void copy_box(const ReduceCall& c, char* out, const Shape& out_strides, const Shape& lo,
              const Shape& ext) {
  char* base[2] = {out, c.iter.base[1]};
  for (std::size_t k = 0; k < lo.size(); ++k) base[1] += lo[k] * c.iter.strides[1][k];
  const Shape strides[2] = {out_strides, c.iter.strides[1]};
  const StridedIter it = StridedIter::make(base, strides, ext);
  const std::int64_t isz = static_cast<std::int64_t>(itemsize(c.dtype));
  it.for_each_run(0, it.size(), [&](char** p, std::int64_t n, const std::int64_t* st) {
    if (st[0] == isz && st[1] == isz) return (void)std::memcpy(p[0], p[1], n * isz);
    for (std::int64_t i = 0; i < n; ++i) std::memcpy(p[0] + i * st[0], p[1] + i * st[1], isz);
  });
}

// Cut over the outputs along kept dim d: any cut gives the serial bits, so it may follow threads.
void split_outputs(const ReduceCall& c, const Executor& ex, int d, std::int64_t min_piece) {
  const Shape& shape = c.iter.shape;
  const int nd = static_cast<int>(shape.size());
  const std::vector<bool> none(nd, false);
  const Chunks ch =
      balanced_chunks(shape[d], c.iter.size() / shape[d], ex.threads(), d == nd - 1 ? kAlign : 1);
  const Chunks cut{ch.n, std::max(ch.size, min_piece)};
  ex.run(cut.count(), [&](std::int64_t i) {
    Shape lo(nd, 0), ext = shape;
    lo[d] = cut.begin(i);
    ext[d] = cut.end(i) - cut.begin(i);
    run_box(c, c.iter.base[0], c.iter.strides[0], lo, ext, none, false);
  });
}

// Cut along reduced dim r into fixed chunks (see the top of the file).
void split_reduced(const ReduceCall& c, const Executor& ex, const std::vector<bool>& reduced, int r,
                   const Chunks& cut) {
  const Shape& shape = c.iter.shape;
  const int nd = static_cast<int>(shape.size());
  const std::int64_t isz = static_cast<std::int64_t>(itemsize(c.dtype));
  const bool by_output = !reduced[nd - 1] && shape[nd - 1] < kShortRun;
  // Partials of chunks 1.. : the kept dims in C order, one cache-line-padded block per chunk.
  Shape tstr(nd, 0);
  std::int64_t nout = 1;
  for (int k = nd - 1; k >= 0; --k) {
    if (reduced[k]) continue;
    tstr[k] = nout * isz;
    nout *= shape[k];
  }
  const std::int64_t block = round_up(nout * isz, 64);
  const std::int64_t nparts = cut.count() - 1;
  const std::unique_ptr<char, decltype(&std::free)> buf(
      static_cast<char*>(std::aligned_alloc(64, nparts * block)), &std::free);
  if (!buf) throw std::bad_alloc();
  char* const parts = buf.get();

  ex.run(cut.count(), [&](std::int64_t i) {
    Shape lo(nd, 0), ext = shape;
    lo[r] = cut.begin(i);
    ext[r] = cut.end(i) - cut.begin(i);
    if (i == 0) {
      return run_box(c, c.iter.base[0], c.iter.strides[0], lo, ext, reduced, by_output);
    }
    char* t = parts + (i - 1) * block;
    // Start from the chunk's corner (its first element of every output's slice), then reduce
    // the rest of the chunk: for each reduced dim k, innermost first, the box where the reduced
    // dims before k sit at the corner and dim k is past it. Together: the chunk in C order.
    Shape one = ext;
    for (int k = 0; k < nd; ++k) one[k] = reduced[k] ? 1 : ext[k];
    copy_box(c, t, tstr, lo, one);
    for (int k = nd - 1; k >= 0; --k) {
      if (!reduced[k]) continue;
      Shape lo_k = lo, ext_k = ext;
      for (int q = 0; q < k; ++q) ext_k[q] = reduced[q] ? 1 : ext[q];
      lo_k[k] += 1;
      ext_k[k] -= 1;
      run_box(c, t, tstr, lo_k, ext_k, reduced, by_output);
    }
  });

  // Combine the partials in a binary tree fixed by their count (part q += part q + s, for s = 1,
  // 2, 4, ...), each step elementwise over the outputs with the op's binary loop; then
  // out = op(out, part 0).
  const HostLoop op = c.loop->host;
  for (std::int64_t s = 1; s < nparts; s *= 2) {
    const std::int64_t pairs = ceil_div(nparts - s, 2 * s);
    const Executor level = pairs * nout >= kSerialCutoff ? ex : Executor();
    level.run(pairs, [&](std::int64_t j) {
      char* a = parts + 2 * s * j * block;
      char* args[3] = {a, a + s * block, a};
      const std::int64_t steps[3] = {isz, isz, isz};
      op(args, &nout, steps, c.loop->data);
    });
  }
  Shape kept = shape;
  for (int k = 0; k < nd; ++k) kept[k] = reduced[k] ? 1 : shape[k];
  char* base[2] = {c.iter.base[0], parts};
  const Shape strides[2] = {c.iter.strides[0], tstr};
  const StridedIter it = StridedIter::make(base, strides, kept);
  it.for_each_run(0, it.size(), [&](char** p, std::int64_t n, const std::int64_t* st) {
    char* args[3] = {p[0], p[1], p[0]};
    const std::int64_t steps[3] = {st[0], st[1], st[0]};
    op(args, &n, steps, c.loop->data);
  });
}

}  // namespace

void run_reduce_split(const ReduceCall& c, const Executor& ex) {
  const Shape& shape = c.iter.shape;
  const int nd = static_cast<int>(shape.size());
  const std::int64_t n = c.iter.size();
  if (n < kSerialCutoff) return run_reduce_range(c, 0, n);
  std::vector<bool> reduced(nd);
  for (int k = 0; k < nd; ++k) reduced[k] = c.iter.strides[0][k] == 0;
  // Over the outputs: the outermost kept dim with kMinOutputPieces pieces, each (below the
  // outermost dim) at least kContiguous elements of input long between jumps.
  std::int64_t unit = n;  // elements of input per step of dim k
  for (int k = 0; k < nd; ++k) {
    unit /= shape[k];
    if (reduced[k]) continue;
    const std::int64_t min_piece = k == 0 ? 1 : ceil_div(kContiguous, unit);
    if (shape[k] / min_piece >= kMinOutputPieces) return split_outputs(c, ex, k, min_piece);
  }
  // A non-reorderable op folds each output strictly in order: never split one output's fold.
  // Rather than run serially, split over the outputs into fewer pieces (as long as they are as
  // contiguous as above: shorter ones measured slower than serial).
  if (c.ordered) {
    unit = n;
    for (int k = 0; k < nd; ++k) {
      unit /= shape[k];
      if (reduced[k]) continue;
      const std::int64_t min_piece = k == 0 ? 1 : ceil_div(kContiguous, unit);
      if (shape[k] / min_piece >= 2) return split_outputs(c, ex, k, min_piece);
    }
    return run_reduce_range(c, 0, n);
  }
  int r = -1;  // else along the longest reduced dim (the outermost of equals)
  for (int k = 0; k < nd; ++k) {
    if (reduced[k] && (r < 0 || shape[k] > shape[r])) r = k;
  }
  if (r < 0) return run_reduce_range(c, 0, n);  // nothing reduced (cannot happen; be safe)
  std::int64_t rows = std::max(
      {ceil_div(kReduceChunk, n / shape[r]), ceil_div(shape[r], kMaxReduceChunks), kMinReduceRows});
  if (r == nd - 1) rows = round_up(rows, kAlign);
  const Chunks cut{shape[r], rows};
  if (cut.count() < 2) return run_reduce_range(c, 0, n);
  split_reduced(c, ex, reduced, r, cut);
}

}  // namespace loom::backend::tbb_backend
