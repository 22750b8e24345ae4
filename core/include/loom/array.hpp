// loom::Array: NumPy's ndarray model — a view (shape, byte strides, offset, dtype, device) over a
// reference-counted Buffer. Views (slice, transpose, reshape, broadcast_to) share the buffer.
#pragma once
#include <atomic>
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <iosfwd>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "loom/device.hpp"
#include "loom/dtype.hpp"
#include "loom/error.hpp"
#include "loom/small_vector.hpp"
#include "loom/view.hpp"

namespace loom {

// Inline storage for 6 dims: shapes and strides of small calls stay off the heap.
using Shape = SmallVec<std::int64_t, 6>;

std::string shape_str(std::span<const std::int64_t> s);  // "(3, 4)" as NumPy prints it
std::int64_t shape_size(std::span<const std::int64_t> s);
// NumPy broadcasting of several shapes; throws ShapeError listing all shapes.
Shape broadcast_shapes(std::span<const Shape> shapes);

// One allocation: host memory loom allocated, device memory a backend allocated, or external
// memory wrapped with the caller's deleter.
class Buffer {
 public:
  using Deleter = std::function<void(void*)>;
  Buffer(void* ptr, std::size_t bytes, Device device, Deleter deleter)
      : ptr_(ptr), bytes_(bytes), device_(device), deleter_(std::move(deleter)) {}
  ~Buffer() {
    pin_.reset();  // a device driver's page-lock of this memory ends before the memory is freed
    if (deleter_) deleter_(ptr_);
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  void* data() const { return ptr_; }
  std::size_t bytes() const { return bytes_; }
  Device device() const { return device_; }

  // Host memory that calls move to or from a device again and again is page-locked in place
  // (docs/cuda.md, "Host arrays that cross again"): the calls count its crossings, and the one
  // that makes it 2 hands over the lock, which the buffer keeps until it is freed.
  int note_crossing() const { return crossings_.fetch_add(1, std::memory_order_relaxed) + 1; }
  void keep_pin(std::shared_ptr<void> pin) const { pin_ = std::move(pin); }  // once, by that call
  bool pinned_in_place() const { return pin_ != nullptr; }

 private:
  void* ptr_;
  std::size_t bytes_;
  Device device_;
  Deleter deleter_;
  mutable std::atomic<int> crossings_{0};
  mutable std::shared_ptr<void> pin_;
};

// Host memory aligned for SIMD loads (64 bytes, 2 MiB from 4 MiB on); the Buffer frees it.
std::shared_ptr<Buffer> allocate_host(std::size_t bytes);

class Array;
namespace detail {
// empty() and the other creators, with the name of the function the user called in errors.
Array empty_for(const char* what, Shape shape, DType dtype);
}  // namespace detail

class Array {
 public:
  Array() = default;
  Array(std::shared_ptr<Buffer> buffer, DType dtype, Shape shape, Shape strides,
        std::int64_t offset = 0);
  // A C++ scalar becomes a 0-d host array. double and int are "weak" like Python's float and int
  // (NEP 50): they take the dtype of the arrays they meet (x_f32 * 2.0 stays float32); a float,
  // int64_t or other typed scalar keeps its own dtype.
  template <class T>
  requires std::is_arithmetic_v<T> Array(
      T value);  // NOLINT(google-explicit-constructor): scalars convert like NumPy's
  template <class T>
  Array(std::complex<T> value);

  bool valid() const { return buffer_ != nullptr; }
  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  const Shape& strides() const { return strides_; }  // in bytes
  int ndim() const { return static_cast<int>(shape_.size()); }
  std::int64_t size() const { return shape_size(shape_); }
  std::int64_t offset() const { return offset_; }
  std::size_t itemsize() const { return loom::itemsize(dtype_); }
  Device device() const;
  bool weak() const { return weak_; }
  // NumPy's flags.writeable: false for broadcast views, wrapped const memory and views of those;
  // calls refuse to write a read-only array (out=, at's array, copy_to's destination, writable
  // kernel arguments). docs/reliability.md, "Overlap and read-only arrays".
  bool writeable() const { return !readonly_; }
  const std::shared_ptr<Buffer>& buffer() const { return buffer_; }
  char* data() const { return static_cast<char*>(buffer_->data()) + offset_; }
  // Element 0 as a T* for host arrays: T must be the dtype's C++ type (const T for a read-only
  // array); element (i, j) is at byte offset i * strides()[0] + j * strides()[1] from it.
  template <class T>
  T* data() const;
  bool is_c_contiguous() const;
  bool is_f_contiguous() const;  // Fortran order: the first axis varies fastest
  std::string str() const;       // "float32 array of shape (3, 4) on host"
  // Byte range [lo, hi) this view can touch, relative to the buffer start (for overlap checks).
  std::pair<std::int64_t, std::int64_t> byte_extent() const;

