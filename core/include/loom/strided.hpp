// N-operand strided iteration over a broadcast shape, in C order with adjacent dims coalesced:
// the one place that walks memory for the host backends, casts and copies.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "loom/array.hpp"

namespace loom {

struct StridedIter {
  Shape shape;                 // at least one dim; coalesced
  SmallVec<char*, 4> base;     // one pointer per operand
  SmallVec<Shape, 4> strides;  // strides[operand][dim], in bytes

  // Operands must already have `shape` (broadcast views); a 0-d shape iterates once.
  static StridedIter make(std::span<const Array> operands, const Shape& shape);
  static StridedIter make(std::span<char* const> base, std::span<const Shape> strides,
                          const Shape& shape);
  int nargs() const { return static_cast<int>(base.size()); }
  std::int64_t size() const { return shape_size(shape); }
  std::int64_t inner() const { return shape.back(); }

  // f(char** ptrs, std::int64_t count, const std::int64_t* steps) for every run of the innermost
  // dimension that falls in the flat C-order range [begin, end).
  template <class F>
  void for_each_run(std::int64_t begin, std::int64_t end, F&& f) const;
};

// dst[...] = cast(src[...]) elementwise on the host; src is broadcast to dst's shape.
void copy_cast(const Array& src, const Array& dst);
// dst[...] = src[...] where mask[...] is true (all broadcast to dst's shape), casting src.
void copy_where(const Array& src, const Array& dst, const Array& mask);

template <class F>
void StridedIter::for_each_run(std::int64_t begin, std::int64_t end, F&& f) const {
  const int nd = static_cast<int>(shape.size());
  const int na = nargs();
  if (begin >= end) return;
  // Fixed-size state: this runs on every call, and small calls must not touch the heap.
  constexpr int kMaxArgs = 32, kMaxDims = 64;
  if (na > kMaxArgs || nd > kMaxDims) {
    throw ValueError("a call with " + std::to_string(na) + " operands of " + std::to_string(nd) +
                     " dimensions: loom's loops take at most " + std::to_string(kMaxArgs) +
                     " operands and " + std::to_string(kMaxDims) + " dimensions");
  }
  std::int64_t idx[kMaxDims];
  char* ptrs[kMaxArgs];
  std::int64_t steps[kMaxArgs];
  std::int64_t rem = begin;
  for (int k = nd - 1; k >= 0; --k) {
    idx[k] = shape[k] ? rem % shape[k] : 0;
    rem = shape[k] ? rem / shape[k] : 0;
  }
  for (int a = 0; a < na; ++a) {
    ptrs[a] = base[a];
    steps[a] = strides[a][nd - 1];
    for (int k = 0; k < nd; ++k) ptrs[a] += idx[k] * strides[a][k];
  }
  std::int64_t pos = begin;
  const std::int64_t n_in = shape[nd - 1];
  while (pos < end) {
    const std::int64_t count = std::min(n_in - idx[nd - 1], end - pos);
    f(static_cast<char**>(ptrs), count, static_cast<const std::int64_t*>(steps));
    pos += count;
    if (pos >= end) break;
    // Advance to the start of the next row: carry through the outer dims.
    for (int a = 0; a < na; ++a) ptrs[a] += count * steps[a];
    idx[nd - 1] += count;
    for (int k = nd - 1; k > 0 && idx[k] == shape[k]; --k) {
      idx[k] = 0;
      ++idx[k - 1];
      for (int a = 0; a < na; ++a) ptrs[a] += strides[a][k - 1] - shape[k] * strides[a][k];
    }
  }
}

}  // namespace loom
