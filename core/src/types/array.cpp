// Shapes (broadcasting, sizes, C strides) and Array views and host copies; the arrays made from
// nothing or from the caller's memory: array_create.cpp.
#include "loom/array.hpp"

#include <algorithm>
#include <numeric>

#include "loom/aliasing.hpp"
#include "loom/shape_check.hpp"
#include "loom/strided.hpp"

namespace loom {

std::string shape_str(std::span<const std::int64_t> s) {
  std::string out = "(";
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i) out += ", ";
    out += std::to_string(s[i]);
  }
  if (s.size() == 1) out += ",";
  return out + ")";
}

std::int64_t shape_size(std::span<const std::int64_t> s) {
  std::int64_t n = 1;
  bool overflow = false;
  for (auto d : s) {
    if (d == 0) return 0;
    overflow = overflow || !mul_fits(n, d, n);
  }
  if (overflow) {
    throw ShapeError("the size of shape " + shape_str(s) + " overflows int64 (more than " +
                     std::to_string(INT64_MAX) + " elements)");
  }
  return n;
}

Shape broadcast_shapes(std::span<const Shape> shapes) {
  std::size_t nd = 0;
  for (const auto& s : shapes) nd = std::max(nd, s.size());
  Shape out(nd, 1);
  for (const auto& s : shapes) {
    for (std::size_t k = 0; k < s.size(); ++k) {
      std::int64_t& o = out[nd - s.size() + k];
      const std::int64_t d = s[k];
      if (d == o || d == 1) continue;
      if (o == 1) {
        o = d;
        continue;
      }
      std::string msg = "shapes do not broadcast:";
      for (const auto& t : shapes) {
        msg += ' ';
        msg += shape_str(t);
      }
      throw ShapeError(msg + " (axis sizes must match or be 1)");
    }
  }
  std::int64_t n = 1;  // NumPy's rule: the product of the nonzero extents fits (stride 0 or not)
  for (const auto d : out) {
    if (d != 0 && !mul_fits(n, d, n)) {
      std::string msg = "broadcast dimensions too large: shapes";
      for (const auto& t : shapes) msg += ' ' + shape_str(t);
      throw ShapeError(msg + " broadcast to " + shape_str(out) + ", more than " +
                       std::to_string(INT64_MAX) + " elements");
    }
  }
  return out;
}

Array::Array(std::shared_ptr<Buffer> buffer, DType dtype, Shape shape, Shape strides,
             std::int64_t offset)
    : buffer_(std::move(buffer)),
      dtype_(dtype),
      shape_(std::move(shape)),
      strides_(std::move(strides)),
      offset_(offset) {
  if (strides_.size() != shape_.size()) {
    throw ShapeError("strides " + shape_str(strides_) + " do not match shape " + shape_str(shape_));
  }
  check_view(*this);
}

Device Array::device() const { return buffer_ ? buffer_->device() : Device{}; }

bool Array::is_c_contiguous() const {
  std::int64_t expect = static_cast<std::int64_t>(itemsize());
  for (int k = ndim() - 1; k >= 0; --k) {
    if (shape_[k] == 1) continue;
    if (shape_[k] == 0) return true;
    if (strides_[k] != expect) return false;
    expect *= shape_[k];
  }
  return true;
}

bool Array::is_f_contiguous() const {
  std::int64_t expect = static_cast<std::int64_t>(itemsize());
  for (int k = 0; k < ndim(); ++k) {
    if (shape_[k] == 1) continue;
    if (shape_[k] == 0) return true;
    if (strides_[k] != expect) return false;
    expect *= shape_[k];
  }
  return true;
}

void Array::check_typed(const char* what, DType want, bool write, int nd) const {
  // The C++ type names what the caller wrote (at<float>) in NumPy's words (float32).
  const std::string call = std::string(what) + "<" + std::string(name(want)) +
                           (nd >= 0 ? ", " + std::to_string(nd) : std::string()) + ">()";
  if (want != dtype_) {
    throw TypeError(call + " on " + str() + ": the element type must be the array's dtype " +
                    std::string(name(dtype_)) + "; astype(" + std::string(name(want)) +
                    ") makes a converted copy");
  }
  if (write && readonly_) {
    throw ValueError(call + " on a read-only " + str() +
                     " (a broadcast view, wrapped const memory or a view of one) would let it be "
                     "written; ask for a const element type to read it, or use copy()");
  }
  if (nd >= 0 && nd != ndim()) {
    throw ValueError(call + " on " + str() + ": the array has " + std::to_string(ndim()) +
                     " dimension(s) and the View " + std::to_string(nd) +
                     "; reshape the array or pick N = " + std::to_string(ndim()));
  }
}

