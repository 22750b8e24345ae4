// Parallel ufunc.at. Every path gives the same bits on every run and thread count:
//  - reorderable ops on a 1-d a with several updates per row (float or integer add, max, ...):
//    private bins. The updates are cut into parts fixed by the shape; each part folds its updates
//    in order into bins of its own, then every row folds a's value with the parts' bins in part
//    order, as a parallel sum regroups its terms: cpu's bits for integers, for floats the same
//    bits on every run and thread count but not cpu's (docs/methods.md, Determinism);
//  - integer dtypes of reorderable ops (the loop has at_atomic) with fewer updates per row, 1-d a
//    of at least kAtomicMinRows rows: the updates split into chunks, applied with atomics (any
//    order of integer adds, products, max, ... gives the same integers, cpu's);
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
#include <mutex>
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

// Scratch memory kept between calls: a fresh buffer per call would cost a page fault per 4 KiB
// on every call (as much as the sort or the bins themselves). One buffer, the largest asked for,
// is kept in the plugin; a call that finds it taken (a concurrent call) uses one of its own. Not a
// thread_local: a TLS object with a destructor in a dlopen'd plugin left LeakSanitizer reading a
// stale dynamic-TLS entry at exit.
std::mutex g_kept_mutex;
std::unique_ptr<unsigned char[]> g_kept;
std::int64_t g_kept_bytes = 0;

