// Checked shape, stride and byte arithmetic (shape_check.hpp).
#include "loom/shape_check.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "loom/array.hpp"

namespace loom {

namespace {

const std::string kMaxBytes = std::to_string(PTRDIFF_MAX);

[[noreturn]] void too_big(std::string_view what, std::span<const std::int64_t> shape,
                          std::size_t itemsize) {
  // NumPy's words (ValueError there), then loom's values.
  throw ShapeError(std::string(what) +
                   ": array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum "
                   "possible size (shape " +
                   shape_str(shape) + " of " + std::to_string(itemsize) +
                   "-byte items: more than " + kMaxBytes + " bytes)");
}

[[noreturn]] void extent_overflow(std::string_view what, std::span<const std::int64_t> shape,
                                  std::span<const std::int64_t> strides) {
  throw ShapeError(std::string(what) + ": shape " + shape_str(shape) + " with strides " +
                   shape_str(strides) + " reaches more than " + kMaxBytes +
                   " bytes from element 0 (the byte offsets overflow int64)");
}

}  // namespace

std::int64_t checked_nbytes(std::span<const std::int64_t> shape, std::size_t itemsize,
                            std::string_view what) {
  for (const auto d : shape) {
    if (d < 0) throw ShapeError("negative dimension in shape " + shape_str(shape));
  }
  if (itemsize > static_cast<std::size_t>(PTRDIFF_MAX)) too_big(what, shape, itemsize);
  std::int64_t bytes = static_cast<std::int64_t>(itemsize);
  bool zero = false;
  for (const auto d : shape) {
    if (d == 0) {
      zero = true;  // still checked: C strides multiply the other extents (NumPy does the same)
      continue;
    }
    if (!mul_fits(bytes, d, bytes)) too_big(what, shape, itemsize);
  }
  return zero ? 0 : bytes;
}

std::pair<std::int64_t, std::int64_t> checked_extent(std::span<const std::int64_t> shape,
                                                     std::span<const std::int64_t> strides,
                                                     std::size_t itemsize, std::string_view what) {
  for (const auto d : shape) {
    if (d == 0) return {0, 0};
  }
  std::int64_t lo = 0, hi = 0;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    std::int64_t span = 0;
    if (!mul_fits(shape[k] - 1, strides[k], span) ||
        !add_fits(span < 0 ? lo : hi, span, span < 0 ? lo : hi)) {
      extent_overflow(what, shape, strides);
    }
  }
  if (!add_fits(hi, static_cast<std::int64_t>(itemsize), hi)) extent_overflow(what, shape, strides);
  return {lo, hi};
}

void check_view(const Array& a) {
  // NumPy's rule for every array, views included: bytes as if it were C-contiguous fit.
  if (checked_nbytes(a.shape(), a.itemsize(), "Array") == 0) return;
  const auto [lo, hi] = checked_extent(a.shape(), a.strides(), a.itemsize(), "Array");
  const std::size_t size_t_bytes = a.buffer() ? a.buffer()->bytes() : 0;
  const std::int64_t bytes = static_cast<std::int64_t>(
      std::min<std::size_t>(size_t_bytes, static_cast<std::size_t>(PTRDIFF_MAX)));
  std::int64_t first = 0, end = 0;
  if (!add_fits(lo, a.offset(), first) || !add_fits(hi, a.offset(), end) || first < 0 ||
      end > bytes) {
    throw ShapeError("view outside its buffer: " + a.str() + " with strides " +
                     shape_str(a.strides()) + " reaches bytes [" + std::to_string(lo) + ", " +
                     std::to_string(hi) + ") from its element 0 at byte offset " +
                     std::to_string(a.offset()) + " of a buffer of " +
                     std::to_string(size_t_bytes) + " bytes");
  }
}

}  // namespace loom