  // Views. slice(axis, start, stop, step) follows Python's slice rules (negative values count from
  // the end); index(axis, i) removes the axis.
  Array slice(int axis, std::int64_t start, std::int64_t stop, std::int64_t step = 1) const;
  Array index(int axis, std::int64_t i) const;
  Array transpose() const;  // reverses the axes, as .T
  Array transpose(std::span<const int> axes) const;
  // A view when the strides allow it (always for C-contiguous data), else a C-contiguous copy as
  // NumPy does. One dimension may be -1.
  Array reshape(Shape shape) const;
  Array broadcast_to(const Shape& shape) const;  // read-only, as NumPy's (stride-0 dims)
  // Host arrays; a device array's copy is rt.empty_like(a) filled by rt.copy_to(a, it).
  Array copy() const;           // C-contiguous, any dtype
  Array astype(DType t) const;  // any dtype to any dtype (NumPy's unsafe casts); a new array
  Array as_strong() const;      // same view without the weak-scalar mark
  Array as_readonly() const;    // same view, read-only (no way back)

  // Element access for host arrays (checked): item() needs size 1; at() takes one index per axis,
  // negative ones counting from the end as NumPy's a[i, j]. at<T> needs T to be the dtype's C++
  // type, and const T on a read-only array (a broadcast view must not be written through).
  template <class T>
  T item() const;
  template <class T, class... I>
  T& at(I... idx) const;
  // The kernel View over this array (any device: a device array's View holds a device pointer,
  // for device code). T as for at<T>; N must be ndim().
  template <class T, int N>
  View<T, N> view() const;

  // Every element = value, cast as astype casts (host arrays; device arrays: Runtime::copy_to
  // from a scalar). An integer value out of an integer dtype's range is refused, as NumPy's
  // fill refuses a Python int that does not fit.
  template <class T>
  requires std::is_arithmetic_v<T>
  void fill(T value) const;
  template <class T>
  void fill(std::complex<T> value) const;
  template <class T>
  std::vector<T> to_vector() const;  // C order, cast to T

