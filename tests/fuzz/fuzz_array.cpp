// Fuzz target: array creation and view arithmetic with hostile int64 values (issue 12). The bytes
// pick a creation (empty, zeros, arange, linspace, wrap over a small buffer) with arbitrary shapes,
// then a sequence of views (reshape with -1, slice with any start/stop/step, broadcast_to,
// transpose, index). The only errors allowed are ShapeError and ValueError; after every step the
// array must keep loom's invariants, checked here in 128-bit arithmetic: extents >= 0, size() is
// the product of the shape, the bytes the view can touch lie inside its buffer, byte_extent()
// says which, and a slice has Python's length. Small arrays are read whole (ASan checks the reads).
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <vector>

#include "fuzz_common.hpp"
#include "loom/array.hpp"
#include "loom/shape_check.hpp"

namespace {

using loom::Array;
using loom::DType;
using loom::Shape;
using loom::fuzz::fail;
using i128 = __int128;

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
constexpr i128 kMaxBytes = PTRDIFF_MAX;
constexpr std::int64_t kReadLimit = 4096;      // elements read back whole
constexpr std::int64_t kAllocLimit = 1 << 20;  // bytes an operation may allocate

alignas(64) unsigned char g_memory[4096];  // what wrap views

constexpr DType kTypes[] = {DType::bool_, DType::int8,    DType::uint16,  DType::int32,
                            DType::int64, DType::float32, DType::float64, DType::complex128};

// An int64 a hostile user might pass: small, at a power of two, at the limits, or raw bytes.
std::int64_t any_i64(loom::fuzz::Bytes& b) {
  static constexpr std::int64_t kEdges[] = {0,
                                            1,
                                            -1,
                                            2,
                                            kMax,
                                            kMin,
                                            -kMax,
                                            std::int64_t{1} << 31,
                                            std::int64_t{1} << 32,
                                            std::int64_t{1} << 61,
                                            std::int64_t{1} << 62,
                                            0x5555555555555556,
                                            0x4000000000000001,
                                            kMax / 2 + 1,
                                            kMax / 8 + 1};
  switch (b.pick(4)) {
    case 0:
      return b.pick(16) - 4;
    case 1:
      return kEdges[b.pick(std::size(kEdges))];
    case 2: {
      const int sh = b.pick(63);
      return (std::int64_t{1} << sh) + (b.pick(5) - 2);
    }
    default: {
      std::uint64_t u = 0;
      for (int k = 0; k < 8; ++k) u = u << 8 | b.u8();
      return static_cast<std::int64_t>(u);
    }
  }
}

Shape any_shape(loom::fuzz::Bytes& b, bool small) {
  Shape s;
  for (int k = b.pick(5); k > 0; --k) s.push_back(small ? b.pick(6) : any_i64(b));
  return s;
}

// The bytes [lo, hi) that the view reaches from its buffer's start, in 128 bits, or nothing for a
// zero-size view; checks every invariant against the buffer.
void check(const Array& a, const char* after) {
  const std::string where = std::string(" after ") + after + ": " + a.str();
  i128 size = 1;
  for (auto d : a.shape()) {
    if (d < 0) fail("negative extent" + where);
    size *= d;
    if (size > kMax) size = kMax + i128{1};  // saturate: stays > kMax
  }
  if (size > kMax) fail("size past int64" + where);
  if (a.size() != static_cast<std::int64_t>(size)) fail("size() is not the product" + where);
  if (size == 0) return;
  i128 lo = a.offset(), hi = a.offset();
  for (int k = 0; k < a.ndim(); ++k) {
    const i128 span = i128{a.shape()[k] - 1} * a.strides()[k];
    (span < 0 ? lo : hi) += span;
  }
  hi += static_cast<i128>(a.itemsize());
  if (lo < 0 || hi > static_cast<i128>(a.buffer()->bytes()))
    fail("view outside its buffer" + where);
  const auto [elo, ehi] = a.byte_extent();
  if (elo != lo || ehi != hi) fail("byte_extent() is not the reach" + where);
  if (size <= kReadLimit) (void)a.copy();  // every element read: ASan checks the reads
}

// Python's slice length (PySlice_AdjustIndices), in 128 bits.
std::int64_t py_slice_len(std::int64_t n, i128 start, i128 stop, i128 step) {
  if (step < -kMax) step = -kMax;
  auto adj = [&](i128 v) {
    if (v < 0) {
      v += n;
      if (v < 0) v = step < 0 ? -1 : 0;
    } else if (v >= n) {
      v = step < 0 ? n - 1 : n;
    }
    return v;
  };
  start = adj(start);
  stop = adj(stop);
  if (step < 0) return stop < start ? static_cast<std::int64_t>((start - stop - 1) / -step + 1) : 0;
  return start < stop ? static_cast<std::int64_t>((stop - start - 1) / step + 1) : 0;
}

// NumPy's rule, written out: no negative extent, and the nonzero extents times the itemsize fit in
// PTRDIFF_MAX bytes (even beside a 0).
bool representable(const Shape& shape, std::size_t itemsize) {
  i128 bytes = itemsize;
  for (auto d : shape) {
    if (d < 0) return false;
    if (d == 0) continue;
    bytes *= d;
    if (bytes > kMaxBytes) return false;
  }
  return true;
}
bool allocatable(const Shape& shape, std::size_t itemsize) {  // representable and small
  i128 bytes = itemsize;
  for (auto d : shape) bytes = d == 0 ? 0 : std::min<i128>(bytes * d, kAllocLimit + 1);
  return bytes <= kAllocLimit;
}

// A creation op. Sizes NumPy refuses must be refused; sizes that fit but exceed kAllocLimit are
// only checked (checked_nbytes), not allocated.
Array create(loom::fuzz::Bytes& b) {
  const DType t = kTypes[b.pick(std::size(kTypes))];
  switch (b.pick(5)) {
    case 0:
    case 1: {
      const Shape shape = any_shape(b, b.flag());
      const bool ok = representable(shape, loom::itemsize(t));
      if (ok && !allocatable(shape, loom::itemsize(t))) {
        (void)loom::checked_nbytes(shape, loom::itemsize(t), "fuzz");  // must not throw
        return loom::zeros({2, 3}, t);
      }
      Array a = b.flag() ? loom::empty(shape, t) : loom::zeros(shape, t);
      if (!ok) fail("accepted a shape past PTRDIFF_MAX bytes: " + loom::shape_str(shape));
      if (a.shape() != shape) fail("created shape differs");
      return a;
    }
    case 2: {
      const std::int64_t stop = any_i64(b);
      if (stop > kAllocLimit / 8) {
        if (stop <= kMax / 8) return loom::arange(3);
        (void)loom::arange(stop);  // must throw ShapeError
        fail("arange(" + std::to_string(stop) + ") accepted");
      }
      const Array a = loom::arange(stop);
      if (a.size() != std::max<std::int64_t>(stop, 0)) fail("arange size");
      return a;
    }
    case 3: {
      // Doubles from int64s: NaN, inf, huge and tiny quotients come up through the edges.
      auto d = [&] {
        const std::int64_t v = any_i64(b);
        switch (b.pick(4)) {
          case 0:
            return static_cast<double>(v);
          case 1:
            return std::ldexp(static_cast<double>(v % 1000), b.pick(2100) - 1050);
          case 2: {
            double x;
            std::memcpy(&x, &v, sizeof x);
            return x;
          }
          default:
            return static_cast<double>(b.pick(9) - 4) / 2;
        }
      };
      const double start = d(), stop = d(), step = d();
      const double delta = stop - start, q = delta / step;
      const std::string call = "arange(" + std::to_string(start) + ", " + std::to_string(stop) +
                               ", " + std::to_string(step) + ")";
      if (step == 0 || std::isnan(q) || !(std::fabs(q) < 0x1p63)) {  // NumPy: ValueError
        try {
          (void)loom::arange(start, stop, step);
        } catch (const loom::ValueError&) {
          return loom::arange(2);
        }
        fail(call + " did not raise ValueError");
      }
      const std::int64_t want = q == 0 && delta != 0 && !std::signbit(q)
                                    ? 1
                                    : static_cast<std::int64_t>(std::max(0.0, std::ceil(q)));
      if (want > kMax / 8) {  // too big: ShapeError, caught by the caller
        (void)loom::arange(start, stop, step);
        fail(call + " accepted");
      }
      if (want > kAllocLimit / 8) return loom::arange(2);
      const Array a = loom::arange(start, stop, step);
      if (a.size() != want) fail(call + " has " + std::to_string(a.size()) + " elements");
      return a;
    }
    default: {
      // wrap over g_memory: ptr at some element, any shape and strides. Only a view that our own
      // arithmetic places inside g_memory is read.
      const std::int64_t at = b.pick(static_cast<int>(sizeof g_memory) + 1);
      Shape shape = any_shape(b, b.flag()), strides;
      if (b.flag()) {
        for (std::size_t k = 0; k < shape.size(); ++k) {
          strides.push_back(b.flag() ? any_i64(b) : (b.pick(9) - 4) * 8);
        }
      }
      void* p = b.pick(8) == 0 ? nullptr : g_memory + at;
      const Array a = loom::wrap(p, shape, t, strides);
      if (!representable(shape, loom::itemsize(t))) fail("wrap accepted a huge shape");
      if (a.size() > 0 && p == nullptr) fail("wrap accepted nullptr");
      if (a.size() > 0 && a.data() != p) fail("wrap: element 0 is not the pointer");
      // The buffer is exactly the vouched range; read it only when it lies in g_memory.
      const auto base = reinterpret_cast<std::uintptr_t>(a.buffer()->data());
      const auto mem = reinterpret_cast<std::uintptr_t>(g_memory);
      if (a.size() > 0 && base >= mem && base + a.buffer()->bytes() <= mem + sizeof g_memory) {
        check(a, "wrap");
      }
      return loom::zeros({4}, t);  // views of memory we do not own go no further
    }
  }
}

Array view(const Array& a, loom::fuzz::Bytes& b, const char*& what) {
  switch (b.pick(5)) {
    case 0: {
      what = "reshape";
      Shape shape = any_shape(b, b.flag());
      if (!shape.empty() && b.flag()) shape[b.pick(static_cast<int>(shape.size()))] = -1;
      const bool big = static_cast<i128>(a.size()) * a.itemsize() > kAllocLimit;
      if (!a.is_c_contiguous() && big) return a;  // would copy too much
      const Array r = a.reshape(shape);
      if (r.size() != a.size()) fail("reshape changed the size");
      return r;
    }
    case 1: {
      what = "slice";
      if (a.ndim() == 0) return a;
      const int axis = b.pick(a.ndim() * 2) - a.ndim();
      const std::int64_t start = any_i64(b), stop = any_i64(b), step = any_i64(b);
      const Array r = a.slice(axis, start, stop, step);
      const int ax = axis < 0 ? axis + a.ndim() : axis;
      if (r.shape()[ax] != py_slice_len(a.shape()[ax], start, stop, step)) {
        fail("slice length differs from Python's: [" + std::to_string(start) + ":" +
             std::to_string(stop) + ":" + std::to_string(step) + "] of " +
             std::to_string(a.shape()[ax]));
      }
      return r;
    }
    case 2: {
      what = "broadcast_to";
      Shape to;
      for (int k = b.pick(3); k > 0; --k) to.push_back(b.flag() ? any_i64(b) : b.pick(4));
      for (auto d : a.shape()) to.push_back(d == 1 && b.flag() ? any_i64(b) : d);
      return a.broadcast_to(to);
    }
    case 3: {
      what = "transpose";
      if (b.flag()) return a.transpose();
      std::vector<int> axes(a.ndim());
      std::iota(axes.begin(), axes.end(), 0);
      for (int k = a.ndim() - 1; k > 0; --k) std::swap(axes[k], axes[b.pick(k + 1)]);
      if (!axes.empty() && b.pick(8) == 0) axes[0] = b.pick(20) - 10;  // bad axes: ValueError
      return a.transpose(axes);
    }
    default: {
      what = "index";
      if (a.ndim() == 0) return a;
      return a.index(b.pick(a.ndim()), any_i64(b));
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  loom::fuzz::Bytes b(data, size);
  Array a;
  try {
    a = create(b);
  } catch (const loom::ShapeError&) {
    return 0;
  } catch (const loom::ValueError&) {
    return 0;
  } catch (const std::exception& e) {
    fail(std::string("creation threw ") + e.what());
  }
  check(a, "create");
  while (b.left() > 0) {
    const char* what = "";
    try {
      a = view(a, b, what);
    } catch (const loom::ShapeError&) {
      continue;
    } catch (const loom::ValueError&) {
      continue;
    } catch (const std::exception& e) {
      fail(std::string(what) + " threw " + e.what());
    }
    check(a, what);
  }
  return 0;
}
