// Checked arithmetic for shapes, strides, sizes and byte counts (issue 12): every product or sum
// that sizes memory goes through these, so that a hostile shape is a ShapeError naming its values
// instead of a signed overflow and a view past its buffer (docs/reliability.md, "Shapes and
// sizes").
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <utility>

namespace loom {

class Array;

// a * b and a + b in int64; false where the exact result does not fit.
inline bool mul_fits(std::int64_t a, std::int64_t b, std::int64_t& out) {
  return !__builtin_mul_overflow(a, b, &out);
}
inline bool add_fits(std::int64_t a, std::int64_t b, std::int64_t& out) {
  return !__builtin_add_overflow(a, b, &out);
}

// The byte count of a C-contiguous array of `shape` with `itemsize`-byte items (0 for a zero-size
// shape). NumPy's rule: a negative extent is refused (E-SHAPE-NEGATIVE-DIM), and the product of
// the nonzero extents and the itemsize must not exceed PTRDIFF_MAX, even when another extent is 0
// (E-SHAPE-TOO-BIG), so that C strides never overflow either. `what` starts the message.
std::int64_t checked_nbytes(std::span<const std::int64_t> shape, std::size_t itemsize,
                            std::string_view what);

// The byte range [lo, hi) that a view of `shape` and byte `strides` can touch, relative to its
// element 0 ({0, 0} for a zero-size view). ShapeError where a bound does not fit in int64
// (E-SHAPE-STRIDE-EXTENT).
std::pair<std::int64_t, std::int64_t> checked_extent(std::span<const std::int64_t> shape,
                                                     std::span<const std::int64_t> strides,
                                                     std::size_t itemsize, std::string_view what);

// The invariant every Array keeps: its shape passes checked_nbytes (so size() fits in int64), and
// the bytes the view can touch lie inside its buffer (E-SHAPE-VIEW-BOUNDS). Called by Array's
// constructor; the views (slice, reshape, broadcast_to...) keep it by construction.
void check_view(const Array& a);

}  // namespace loom
