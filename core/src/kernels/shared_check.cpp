// The race checker of checked host launches: a shadow of the block's shared memory, one cell a
// byte. Between two barriers the host runs a block's threads one after another (a thread runs
// until it waits, then the next), so the accesses of one interval come in an order in which each
// thread's run is contiguous, and a conflict between two threads' runs is exact:
//
// - a View access of shared memory (view.hpp) is a touch of the running thread's run (segment);
//   a View returns a reference, so whether the thread read or wrote is told by the bytes: a run
//   that changed them wrote them (compared when the run ends), one that left them read them;
// - at the end of a run, its reads and writes meet the interval's earlier ones: a write after
//   another thread's read or write, or a read after another thread's write, is a race;
// - a read of bytes no thread of the block wrote is reported when the interval ends, unless a
//   later thread of the interval wrote them (then it was a race, reported as such);
// - an atomic (atomic.hpp) is neither a read nor a write for races, but reads the element: on
//   bytes nothing wrote it is an uninitialised read, and it initialises them;
// - a barrier ends the interval; a completed syncwarp orders the accesses of the lanes of its
//   mask before it with theirs after it.
//
// The block's shared memory is filled with kFill when it begins, so that a first write is seen.
#include "kernels/shared_check.hpp"

#include <cstring>
#include <string>
#include <vector>

#include "loom/atomic.hpp"
#include "loom/kernel_host.hpp"