 private:
  void require_host(const char* what) const;
  // Typed access checks: dtype, writeability (when `write`) and, for view<T, N>, the rank.
  void check_typed(const char* what, DType want, bool write, int ndim = -1) const;
  void fill_from(const Array& value) const;
  [[noreturn]] void fill_range_error(const std::string& value) const;
  // A fresh C-contiguous array whose shape the creator checked: no view checks (dispatch cost).
  struct Fresh {};
  Array(Fresh, std::shared_ptr<Buffer> buffer, DType dtype, Shape shape, Shape strides)
      : buffer_(std::move(buffer)),
        dtype_(dtype),
        shape_(std::move(shape)),
        strides_(std::move(strides)) {}
  friend Array detail::empty_for(const char* what, Shape shape, DType dtype);
  std::shared_ptr<Buffer> buffer_;
  DType dtype_ = DType::float64;
  Shape shape_;
  Shape strides_;
  std::int64_t offset_ = 0;
  bool weak_ = false;
  bool readonly_ = false;
};

// Creation (host memory unless a backend's allocator is used through Runtime).
Shape c_strides(const Shape& shape, std::size_t itemsize);
Array empty(Shape shape, DType dtype = DType::float64);
Array zeros(Shape shape, DType dtype = DType::float64);
Array full(Shape shape, double value, DType dtype = DType::float64);
// The value goes in as a T (Array::fill): an int64 or uint64 past 2^53 keeps every bit, which a
// double on the way would not (np.full(3, 2**60 + 1) is exact).
template <class T>
requires std::is_arithmetic_v<T> Array full(Shape shape, T value) {
  Array a = detail::empty_for("full", std::move(shape), dtype_v<T>);
  a.fill(value);
  return a;
}
Array empty_like(const Array& a);
Array zeros_like(const Array& a);
Array arange(std::int64_t stop);  // int64, as np.arange(stop)
Array arange(double start, double stop, double step = 1.0, DType dtype = DType::float64);
Array linspace(double start, double stop, std::int64_t num, bool endpoint = true,
               DType dtype = DType::float64);
template <class T>
Array from_vector(const std::vector<T>& v, Shape shape = {});
template <class T>
Array array(std::initializer_list<T> v) {
  return from_vector(std::vector<T>(v));
}
// External memory: loom calls deleter(ptr) when the last view goes (nullptr: never frees).
// Empty strides mean C-contiguous.
Array wrap(void* ptr, Shape shape, DType dtype, Shape strides = {}, Buffer::Deleter deleter = {},
           Device device = {});
// const memory gives a read-only array (as NumPy's frombuffer of bytes); so does a zero stride on
// an axis of more than one element, which would make one element many outputs.
template <class T>
requires std::is_const_v<T> Array wrap(T* ptr, Shape shape, DType dtype, Shape strides = {},
                                       Buffer::Deleter deleter = {}, Device device = {}) {
  return wrap(const_cast<void*>(static_cast<const void*>(ptr)), std::move(shape), dtype,
              std::move(strides), std::move(deleter), device)
      .as_readonly();
}

// Printing, as NumPy prints (np.set_printoptions defaults: precision 8, linewidth 75, arrays of
// more than 1000 elements summarised with 3 edge items). g++ 12 has no <format>, so these are the
// interface: format(a) is str(a), repr(a) is repr(a), operator<< writes format(a). Host only.
std::string format(const Array& a);
std::string repr(const Array& a);
std::ostream& operator<<(std::ostream& os, const Array& a);

// ---- template definitions ----

template <class T>
requires std::is_arithmetic_v<T> Array::Array(T value) {
  using S = std::conditional_t<
      std::is_same_v<T, bool>, bool,
      std::conditional_t<
          std::is_same_v<T, long long>, std::int64_t,
          std::conditional_t<std::is_same_v<T, unsigned long long>, std::uint64_t, T>>>;
  *this = empty({}, dtype_v<S>);
  S s = static_cast<S>(value);
  std::memcpy(data(), &s, sizeof(S));
  weak_ = std::is_same_v<T, double> || std::is_same_v<T, int>;
}

template <class T>
Array::Array(std::complex<T> value) {
  *this = empty({}, dtype_v<std::complex<T>>);
  std::memcpy(data(), &value, sizeof(value));
}

template <class T>
T Array::item() const {
  require_host("item()");
  if (size() != 1) {
    throw ValueError("item() needs an array of size 1, got " + str());
  }
  T out;
  cast_strided(data(), 0, dtype_, reinterpret_cast<char*>(&out), 0, dtype_v<T>, 1);
  return out;
}

template <class T>
T* Array::data() const {
  require_host("data<T>()");
  check_typed("data", dtype_v<std::remove_const_t<T>>, !std::is_const_v<T>);
  return reinterpret_cast<T*>(data());
}

template <class T, class... I>
T& Array::at(I... idx) const {
  static_assert((std::is_integral_v<I> && ...), "at(): indices are integers");
  require_host("at()");
  if (sizeof...(I) != shape_.size()) {
    throw ValueError("at() got " + std::to_string(sizeof...(I)) + " indices for " + str());
  }
  check_typed("at", dtype_v<std::remove_const_t<T>>, !std::is_const_v<T>);
  const std::int64_t ix[] = {static_cast<std::int64_t>(idx)..., 0};
  std::int64_t off = 0;
  for (std::size_t k = 0; k < sizeof...(I); ++k) {
    const std::int64_t i = ix[k] < 0 ? ix[k] + shape_[k] : ix[k];
    if (i < 0 || i >= shape_[k]) {
      throw ValueError("index " + std::to_string(ix[k]) + " is out of bounds for axis " +
                       std::to_string(k) + " with size " + std::to_string(shape_[k]) +
                       " in at() of " + str());
    }
    off += i * strides_[k];
  }
  return *reinterpret_cast<T*>(data() + off);
}

template <class T, int N>
View<T, N> Array::view() const {
  if (!valid()) throw ValueError("view() on an empty (default-constructed) Array");
  check_typed("view", dtype_v<std::remove_const_t<T>>, !std::is_const_v<T>, N);
  View<T, N> v;
  v.data = reinterpret_cast<T*>(data());
  for (int k = 0; k < N; ++k) {
    v.shape[k] = shape_[k];
    v.strides[k] = strides_[k];
  }
  return v;
}

template <class T>
requires std::is_arithmetic_v<T>
void Array::fill(T value) const {
  using S = std::conditional_t<
      std::is_same_v<T, bool>, bool,
      std::conditional_t<
          std::is_same_v<T, long long>, std::int64_t,
          std::conditional_t<std::is_same_v<T, unsigned long long>, std::uint64_t, T>>>;
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    const bool fits = visit_dtype(dtype_, [&](auto z) {
      using D = decltype(z);
      if constexpr (std::is_integral_v<D> && !std::is_same_v<D, bool>) {
        return std::in_range<D>(value);
      } else {
        return true;
      }
    });
    if (!fits) fill_range_error(std::to_string(value));
  }
  fill_from(Array(static_cast<S>(value)).as_strong());
}

template <class T>
void Array::fill(std::complex<T> value) const {
  fill_from(Array(value));
}

template <class T>
std::vector<T> Array::to_vector() const {
  require_host("to_vector()");
  Array c = is_c_contiguous() ? *this : copy();
  std::vector<T> out(static_cast<std::size_t>(size()));
  cast_strided(c.data(), static_cast<std::int64_t>(c.itemsize()), dtype_,
               reinterpret_cast<char*>(out.data()), sizeof(T), dtype_v<T>, size());
  return out;
}

template <class T>
Array from_vector(const std::vector<T>& v, Shape shape) {
  if (shape.empty()) shape = {static_cast<std::int64_t>(v.size())};
  if (shape_size(shape) != static_cast<std::int64_t>(v.size())) {
    throw ShapeError("from_vector: " + std::to_string(v.size()) + " values do not fill shape " +
                     shape_str(shape));
  }
  Array a = empty(shape, dtype_v<T>);
  if constexpr (std::is_same_v<T, bool>) {
    for (std::size_t i = 0; i < v.size(); ++i) reinterpret_cast<bool*>(a.data())[i] = v[i];
  } else if (!v.empty()) {  // an empty vector's data() may be null: memcpy(_, null, 0) is UB
    std::memcpy(a.data(), v.data(), v.size() * sizeof(T));
  }
  return a;
}

}  // namespace loom