class Scratch {
 public:
  explicit Scratch(std::int64_t n) {
    {
      const std::unique_lock lock(g_kept_mutex, std::try_to_lock);
      if (lock.owns_lock() && g_kept) {
        mem_ = std::move(g_kept);
        bytes_ = g_kept_bytes;
      }
    }
    if (bytes_ < n) {
      mem_.reset(new unsigned char[n]);
      bytes_ = n;
    }
  }
  ~Scratch() {
    const std::lock_guard lock(g_kept_mutex);
    if (!g_kept || g_kept_bytes < bytes_) {
      g_kept = std::move(mem_);
      g_kept_bytes = bytes_;
    }
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  unsigned char* get() const { return mem_.get(); }

 private:
  std::unique_ptr<unsigned char[]> mem_;
  std::int64_t bytes_ = 0;
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
  // At most kAtBatch updates' worth: 8 bytes of index and up to 16 of payload each (24 MiB).
  const Scratch scratch(batch * (8 + psz));
  unsigned char* const mem = scratch.get();
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

// How many parts the private-bins path cuts `c` into, with indices in [0, rows); 0 when it does
// not apply. The shape alone decides.
std::int64_t private_parts(const AtCall& c, std::int64_t rows) {
  if (!c.reorderable || !c.rest.empty() || rows < 1) return 0;
  const auto isz = static_cast<std::int64_t>(itemsize(c.dtype));
  const std::int64_t parts =
      std::min({kAtParts, c.m / (kAtPartPerRow * rows), kAtPartBytes / (rows * (isz + 1))});
  return parts >= 2 ? parts : 0;
}

// Updates [j0, j1) into one part's bins (rows of S bytes) and touched flags, in order: a row's
// first update is copied in, the later ones are gathered kAtPartBlock at a time for the loop's at
// (a row's copy comes before its gathered updates, so each row still sees them in order).
template <std::size_t S>
void fill_part(const AtCall& c, std::int64_t j0, std::int64_t j1, std::int64_t,
               char* __restrict bins, unsigned char* __restrict touched) {
  std::int64_t gi[kAtPartBlock];
  alignas(16) unsigned char gb[kAtPartBlock * S];
  const std::int64_t* __restrict const idx = c.idx;
  const char* const b = c.b;
  const std::int64_t b_step = c.b_step;
  for (std::int64_t s = j0; s < j1; s += kAtPartBlock) {
    const std::int64_t e = std::min(j1, s + kAtPartBlock);
    std::int64_t k = 0;
    for (std::int64_t j = s; j < e; ++j) {
      const std::int64_t i = idx[j];
      if (touched[i]) {
        gi[k] = i;
        std::memcpy(gb + k * S, b + j * b_step, S);
        ++k;
      } else {
        touched[i] = 1;
        std::memcpy(bins + i * S, b + j * b_step, S);
      }
    }
    if (k > 0) {
      c.loop->at(bins, S, gi, k, reinterpret_cast<const char*>(gb), S, c.loop->data);
    }
  }
}

// The same for an op with an identity: the bins start at it, so every update goes to the loop's
// at as it comes (op(identity, b) is b), and the touched flags are set in a pass of their own over
// each block's indices, still in cache.
template <std::size_t S>
void fill_part_identity(const AtCall& c, std::int64_t j0, std::int64_t j1, std::int64_t rows,
                        char* __restrict bins, unsigned char* __restrict touched) {
  for (std::int64_t r = 0; r < rows; ++r) std::memcpy(bins + r * S, c.identity, S);
  const std::int64_t* __restrict const idx = c.idx;
  for (std::int64_t s = j0; s < j1; s += kAtPartBlock) {
    const std::int64_t e = std::min(j1, s + kAtPartBlock);
    c.loop->at(bins, S, idx + s, e - s, c.b + s * c.b_step, c.b_step, c.loop->data);
    for (std::int64_t j = s; j < e; ++j) touched[idx[j]] = 1;
  }
}

using FillFn = void (*)(const AtCall&, std::int64_t, std::int64_t, std::int64_t, char*,
                        unsigned char*);

FillFn fill_for(std::size_t size, bool identity) {
  switch (size) {
    case 1:
      return identity ? &fill_part_identity<1> : &fill_part<1>;
    case 2:
      return identity ? &fill_part_identity<2> : &fill_part<2>;
    case 4:
      return identity ? &fill_part_identity<4> : &fill_part<4>;
    case 8:
      return identity ? &fill_part_identity<8> : &fill_part<8>;
    default:  // complex128, the largest dtype
      return identity ? &fill_part_identity<16> : &fill_part<16>;
  }
}

void private_bins(const AtCall& c, const Executor& ex, std::int64_t rows, std::int64_t parts) {
  const auto isz = static_cast<std::int64_t>(itemsize(c.dtype));
  const Scratch scratch(parts * rows * (isz + 1));
  unsigned char* const mem = scratch.get();
  char* const bins = reinterpret_cast<char*>(mem);
  unsigned char* const touched = mem + parts * rows * isz;
  const FillFn fill = fill_for(static_cast<std::size_t>(isz), c.identity != nullptr);
  ex.run(parts, [&](std::int64_t p) {
    std::memset(touched + p * rows, 0, static_cast<std::size_t>(rows));
    fill(c, c.m * p / parts, c.m * (p + 1) / parts, rows, bins + p * rows * isz,
         touched + p * rows);
  });
  // a[r] = op(a[r], bins_p[r]) for p in order, over each part's runs of touched rows.
  const Chunks ch = balanced_chunks(rows, parts, ex.threads(), kAlign);
  ex.run(ch.count(), [&](std::int64_t t) {
    const std::int64_t end = ch.end(t);
    const std::int64_t steps[3] = {c.a_step, isz, c.a_step};
    for (std::int64_t p = 0; p < parts; ++p) {
      const unsigned char* const tp = touched + p * rows;
      const char* const bp = bins + p * rows * isz;
      for (std::int64_t r = ch.begin(t); r < end;) {
        while (r < end && !tp[r]) ++r;
        std::int64_t r1 = r;
        while (r1 < end && tp[r1]) ++r1;
        if (r1 > r) {
          char* args[3] = {c.a + r * c.a_step, const_cast<char*>(bp + r * isz), c.a + r * c.a_step};
          std::int64_t n = r1 - r;
          c.loop->host(args, &n, steps, c.loop->data);
        }
        r = r1;
      }
    }
  });
}

}  // namespace

std::pair<std::int64_t, std::int64_t> at_index_range(const std::int64_t* idx, std::int64_t m,
                                                     const Executor& ex) {
  if (!ex.parallel() || m < 2 * kAtChunk) return host_index_range(idx, m);
  const Chunks ch{m, std::max(kAtChunk, ceil_div(m, ex.threads() * kChunksPerThread))};
  std::vector<std::pair<std::int64_t, std::int64_t>> part(static_cast<std::size_t>(ch.count()));
  ex.run(ch.count(), [&](std::int64_t i) {
    part[i] = host_index_range(idx + ch.begin(i), ch.end(i) - ch.begin(i));
  });
  std::pair<std::int64_t, std::int64_t> r = part[0];
  for (const auto& [lo, hi] : part) r = {std::min(r.first, lo), std::max(r.second, hi)};
  return r;
}

void run_at_split(const AtCall& c, const Executor& ex) {
  const std::int64_t inner = shape_size(c.rest);  // 1 for a 1-d a
  if (c.m == 0 || inner == 0) return;
  // Private bins whenever the shape asks for them, whatever runs the call (their bits depend on
  // the shape only); for integers they beat atomics, which move a cache line between cores on
  // every update. Atomics for integer updates too few per row for bins. The rows are a's extent
  // (from the core; a caller that leaves it 0 costs a pass over the indices for the largest).
  const bool one_d = c.reorderable && c.rest.empty() && c.m >= 2;
  const std::int64_t hi = c.rows > 0 ? c.rows - 1 : one_d ? max_index(c, ex) : -1;
  const std::int64_t parts = one_d ? private_parts(c, hi + 1) : 0;
  // The atomic and the ordered paths do about twice the serial loop's work (compare-and-swap;
  // sort then apply): with few threads the serial loop is as fast, and gives the same bits.
  const bool split = ex.parallel() && c.m >= 2 && ex.threads() >= kAtMinThreads;
  if (parts > 0) return private_bins(c, ex, hi + 1, parts);
  if (split && c.rest.empty() && c.loop->at_atomic && hi + 1 >= kAtomicMinRows) {
    return atomic_updates(c, ex);
  }
  if (!ex.parallel() || c.m < 2) return run_at_serial(c);
  if (!c.rest.empty() && inner >= kMinChunk) return split_rest(c, ex, inner);
  if (!split) return run_at_serial(c);
  ordered_buckets(c, ex, hi >= 0 ? hi : max_index(c, ex));
}

}  // namespace loom::backend::tbb_backend
