// Array views, creation and host copies.
#include "loom/array.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numeric>

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
  for (auto d : s) n *= d;
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
  return out;
}

std::shared_ptr<Buffer> allocate_host(std::size_t bytes) {
  // 64-byte alignment for AVX-512 loads; aligned_alloc needs a multiple of the alignment. Large
  // arrays are 2 MiB aligned and asked for huge pages, as NumPy does from 4 MiB: first touching
  // 256 MiB took 170-285 ms with 4 KiB pages and 31 ms with huge pages (measured here).
  constexpr std::size_t kHuge = std::size_t{2} << 20, kHugeFrom = std::size_t{4} << 20;
  const std::size_t align = bytes >= kHugeFrom ? kHuge : 64;
  const std::size_t rounded = std::max(align, (bytes + align - 1) / align * align);
  void* p = std::aligned_alloc(align, rounded);
  if (!p) throw DeviceError("host allocation of " + std::to_string(bytes) + " bytes failed");
  if (align == kHuge) (void)madvise(p, rounded, MADV_HUGEPAGE);  // advice only: errors are fine
  return std::make_shared<Buffer>(p, bytes, Device{}, [](void* q) { std::free(q); });
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
  const std::int64_t n = shape_[a];
  auto clamp = [&](std::int64_t v, std::int64_t lo, std::int64_t hi) {
    if (v < 0) v += n;
    return std::clamp(v, lo, hi);
  };
  std::int64_t len;
  if (step > 0) {
    start = clamp(start, 0, n);
    stop = clamp(stop, 0, n);
    len = stop > start ? (stop - start + step - 1) / step : 0;
  } else {
    start = clamp(start, -1, n - 1);
    stop = clamp(stop, -1, n - 1);
    len = start > stop ? (start - stop - step - 1) / (-step) : 0;
  }
  Array v = *this;
  v.weak_ = false;
  if (len > 0) v.offset_ += start * strides_[a];
  v.shape_[a] = len;
  v.strides_[a] = strides_[a] * step;
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
      known *= shape[k];
    }
  }
  if (infer >= 0 && known != 0) shape[infer] = size() / known;
  if (shape_size(shape) != size()) {
    throw ShapeError("cannot reshape " + str() + " into shape " + shape_str(shape));
  }
  if (!is_c_contiguous()) return copy().reshape(shape);
  Array v = *this;
  v.weak_ = false;
  v.strides_ = c_strides(shape, itemsize());
  v.shape_ = std::move(shape);
  return v;
}

Array Array::broadcast_to(const Shape& shape) const {
  const Shape both[] = {shape_, shape};
  if (broadcast_shapes(both) != shape) {
    throw ShapeError("cannot broadcast " + str() + " to shape " + shape_str(shape));
  }
  Array v = *this;
  v.weak_ = false;
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

Shape c_strides(const Shape& shape, std::size_t itemsize) {
  Shape s(shape.size());
  std::int64_t acc = static_cast<std::int64_t>(itemsize);
  for (int k = static_cast<int>(shape.size()) - 1; k >= 0; --k) {
    s[k] = acc;
    acc *= std::max<std::int64_t>(shape[k], 1);
  }
  return s;
}

Array empty(Shape shape, DType dtype) {
  for (auto d : shape) {
    if (d < 0) throw ShapeError("negative dimension in shape " + shape_str(shape));
  }
  const std::size_t bytes = static_cast<std::size_t>(shape_size(shape)) * itemsize(dtype);
  Shape strides = c_strides(shape, itemsize(dtype));
  return Array(allocate_host(bytes), dtype, std::move(shape), std::move(strides));
}

Array zeros(Shape shape, DType dtype) {
  Array a = empty(std::move(shape), dtype);
  std::memset(a.data(), 0, static_cast<std::size_t>(a.size()) * a.itemsize());
  return a;
}

Array full(Shape shape, double value, DType dtype) {
  Array a = empty(std::move(shape), dtype);
  copy_cast(Array(value).broadcast_to(a.shape()), a);
  return a;
}

Array empty_like(const Array& a) { return empty(a.shape(), a.dtype()); }
Array zeros_like(const Array& a) { return zeros(a.shape(), a.dtype()); }

Array arange(std::int64_t stop) {
  Array a = empty({std::max<std::int64_t>(stop, 0)}, DType::int64);
  auto* p = reinterpret_cast<std::int64_t*>(a.data());
  for (std::int64_t i = 0; i < stop; ++i) p[i] = i;
  return a;
}

Array arange(double start, double stop, double step, DType dtype) {
  if (step == 0) throw ValueError("arange: step cannot be zero");
  const auto n = static_cast<std::int64_t>(std::max(0.0, std::ceil((stop - start) / step)));
  Array a = empty({n}, DType::float64);
  auto* p = reinterpret_cast<double*>(a.data());
  for (std::int64_t i = 0; i < n; ++i) p[i] = start + static_cast<double>(i) * step;
  return dtype == DType::float64 ? a : a.astype(dtype);
}

Array linspace(double start, double stop, std::int64_t num, bool endpoint, DType dtype) {
  if (num < 0) throw ValueError("linspace: num must be non-negative, got " + std::to_string(num));
  Array a = empty({num}, DType::float64);
  auto* p = reinterpret_cast<double*>(a.data());
  const std::int64_t div = endpoint ? num - 1 : num;
  const double step = div > 0 ? (stop - start) / static_cast<double>(div) : 0.0;
  for (std::int64_t i = 0; i < num; ++i) p[i] = start + static_cast<double>(i) * step;
  if (endpoint && num > 1) p[num - 1] = stop;
  return dtype == DType::float64 ? a : a.astype(dtype);
}

Array wrap(void* ptr, Shape shape, DType dtype, Shape strides, Buffer::Deleter deleter,
           Device device) {
  if (strides.empty()) strides = c_strides(shape, itemsize(dtype));
  // The buffer's extent is not known for arbitrary strides; record the view's extent.
  Array probe(std::make_shared<Buffer>(ptr, 0, device, nullptr), dtype, shape, strides);
  const auto [lo, hi] = probe.byte_extent();
  if (lo < 0) {
    throw ValueError("wrap: negative strides " + shape_str(strides) +
                     " would read before the pointer");
  }
  auto buf =
      std::make_shared<Buffer>(ptr, static_cast<std::size_t>(hi), device, std::move(deleter));
  return Array(std::move(buf), dtype, std::move(shape), std::move(strides));
}

}  // namespace loom
