// Parallel ufunc.at. Every path gives run_at_serial's bits:
//  - integer dtypes of reorderable ops (the loop has at_atomic), 1-d a, indices spanning at least
//    kAtomicMinRows rows: the updates split into chunks, applied with atomics (any order of
//    integer adds, products, max, ... gives the same integers);
//  - sub-array updates (a has more than one dim) of at least kMinChunk elements each: split over
//    the sub-array's elements, every task applying all updates to its slice, in order;
//  - otherwise the ordered path: every chunk of updates is sorted on its own (a stable counting
//    sort, chunks in parallel) into buckets of whole index ranges; then each bucket applies its
//    run of every chunk, chunks in order, with the loop's `at`. Every element of a lives in one
//    bucket and sees its updates in the serial order, so its value has the serial bits.
#include "at_split.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "chunking.hpp"

namespace loom::backend::tbb_backend {

namespace {

// The largest index (the caller has checked them: all in [0, rows)).
std::int64_t max_index(const AtCall& c, const Executor& ex) {
  const Chunks ch{c.m, std::max(kAtChunk, ceil_div(c.m, ex.threads() * kChunksPerThread))};
  std::vector<std::int64_t> part(static_cast<std::size_t>(ch.count()), 0);
  ex.run(ch.count(), [&](std::int64_t i) {
    std::int64_t hi = 0;
    for (std::int64_t j = ch.begin(i); j < ch.end(i); ++j) hi = std::max(hi, c.idx[j]);
    part[i] = hi;
  });
  return *std::max_element(part.begin(), part.end());
}

void atomic_updates(const AtCall& c, const Executor& ex) {
  const Chunks ch = balanced_chunks(c.m, 1, ex.threads());
  ex.run(ch.count(), [&](std::int64_t i) {
    const std::int64_t j = ch.begin(i);
    c.loop->at_atomic(c.a, c.a_step, c.idx + j, ch.end(i) - j, c.b + j * c.b_step, c.b_step,
                      c.loop->data);
  });
}

// a[idx[j]] = f(a[idx[j]], b[j]) over the sub-array elements [begin, end) of a[idx[j]] (C order
// of `rest`), for one j.
void update_rest(const AtCall& c, std::int64_t i, std::int64_t j, std::int64_t begin,
                 std::int64_t end) {
  char* const row = c.a + i * c.a_step;
  char* const base[3] = {row, const_cast<char*>(c.b) + j * c.b_step, row};
  const Shape strides[3] = {c.a_rest_strides, c.b_rest_strides, c.a_rest_strides};
  const StridedIter it = StridedIter::make(base, strides, c.rest);
  it.for_each_run(begin, end, [&](char** p, std::int64_t n, const std::int64_t* st) {
    c.loop->host(p, &n, st, c.loop->data);
  });
}

// Every update, each task on its own slice of the sub-arrays.
void split_rest(const AtCall& c, const Executor& ex, std::int64_t inner) {
  const Chunks ch = balanced_chunks(inner, c.m, ex.threads(), kAlign);
  ex.run(ch.count(), [&](std::int64_t t) {
    for (std::int64_t j = 0; j < c.m; ++j) update_rest(c, c.idx[j], j, ch.begin(t), ch.end(t));
  });
}

// A stable counting sort of updates [j0, j1) by bucket (idx >> shift) into `sidx` (the indices)
// and `payload` (S bytes per update: b's element for a 1-d a, the update's number j for sub-arrays,
// nothing when b is broadcast), which hold j1 - j0 entries; bounds[k] .. bounds[k + 1] is bucket
// k's run. The chunk's indices are read twice, the second time from cache.
enum class Payload : std::uint8_t { none, b, j };

template <std::size_t S, Payload P>
void sort_chunk(const AtCall& c, std::int64_t j0, std::int64_t j1, int shift, std::int64_t nb,
                std::int64_t* bounds, std::int64_t* __restrict sidx,
                unsigned char* __restrict payload) {
  // Locals: the stores below could alias `c` as far as the compiler knows.
  const std::int64_t* __restrict const idx = c.idx;
  const char* const b = c.b;
  const std::int64_t b_step = c.b_step;
  std::int64_t pos[kAtBuckets + 1] = {};
  for (std::int64_t j = j0; j < j1; ++j) ++pos[idx[j] >> shift];
  std::int64_t q = 0;
  for (std::int64_t k = 0; k < nb; ++k) {
    bounds[k] = q;
    q += pos[k];
    pos[k] = bounds[k];
  }
  bounds[nb] = q;
  for (std::int64_t j = j0; j < j1; ++j) {
    const std::int64_t i = idx[j];
    const std::int64_t at = pos[i >> shift]++;
    sidx[at] = i;
    if constexpr (P == Payload::b) {
      std::memcpy(payload + at * S, b + j * b_step, S);
    } else if constexpr (P == Payload::j) {
      static_assert(S == sizeof(std::int64_t));
      std::memcpy(payload + at * S, &j, S);
    }
  }
}

using SortFn = void (*)(const AtCall&, std::int64_t, std::int64_t, int, std::int64_t, std::int64_t*,
                        std::int64_t*, unsigned char*);

SortFn sort_for(Payload p, std::size_t size) {
  if (p == Payload::none) return &sort_chunk<0, Payload::none>;
  if (p == Payload::j) return &sort_chunk<sizeof(std::int64_t), Payload::j>;
  switch (size) {
    case 1:
      return &sort_chunk<1, Payload::b>;
    case 2:
      return &sort_chunk<2, Payload::b>;
    case 4:
      return &sort_chunk<4, Payload::b>;
    case 8:
      return &sort_chunk<8, Payload::b>;
    default:
      return &sort_chunk<16, Payload::b>;  // complex128, the largest dtype
  }
}

// The sort's scratch, kept by each calling thread for its next call: a fresh one per call would
// cost a page fault per 4 KiB on every call (as much as the sort itself). At most kAtBatch
// updates' worth: 8 bytes of index and up to 16 of payload each (24 MiB).
struct Scratch {
  std::unique_ptr<unsigned char[]> mem;
  std::int64_t bytes = 0;
  unsigned char* get(std::int64_t n) {
    if (n > bytes) {
      mem.reset(new unsigned char[n]);
      bytes = n;
    }
    return mem.get();
  }
};

void ordered_buckets(const AtCall& c, const Executor& ex, std::int64_t hi) {
  // Buckets of 2^shift rows: several per thread (the last bucket's work is what the others wait
  // for), more when a bucket's rows would not stay in a core's cache, at most kAtBuckets. The
  // result does not depend on the count: every row's updates stay in one bucket, in order.
  const std::int64_t row_bytes =
      std::max<std::int64_t>(std::abs(c.a_step), static_cast<std::int64_t>(itemsize(c.dtype)));
  const std::int64_t want = std::min(
      kAtBuckets,
      std::max(ex.threads() * kAtBucketsPerThread, ceil_div((hi + 1) * row_bytes, kAtBucketBytes)));
  int shift = 0;
  while ((hi >> shift) + 1 > want) ++shift;
  const std::int64_t nb = (hi >> shift) + 1;
  if (nb < 2) return run_at_serial(c);  // one bucket: nothing to spread
  const bool one_d = c.rest.empty();
  // A 1-d a with a broadcast b (b_step 0) moves only the indices; sub-arrays move j.
  const Payload what = !one_d ? Payload::j : c.b_step != 0 ? Payload::b : Payload::none;
  const std::int64_t psz = what == Payload::none ? 0
                           : what == Payload::j  ? static_cast<std::int64_t>(sizeof(std::int64_t))
                                                 : static_cast<std::int64_t>(itemsize(c.dtype));
  const SortFn sort = sort_for(what, static_cast<std::size_t>(psz));
  const std::int64_t batch = std::min(c.m, kAtBatch);
  static thread_local Scratch scratch;
  unsigned char* const mem = scratch.get(batch * (8 + psz));
  auto* const sidx = reinterpret_cast<std::int64_t*>(mem);
  unsigned char* const payload = mem + batch * 8;
  const std::int64_t nchunks = ceil_div(batch, kAtChunk);
  // bounds[p][k]: where bucket k's run starts in chunk p's part of the scratch.
  std::vector<std::int64_t> bounds(static_cast<std::size_t>(nchunks * (nb + 1)));
  const std::int64_t inner = shape_size(c.rest);

  // Batches one after the other, each applied before the next: the serial order across batches.
  for (std::int64_t j0 = 0; j0 < c.m; j0 += batch) {
    const Chunks ch{std::min(batch, c.m - j0), kAtChunk};
    ex.run(ch.count(), [&](std::int64_t p) {
      const std::int64_t s = ch.begin(p);
      sort(c, j0 + s, j0 + ch.end(p), shift, nb, bounds.data() + p * (nb + 1), sidx + s,
           payload + s * psz);
    });
    // Bucket k: its run of every chunk, chunks in order, each run in order (the serial order).
    ex.run(nb, [&](std::int64_t k) {
      for (std::int64_t p = 0; p < ch.count(); ++p) {
        const std::int64_t* bp = bounds.data() + p * (nb + 1);
        const std::int64_t s0 = ch.begin(p) + bp[k], s1 = ch.begin(p) + bp[k + 1];
        if (s0 == s1) continue;
        if (what == Payload::none) {
          c.loop->at(c.a, c.a_step, sidx + s0, s1 - s0, c.b, 0, c.loop->data);
        } else if (what == Payload::b) {
          c.loop->at(c.a, c.a_step, sidx + s0, s1 - s0,
                     reinterpret_cast<const char*>(payload + s0 * psz), psz, c.loop->data);
        } else {
          for (std::int64_t q = s0; q < s1; ++q) {
            std::int64_t j;
            std::memcpy(&j, payload + q * psz, sizeof j);
            update_rest(c, sidx[q], j, 0, inner);
          }
        }
      }
    });
  }
}

}  // namespace

void run_at_split(const AtCall& c, const Executor& ex) {
  const std::int64_t inner = shape_size(c.rest);  // 1 for a 1-d a
  if (c.m == 0 || inner == 0) return;
  if (!ex.parallel() || c.m < 2) return run_at_serial(c);
  if (!c.rest.empty() && inner >= kMinChunk) return split_rest(c, ex, inner);
  // The atomic and the ordered paths do about twice the serial loop's work (compare-and-swap;
  // sort then apply): with few threads the serial loop is as fast, and gives the same bits.
  if (ex.threads() < kAtMinThreads) return run_at_serial(c);
  const std::int64_t hi = max_index(c, ex);
  if (c.rest.empty() && c.loop->at_atomic && hi + 1 >= kAtomicMinRows) {
    return atomic_updates(c, ex);
  }
  ordered_buckets(c, ex, hi);
}

}  // namespace loom::backend::tbb_backend