void Array::fill_from(const Array& value) const {
  require_host("fill()");
  require_writeable(*this, "fill()", "the array");
  copy_cast(value.broadcast_to(shape_), *this);
}

void Array::fill_range_error(const std::string& value) const {
  std::string lo, hi;
  visit_dtype(dtype_, [&](auto z) {
    using D = decltype(z);
    if constexpr (std::is_integral_v<D>) {
      lo = std::to_string(+std::numeric_limits<D>::min());
      hi = std::to_string(+std::numeric_limits<D>::max());
    }
  });
  throw ValueError("fill(" + value + ") on " + str() + ": " + value + " is out of bounds for " +
                   std::string(name(dtype_)) + " [" + lo + ", " + hi +
                   "]; cast it yourself if wrapping is meant (NumPy: OverflowError)");
}

std::string Array::str() const {
  return std::string(name(dtype_)) + " array of shape " + shape_str(shape_) + " on " +
         device().str();
}

std::pair<std::int64_t, std::int64_t> Array::byte_extent() const {
  std::int64_t lo = offset_, hi = offset_;
  if (size() == 0) return {lo, lo};
  for (int k = 0; k < ndim(); ++k) {
    const std::int64_t span = (shape_[k] - 1) * strides_[k];
    (span < 0 ? lo : hi) += span;
  }
  return {lo, hi + static_cast<std::int64_t>(itemsize())};
}

void Array::require_host(const char* what) const {
  if (!valid()) throw ValueError(std::string(what) + " on an empty (default-constructed) Array");
  if (!device().is_host()) {
    throw DeviceError(std::string(what) + " needs a host array, got " + str() +
                      "; copy it to the host first (Runtime::to_host)");
  }
}

static int normalize_axis(int axis, int ndim, const char* what) {
  const int a = axis < 0 ? axis + ndim : axis;
  if (a < 0 || a >= ndim) {
    throw ValueError(std::string(what) + ": axis " + std::to_string(axis) +
                     " is out of bounds for an array of dimension " + std::to_string(ndim));
  }
  return a;
}

Array Array::slice(int axis, std::int64_t start, std::int64_t stop, std::int64_t step) const {
  const int a = normalize_axis(axis, ndim(), "slice");
  if (step == 0) {
    throw ValueError("slice(axis " + std::to_string(axis) + ", " + std::to_string(start) + ", " +
                     std::to_string(stop) + ", step 0) of " + str() +
                     ": the step cannot be zero (use a positive or negative step)");
  }
  // Python's PySlice_Unpack and PySlice_AdjustIndices, in an order that cannot overflow: any
  // int64 start, stop and step clamp as x[start:stop:step] does (x[0:5:2**63-1] is [x[0]]).
  const std::int64_t n = shape_[a];
  step = std::max(step, -INT64_MAX);  // so that -step fits
  auto clamp = [&](std::int64_t v, std::int64_t lo, std::int64_t hi) {
    if (v < 0) v += n;
    return std::clamp(v, lo, hi);
  };
  std::int64_t len;
  if (step > 0) {
    start = clamp(start, 0, n);
    stop = clamp(stop, 0, n);
    len = stop > start ? (stop - start - 1) / step + 1 : 0;
  } else {
    start = clamp(start, -1, n - 1);
    stop = clamp(stop, -1, n - 1);
    len = start > stop ? (start - stop - 1) / (-step) + 1 : 0;
  }
  Array v = *this;
  v.weak_ = false;
  if (len > 0) v.offset_ += start * strides_[a];
  v.shape_[a] = len;
  // With two or more elements |step| < n, so the product fits; with one or none the stride is
  // never used and keeps the axis's own where the product would overflow.
  if (!mul_fits(strides_[a], step, v.strides_[a])) v.strides_[a] = strides_[a];
  return v;
}

Array Array::index(int axis, std::int64_t i) const {
  const int a = normalize_axis(axis, ndim(), "index");
  const std::int64_t j = i < 0 ? i + shape_[a] : i;
  if (j < 0 || j >= shape_[a]) {
    throw ValueError("index " + std::to_string(i) + " is out of bounds for axis " +
                     std::to_string(a) + " with size " + std::to_string(shape_[a]));
  }
  Array v = *this;
  v.weak_ = false;
  v.offset_ += j * strides_[a];
  v.shape_.erase(v.shape_.begin() + a);
  v.strides_.erase(v.strides_.begin() + a);
  return v;
}

