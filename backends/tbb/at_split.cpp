// Parallel ufunc.at. Every path gives run_at_serial's bits:
//  - integer dtypes of reorderable ops (the loop has at_atomic), 1-d a, indices spanning at least
//    kAtomicMinRows rows: the updates split into chunks, applied with atomics (any order of
//    integer adds, products, max, ... gives the same integers);
//  - sub-array updates (a has more than one dim) of at least kMinChunk elements each: split over
//    the sub-array's elements, every task applying all updates to its slice, in order;
//  - otherwise the ordered path: the updates are sorted (a stable counting sort, in parallel) into
//    buckets of whole index ranges, and each bucket applies its updates in their original order
//    with the loop's `at`. Every element of a lives in one bucket and sees its updates in the
//    serial order, so its value has the serial bits.
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

// Scatter of one chunk of updates into the sorted order: the index and a payload of S bytes,
// b's element (1-d a) or the update's number j (sub-arrays: WithJ).
template <std::size_t S, bool WithJ>
void scatter(const AtCall& c, std::int64_t j0, std::int64_t j1, int shift, std::int64_t* pos,
             std::int64_t* sidx, unsigned char* payload) {
  static_assert(!WithJ || S == sizeof(std::int64_t));
  for (std::int64_t j = j0; j < j1; ++j) {
    const std::int64_t i = c.idx[j];
    const std::int64_t q = pos[i >> shift]++;
    sidx[q] = i;
    if constexpr (WithJ) {
      std::memcpy(payload + q * S, &j, S);
    } else {
      std::memcpy(payload + q * S, c.b + j * c.b_step, S);
    }
  }
}

using ScatterFn = void (*)(const AtCall&, std::int64_t, std::int64_t, int, std::int64_t*,
                           std::int64_t*, unsigned char*);

ScatterFn scatter_for(std::size_t size, bool with_j) {
  if (with_j) return &scatter<sizeof(std::int64_t), true>;
  switch (size) {
    case 1:
      return &scatter<1, false>;
    case 2:
      return &scatter<2, false>;
    case 4:
      return &scatter<4, false>;
    case 8:
      return &scatter<8, false>;
    default:
      return &scatter<16, false>;  // complex128, the largest dtype
  }
}

void ordered_buckets(const AtCall& c, const Executor& ex, std::int64_t hi) {
  // Buckets of 2^shift rows: a few per thread (few write streams in the scatter), more when a
  // bucket's rows would not stay in a core's cache, at most kAtBuckets. The result does not depend
  // on the count: every row's updates stay in one bucket, in order.
  const std::int64_t row_bytes =
      std::max<std::int64_t>(std::abs(c.a_step), static_cast<std::int64_t>(itemsize(c.dtype)));
  const std::int64_t want = std::min(
      kAtBuckets,
      std::max(ex.threads() * kChunksPerThread, ceil_div((hi + 1) * row_bytes, kAtBucketBytes)));
  int shift = 0;
  while ((hi >> shift) + 1 > want) ++shift;
  const std::int64_t nb = (hi >> shift) + 1;
  if (nb < 2) return run_at_serial(c);  // one bucket: nothing to spread
  const bool one_d = c.rest.empty();
  // 1-d a with a broadcast b (b_step 0): the sorted updates all read the same b element.
  const bool carry_b = one_d && c.b_step != 0;
  const std::size_t psz = one_d ? itemsize(c.dtype) : sizeof(std::int64_t);
  const ScatterFn scat = scatter_for(psz, !one_d);
  const std::int64_t batch = std::min(c.m, kAtBatch);
  const std::unique_ptr<std::int64_t[]> sidx(new std::int64_t[batch]);
  const std::unique_ptr<unsigned char[]> payload(
      new unsigned char[(carry_b || !one_d) ? batch * psz : 0]);
  // counts[p][k] of chunk p and bucket k, rows padded to a cache line; start[k] of bucket k.
  const std::int64_t row = round_up(nb, 8);
  const std::int64_t nchunks = ceil_div(batch, kAtChunk);
  std::vector<std::int64_t> counts(static_cast<std::size_t>(nchunks * row));
  std::vector<std::int64_t> start(static_cast<std::size_t>(nb + 1));

  // Batches of updates one after the other: each applies its updates in order before the next.
  for (std::int64_t j0 = 0; j0 < c.m; j0 += batch) {
    const Chunks ch{std::min(batch, c.m - j0), kAtChunk};
    const std::int64_t p = ch.count();
    ex.run(p, [&](std::int64_t t) {
      std::int64_t* cnt = counts.data() + t * row;
      std::fill(cnt, cnt + nb, 0);
      for (std::int64_t j = j0 + ch.begin(t); j < j0 + ch.end(t); ++j) ++cnt[c.idx[j] >> shift];
    });
    // Stable: bucket by bucket, chunks in order, updates in order within a chunk.
    std::int64_t q = 0;
    for (std::int64_t k = 0; k < nb; ++k) {
      start[k] = q;
      for (std::int64_t t = 0; t < p; ++t) {
        const std::int64_t n = counts[t * row + k];
        counts[t * row + k] = q;
        q += n;
      }
    }
    start[nb] = q;
    ex.run(p, [&](std::int64_t t) {
      if (!carry_b && one_d) {  // only the indices move
        std::int64_t* pos = counts.data() + t * row;
        for (std::int64_t j = j0 + ch.begin(t); j < j0 + ch.end(t); ++j) {
          sidx[pos[c.idx[j] >> shift]++] = c.idx[j];
        }
        return;
      }
      scat(c, j0 + ch.begin(t), j0 + ch.end(t), shift, counts.data() + t * row, sidx.get(),
           payload.get());
    });
    ex.run(nb, [&](std::int64_t k) {
      const std::int64_t s0 = start[k], s1 = start[k + 1];
      if (s0 == s1) return;
      if (one_d) {
        const char* b = carry_b ? reinterpret_cast<const char*>(payload.get()) + s0 * psz : c.b;
        return c.loop->at(c.a, c.a_step, sidx.get() + s0, s1 - s0, b,
                          carry_b ? static_cast<std::int64_t>(psz) : 0, c.loop->data);
      }
      const std::int64_t inner = shape_size(c.rest);
      for (std::int64_t s = s0; s < s1; ++s) {
        std::int64_t j;
        std::memcpy(&j, payload.get() + s * psz, sizeof j);
        update_rest(c, sidx[s], j, 0, inner);
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
  const std::int64_t hi = max_index(c, ex);
  if (c.rest.empty() && c.loop->at_atomic && hi + 1 >= kAtomicMinRows) {
    return atomic_updates(c, ex);
  }
  ordered_buckets(c, ex, hi);
}

}  // namespace loom::backend::tbb_backend