namespace loom::detail {

namespace {

constexpr unsigned char kFill = 0xA5;  // never-written shared memory (an unlikely value)

struct Access {
  std::int32_t rank = -1;   // none
  std::uint32_t wsync = 0;  // the accessor's warp's syncwarp count at the time
};

struct Cell {                        // one byte of the block's shared memory
  std::uint32_t interval = 0;        // the interval the accesses below belong to
  std::uint32_t written = 0;         // the block (serial) in which some thread wrote it; 0: none
  Access writer, reader, reader2;    // two readers of different threads find any other reader
  std::uint32_t seg = 0, touch = 0;  // the current run's touch of it (seg: that run's serial)
};

struct Touch {  // an element the current run accessed
  std::size_t offset = 0, size = 0;
  unsigned char snap[32] = {};  // its bytes when first touched (or after the run's last atomic)
  int plain = 0, atomics = 0;   // View accesses, atomics (each atomic's address is an access)
  bool wrote = false;           // changed before an atomic: a plain write
  char elem = 'v';
  int ndim = 0;
  std::int64_t index[3] = {};
};

struct Pending {  // a read of unwritten bytes, reported when the interval ends
  Touch touch;
  std::int32_t rank;
};

}  // namespace

struct SharedShadow {
  SharedCheckRecord* record = nullptr;
  unsigned char* mem = nullptr;
  std::size_t bytes = 0;
  Dim3 dim;
  std::vector<Cell> cells;
  unsigned block[3] = {};
  std::uint32_t block_serial = 0, interval = 0, seg = 1;
  std::uint32_t barriers_seen = 0;  // the fibers' barrier count this interval began at
  bool after_barrier = false;
  // The current run: its thread, and its warp's syncwarp count and last mask when it began.
  std::int32_t rank = -1;
  std::uint32_t wsync = 0, wmask = 0;
  std::vector<Touch> touches;
  std::vector<Pending> pending;
  SharedShadow* prev = nullptr;  // the OS thread's shadow before this one
};

namespace {

thread_local SharedShadow* current = nullptr;  // this OS thread's open shadow, for atomics

bool found(const SharedShadow* s) { return s->record->flag.load(std::memory_order_relaxed) != 0; }

void to_coords(const Dim3& d, std::int32_t rank, unsigned (&out)[3]) {
  const auto r = static_cast<unsigned>(rank);
  out[0] = r % d.x;
  out[1] = r / d.x % d.y;
  out[2] = r / (d.x * d.y);
}

void report(SharedShadow* s, SharedCheckRecord::Kind kind, std::int32_t rank, std::int32_t other,
            const Touch& t) {
  unsigned expected = 0;
  SharedCheckRecord& r = *s->record;
  if (!r.flag.compare_exchange_strong(expected, 1u)) return;
  r.kind = kind;
  for (int k = 0; k < 3; ++k) r.block[k] = s->block[k];
  to_coords(s->dim, rank, r.thread);
  if (other >= 0) to_coords(s->dim, other, r.other);
  r.after_barrier = s->after_barrier;
  r.offset = t.offset;
  r.size = t.size;
  r.elem = t.elem;
  r.ndim = t.ndim;
  for (int k = 0; k < 3; ++k) r.index[k] = t.index[k];
}

// Whether access a (of another thread) is ordered before the current run by a syncwarp that
// completed in between and named both lanes.
bool ordered(const SharedShadow* s, const Access& a) {
  if (a.rank / kWarpSize != s->rank / kWarpSize || a.wsync == s->wsync) return false;
  return (s->wmask >> (a.rank % kWarpSize) & 1) && (s->wmask >> (s->rank % kWarpSize) & 1);
}
bool conflicts(const SharedShadow* s, const Access& a) {
  return a.rank >= 0 && a.rank != s->rank && !ordered(s, a);
}

// The current run's touch t meets the interval's earlier accesses.
void classify(SharedShadow* s, const Touch& t) {
  using K = SharedCheckRecord::Kind;
  if (t.plain <= t.atomics) return;  // only atomics (each brought its own access)
  const bool write = t.wrote || std::memcmp(s->mem + t.offset, t.snap, t.size) != 0;
  const Access me{s->rank, s->wsync};
  bool unwritten = false;
  for (std::size_t b = t.offset; b < t.offset + t.size; ++b) {
    Cell& e = s->cells[b];
    if (e.interval != s->interval) e.interval = s->interval, e.writer = e.reader = e.reader2 = {};
    if (write) {
      const Access* o = conflicts(s, e.writer)    ? &e.writer
                        : conflicts(s, e.reader)  ? &e.reader
                        : conflicts(s, e.reader2) ? &e.reader2
                                                  : nullptr;
      if (o) return report(s, o == &e.writer ? K::write_write : K::read_write, s->rank, o->rank, t);
      e.writer = me;
      e.written = s->block_serial;
    } else {
      if (conflicts(s, e.writer)) return report(s, K::write_read, s->rank, e.writer.rank, t);
      unwritten = unwritten || e.written != s->block_serial;
      if (e.reader.rank < 0 || e.reader.rank == s->rank) {
        e.reader = me;
      } else {
        e.reader2 = me;
      }
    }
  }
  if (unwritten) s->pending.push_back({t, s->rank});
}

void end_run(SharedShadow* s) {
  if (!found(s)) {
    for (const Touch& t : s->touches) classify(s, t);
  }
  s->touches.clear();
  ++s->seg;
}

// The interval ends: its reads of unwritten bytes that no other thread wrote in it afterwards
// (that was a race, found when the write's run ended) are uninitialised reads.
void end_interval(SharedShadow* s) {
  end_run(s);
  for (const Pending& p : s->pending) {
    if (found(s)) break;
    bool other_wrote = false;
    for (std::size_t b = p.touch.offset; b < p.touch.offset + p.touch.size; ++b) {
      const Cell& e = s->cells[b];
      other_wrote = other_wrote || (e.interval == s->interval && e.writer.rank >= 0 &&
                                    e.writer.rank != p.rank && e.written == s->block_serial);
    }
    if (!other_wrote) report(s, SharedCheckRecord::Kind::uninit, p.rank, -1, p.touch);
  }
  s->pending.clear();
  ++s->interval;
  s->after_barrier = true;
}

// The touch of the current run for the element at off, or a new one.
Touch& touch_at(SharedShadow* s, std::size_t off, std::size_t size, const void* now) {
  Cell& e = s->cells[off];
  if (e.seg == s->seg && e.touch < s->touches.size()) {
    Touch& t = s->touches[e.touch];
    if (t.offset == off && t.size == size) return t;
  }
  Touch t;
  t.offset = off;
  t.size = size;
  std::memcpy(t.snap, now, size);
  const auto idx = static_cast<std::uint32_t>(s->touches.size());
  for (std::size_t b = off; b < off + size; ++b) s->cells[b].seg = s->seg, s->cells[b].touch = idx;
  s->touches.push_back(t);
  return s->touches.back();
}

}  // namespace

SharedShadow* shared_check_open(SharedCheckRecord* record, std::size_t shared_bytes,
                                const Dim3& threads) {
  auto* s = new SharedShadow;
  s->record = record;
  s->mem = static_cast<unsigned char*>(host_checked_shared_memory(shared_bytes));
  s->bytes = shared_bytes;
  s->dim = threads;
  s->cells.resize(shared_bytes);
  s->prev = current;
  current = s;
  return s;
}

void shared_check_close(SharedShadow* s) noexcept {
  current = s->prev;
  delete s;
}

void* shared_check_memory(SharedShadow* s) { return s->mem; }

void shared_check_block_begin(SharedShadow* s, const unsigned (&block)[3]) {
  for (int k = 0; k < 3; ++k) s->block[k] = block[k];
  ++s->block_serial;
  ++s->interval;
  ++s->seg;
  s->touches.clear();
  s->pending.clear();
  s->barriers_seen = 0;
  s->after_barrier = false;
  s->rank = -1;
  s->wsync = s->wmask = 0;
  std::memset(s->mem, kFill, s->bytes);
}

void shared_check_block_end(SharedShadow* s) { end_interval(s); }

void shared_check_barrier(SharedShadow* s) { end_interval(s); }

namespace {

// A View's access of the block's shared memory at p (size bytes, kind elem_kind, index ix of an
// ndim-d View), in the current run of the accessing thread.
void touch(ViewCheck* c, const void* p, std::size_t size, char kind, const std::int64_t* ix,
           int ndim) {
  SharedShadow* s = c->shadow;
  if (found(s)) return;
  // Fibers: a barrier passed since the last access ends the interval.
  if (c->sync) {
    const std::uint32_t n = block_barriers(c->sync);
    if (n != s->barriers_seen) {
      end_interval(s);
      s->barriers_seen = n;
    }
  }
  const auto rank = static_cast<std::int32_t>(
      (std::int64_t{c->thread[2]} * s->dim.y + c->thread[1]) * s->dim.x + c->thread[0]);
  std::uint32_t mask = 0;
  const std::uint32_t wsync = c->sync ? warp_syncs(c->sync, rank / kWarpSize, &mask) : 0;
  if (rank != s->rank || wsync != s->wsync) {  // another thread's run, or past a syncwarp
    end_run(s);
    s->rank = rank;
    s->wsync = wsync;
    s->wmask = mask;
  }
  const auto off = static_cast<std::size_t>(static_cast<const unsigned char*>(p) - s->mem);
  if (off + size > s->bytes) return;  // the View runs past the shared memory: its bounds say so
  Touch& t = touch_at(s, off, size, p);
  if (t.plain++ == 0 && t.atomics == 0) {
    t.elem = kind;
    t.ndim = ndim;
    for (int k = 0; k < ndim && k < 3; ++k) t.index[k] = ix[k];
  }
}

}  // namespace

void view_check_touch(ViewCheck* c, const void* p, std::int64_t i0, std::int64_t i1,
                      std::int64_t i2, unsigned code) {
  if (!c->shadow) return;
  const auto a = reinterpret_cast<std::uintptr_t>(p),
             sh = reinterpret_cast<std::uintptr_t>(c->shared_mem);
  if (a - sh >= c->shared_bytes) return;
  const std::int64_t ix[] = {i0, i1, i2};
  touch(c, p, code >> 8 & 0xff, static_cast<char>(code >> 16 & 0xff), ix,
        static_cast<int>(code & 0xff));
}

void shared_check_atomic(const void* p, std::uint64_t old_bits, std::size_t size) {
  const void* old = &old_bits;  // little-endian: the replaced value's bytes come first
  SharedShadow* s = current;
  if (!s || found(s)) return;
  const auto off = static_cast<std::size_t>(static_cast<const unsigned char*>(p) - s->mem);
  if (off >= s->bytes || off + size > s->bytes) return;  // another launch's memory
  if (s->rank < 0) {  // through a raw pointer before any View access: no thread to name
    for (std::size_t b = off; b < off + size; ++b) s->cells[b].written = s->block_serial;
    return;
  }
  const bool fresh = !(s->cells[off].seg == s->seg && s->cells[off].touch < s->touches.size());
  Touch& t = touch_at(s, off, size, old);
  if (fresh && t.plain == 0) t.ndim = -1;                   // no View access named it
  if (std::memcmp(old, t.snap, size) != 0) t.wrote = true;  // a plain write before the atomic
  ++t.atomics;
  std::memcpy(t.snap, p, size);  // the atomic's own change is no plain write
  bool unwritten = false;
  for (std::size_t b = off; b < off + size; ++b) {
    unwritten = unwritten || s->cells[b].written != s->block_serial;
    s->cells[b].written = s->block_serial;
  }
  if (unwritten && !t.wrote) report(s, SharedCheckRecord::Kind::uninit, s->rank, -1, t);
}

namespace {

std::string dim_text(const unsigned (&d)[3]) {
  std::string s = "(";
  s += std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " + std::to_string(d[2]) + ")";
  return s;
}

std::string element_text(const SharedCheckRecord& r) {
  std::string s;
  if (r.ndim == 1) {
    s = "element " + std::to_string(r.index[0]) + " of ";
  } else if (r.ndim > 1) {
    s = "element (";
    for (int k = 0; k < r.ndim; ++k) s += (k ? ", " : "") + std::to_string(r.index[k]);
    s += ") of ";
  } else if (r.ndim == 0) {
    s = "the element of ";
  }
  const std::string bits = std::to_string(8 * r.size);
  const std::string type = r.elem == 'f'   ? "float" + bits
                           : r.elem == 'i' ? "int" + bits
                           : r.elem == 'u' ? "uint" + bits
                           : r.elem == 'b' ? "bool"
                                           : std::to_string(r.size) + "-byte";
  if (r.ndim < 0) {
    s += "the block's shared memory";
  } else {
    s += (type[0] == 'i' ? "an " : "a ") + type + " View of the block's shared memory";
  }
  return s + " (bytes " + std::to_string(r.offset) + "-" + std::to_string(r.offset + r.size - 1) +
         ")";
}

}  // namespace

std::string shared_check_error(const KernelCall& c, const SharedCheckRecord& r) {
  using K = SharedCheckRecord::Kind;
  const std::string head = "kernel '" + c.name + "': ";
  const std::string me = "thread " + dim_text(r.thread), where = " in block " + dim_text(r.block);
  if (r.kind == K::uninit) {
    return head + "read of uninitialised shared memory" + where + ": " + me + " read " +
           element_text(r) +
           ", which no thread of the block had written (a block's shared memory starts "
           "undefined, on a GPU as here)";
  }
  const std::string verb = r.kind == K::write_read ? " read " : " wrote ";
  const std::string theirs = r.kind == K::write_write  ? " also wrote"
                             : r.kind == K::read_write ? " read"
                                                       : " wrote";
  return head + "shared memory race" + where + ": " + me + verb + element_text(r) +
         ", which thread " + dim_text(r.other) + theirs + " since " +
         (r.after_barrier ? "the last barrier" : "the block began") +
         " (on a GPU the result depends on which runs first: put syncthreads() between the two "
         "accesses, or use an atomic)";
}

}  // namespace loom::detail