Array Array::transpose() const {
  std::vector<int> axes(ndim());
  std::iota(axes.rbegin(), axes.rend(), 0);
  return transpose(axes);
}

Array Array::transpose(std::span<const int> axes) const {
  if (static_cast<int>(axes.size()) != ndim()) {
    throw ValueError("transpose: " + std::to_string(axes.size()) + " axes given for " + str());
  }
  std::vector<bool> seen(ndim(), false);
  Array v = *this;
  v.weak_ = false;
  for (int k = 0; k < ndim(); ++k) {
    const int a = normalize_axis(axes[k], ndim(), "transpose");
    if (seen[a]) {
      std::string given;
      for (int x : axes) given += (given.empty() ? "" : ", ") + std::to_string(x);
      throw ValueError("transpose of " + str() + ": axis " + std::to_string(a) +
                       " is repeated in axes (" + given + "); give each axis once");
    }
    seen[a] = true;
    v.shape_[k] = shape_[a];
    v.strides_[k] = strides_[a];
  }
  return v;
}

Array Array::reshape(Shape shape) const {
  int infer = -1;
  std::int64_t known = 1;
  bool overflow = false;
  for (int k = 0; k < static_cast<int>(shape.size()); ++k) {
    if (shape[k] == -1) {
      if (infer >= 0) {
        throw ShapeError("cannot reshape " + str() + " into shape " + shape_str(shape) +
                         ": only one dimension can be -1");
      }
      infer = k;
    } else if (shape[k] < 0) {
      throw ShapeError("reshape: negative dimension in " + shape_str(shape));
    } else {
      overflow = overflow || !mul_fits(known, shape[k], known);
    }
  }
  // NumPy's _fix_unknown_dimension: an overflowing product, or a -1 beside a 0 (any size fits
  // it), is a size mismatch: np.zeros(0).reshape(-1, 0) is refused.
  const bool fits = !overflow && (infer >= 0 ? known != 0 && size() % known == 0 : known == size());
  if (!fits) throw ShapeError("cannot reshape " + str() + " into shape " + shape_str(shape));
  if (infer >= 0) shape[infer] = size() / known;
  checked_nbytes(shape, itemsize(), "reshape");  // a 0-size array into (0, 2**62, 2**62)
  if (!is_c_contiguous()) return copy().reshape(shape);
  Array v = *this;
  v.weak_ = false;
  v.strides_ = c_strides(shape, itemsize());
  v.shape_ = std::move(shape);
  return v;
}

Array Array::broadcast_to(const Shape& shape) const {
  // Negative extents, and shapes NumPy finds too big even with stride 0 ((2**62,) of float64).
  checked_nbytes(shape, itemsize(), "broadcast_to");
  const Shape both[] = {shape_, shape};
  if (broadcast_shapes(both) != shape) {
    throw ShapeError("cannot broadcast " + str() + " to shape " + shape_str(shape));
  }
  Array v = *this;
  v.weak_ = false;
  v.readonly_ = true;  // NumPy: broadcast_to gives a read-only view (one element, many outputs)
  const std::size_t lead = shape.size() - shape_.size();
  v.shape_ = shape;
  v.strides_.assign(shape.size(), 0);
  for (std::size_t k = 0; k < shape_.size(); ++k) {
    v.strides_[lead + k] = shape_[k] == 1 ? 0 : strides_[k];
  }
  return v;
}

Array Array::copy() const {
  require_host("copy()");
  return astype(dtype_);
}

Array Array::astype(DType t) const {
  require_host("astype()");
  Array out = empty(shape_, t);
  copy_cast(*this, out);
  return out;
}

Array Array::as_strong() const {
  Array v = *this;
  v.weak_ = false;
  return v;
}

Array Array::as_readonly() const {
  Array v = *this;
  v.readonly_ = true;
  return v;
}

Shape c_strides(const Shape& shape, std::size_t itemsize) {
  checked_nbytes(shape, itemsize, "c_strides");  // then no product below overflows
  Shape s(shape.size());
  std::int64_t acc = static_cast<std::int64_t>(itemsize);
  for (int k = static_cast<int>(shape.size()) - 1; k >= 0; --k) {
    s[k] = acc;
    acc *= std::max<std::int64_t>(shape[k], 1);
  }
  return s;
}

}  // namespace loom
