// Arrays made here: host allocation, empty/zeros/full, arange and linspace, and wrap of the
// caller's memory.
#include <sys/mman.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "loom/array.hpp"
#include "loom/shape_check.hpp"
#include "loom/strided.hpp"

namespace loom {

std::shared_ptr<Buffer> allocate_host(std::size_t bytes) {
  // 64-byte alignment for AVX-512 loads; aligned_alloc needs a multiple of the alignment. Large
  // arrays are 2 MiB aligned and asked for huge pages, as NumPy does from 4 MiB: first touching
  // 256 MiB took 170-285 ms with 4 KiB pages and 31 ms with huge pages (measured here).
  constexpr std::size_t kHuge = std::size_t{2} << 20, kHugeFrom = std::size_t{4} << 20;
  const std::size_t align = bytes >= kHugeFrom ? kHuge : 64;
  // Small blocks: malloc and align by hand (the block's start stored just before the data), as
  // glibc's thread cache serves them; aligned_alloc splits and consolidates chunks on every call
  // (a quarter of a one-element call's time, measured here).
  constexpr std::size_t kSmall = 512;
  if (bytes <= kSmall) {
    void* raw = std::malloc(bytes + align + sizeof(void*));
    if (!raw) throw DeviceError("host allocation of " + std::to_string(bytes) + " bytes failed");
    const auto at =
        (reinterpret_cast<std::uintptr_t>(raw) + sizeof(void*) + align - 1) & ~(align - 1);
    void* p = reinterpret_cast<void*>(at);
    static_cast<void**>(p)[-1] = raw;
    return std::make_shared<Buffer>(p, bytes, Device{},
                                    [](void* q) { std::free(static_cast<void**>(q)[-1]); });
  }
  const std::size_t rounded = std::max(align, (bytes + align - 1) / align * align);
  void* p = std::aligned_alloc(align, rounded);
  if (!p) throw DeviceError("host allocation of " + std::to_string(bytes) + " bytes failed");
  if (align == kHuge) (void)madvise(p, rounded, MADV_HUGEPAGE);  // advice only: errors are fine
  return std::make_shared<Buffer>(p, bytes, Device{}, [](void* q) { std::free(q); });
}

namespace detail {

Array empty_for(const char* what, Shape shape, DType dtype) {
  const std::size_t isz = itemsize(dtype);
  const auto bytes = static_cast<std::size_t>(checked_nbytes(shape, isz, what));
  // c_strides without its second check: the products below are those checked_nbytes bounded.
  Shape strides(shape.size());
  std::int64_t acc = static_cast<std::int64_t>(isz);
  for (int k = static_cast<int>(shape.size()) - 1; k >= 0; --k) {
    strides[k] = acc;
    acc *= std::max<std::int64_t>(shape[k], 1);
  }
  return Array(Array::Fresh{}, allocate_host(bytes), dtype, std::move(shape), std::move(strides));
}

}  // namespace detail

using detail::empty_for;

Array empty(Shape shape, DType dtype) { return empty_for("empty", std::move(shape), dtype); }

Array zeros(Shape shape, DType dtype) {
  Array a = empty_for("zeros", std::move(shape), dtype);
  std::memset(a.data(), 0, static_cast<std::size_t>(a.size()) * a.itemsize());
  return a;
}

Array full(Shape shape, double value, DType dtype) {
  Array a = empty_for("full", std::move(shape), dtype);
  copy_cast(Array(value).broadcast_to(a.shape()), a);
  return a;
}

Array empty_like(const Array& a) { return empty(a.shape(), a.dtype()); }
Array zeros_like(const Array& a) { return zeros(a.shape(), a.dtype()); }

Array arange(std::int64_t stop) {
  Array a = empty_for("arange", {std::max<std::int64_t>(stop, 0)}, DType::int64);
  auto* p = reinterpret_cast<std::int64_t*>(a.data());
  for (std::int64_t i = 0; i < stop; ++i) p[i] = i;
  return a;
}

Array arange(double start, double stop, double step, DType dtype) {
  if (step == 0) throw ValueError("arange: step cannot be zero");
  // NumPy's _calc_length: a NaN quotient cannot be a length; one outside int64 is refused before
  // the cast (that cast is undefined behaviour); a quotient of +0 from a nonzero distance (an
  // infinite step, or underflow) is one element.
  const double delta = stop - start, q = delta / step;
  const std::string call = "arange(" + std::to_string(start) + ", " + std::to_string(stop) + ", " +
                           std::to_string(step) + ")";
  if (std::isnan(q)) {
    throw ValueError("arange: cannot compute length of " + call + ": (stop - start) / step is " +
                     std::to_string(q));
  }
  if (!(q > -0x1p63 && q < 0x1p63)) {
    throw ValueError("arange: Maximum allowed size exceeded: " + call + " has (stop - start) / " +
                     "step = " + std::to_string(q) + " elements, more than int64 holds");
  }
  std::int64_t n = static_cast<std::int64_t>(std::max(0.0, std::ceil(q)));
  if (q == 0 && delta != 0 && !std::signbit(q)) n = 1;
  Array a = empty_for("arange", {n}, DType::float64);
  auto* p = reinterpret_cast<double*>(a.data());
  if (n > 0) p[0] = start;  // not start + 0 * step, which is NaN for an infinite step
  for (std::int64_t i = 1; i < n; ++i) p[i] = start + static_cast<double>(i) * step;
  return dtype == DType::float64 ? a : a.astype(dtype);
}

Array linspace(double start, double stop, std::int64_t num, bool endpoint, DType dtype) {
  if (num < 0) throw ValueError("linspace: num must be non-negative, got " + std::to_string(num));
  Array a = empty_for("linspace", {num}, DType::float64);
  auto* p = reinterpret_cast<double*>(a.data());
  const std::int64_t div = endpoint ? num - 1 : num;
  const double step = div > 0 ? (stop - start) / static_cast<double>(div) : 0.0;
  for (std::int64_t i = 0; i < num; ++i) p[i] = start + static_cast<double>(i) * step;
  if (endpoint && num > 1) p[num - 1] = stop;
  return dtype == DType::float64 ? a : a.astype(dtype);
}

Array wrap(void* ptr, Shape shape, DType dtype, Shape strides, Buffer::Deleter deleter,
           Device device) {
  // Checked here because the core cannot ask a driver whether the pointer lives on that device:
  // a device a backend could never have must not reach one.
  if (device.index < 0 || (device.is_host() && device.index != 0)) {
    throw ValueError("wrap: device " + std::string(device.is_host() ? "host" : "cuda") +
                     " with index " + std::to_string(device.index) +
                     " does not exist (host memory has index 0, cuda:N needs N >= 0)");
  }
  const std::size_t isz = itemsize(dtype);
  const std::int64_t nbytes = checked_nbytes(shape, isz, "wrap");
  if (strides.empty()) strides = c_strides(shape, isz);
  if (strides.size() != shape.size()) {
    throw ShapeError("strides " + shape_str(strides) + " do not match shape " + shape_str(shape));
  }
  // ptr is element 0; the caller vouches for [ptr + lo, ptr + hi), the bytes the view can touch
  // (lo < 0 with negative strides). The buffer starts at ptr + lo, so that the view's offset and
  // extent are relative to memory that exists (docs/reliability.md, "Shapes and sizes").
  const auto [lo, hi] = checked_extent(shape, strides, isz, "wrap");
  if (nbytes > 0 && ptr == nullptr) {
    throw ValueError("wrap: a null pointer for a " + std::string(name(dtype)) + " array of shape " +
                     shape_str(shape) + " (only a zero-size array may wrap nullptr)");
  }
  // On unsigned integers: pointer arithmetic outside an object is undefined.
  const auto addr = reinterpret_cast<std::uintptr_t>(ptr);
  const std::uintptr_t below = -static_cast<std::uintptr_t>(lo);  // |lo|, even for INT64_MIN
  std::int64_t span = 0;
  if (__builtin_sub_overflow(hi, lo, &span) || addr < below ||
      UINTPTR_MAX - (addr - below) < static_cast<std::uintptr_t>(span)) {
    throw ValueError("wrap: shape " + shape_str(shape) + " with strides " + shape_str(strides) +
                     " reaches bytes [" + std::to_string(lo) + ", " + std::to_string(hi) +
                     ") around the pointer " + std::to_string(addr) +
                     ", outside the address space");
  }
  const std::uintptr_t base = addr - below;
  Buffer::Deleter del;
  if (deleter) del = [d = std::move(deleter), ptr](void*) { d(ptr); };  // the caller's pointer
  auto buf = std::make_shared<Buffer>(reinterpret_cast<void*>(base), static_cast<std::size_t>(span),
                                      device, std::move(del));
  // A zero stride on an axis of more than one element: read-only, like a broadcast view.
  bool repeats = false;
  for (std::size_t k = 0; k < shape.size(); ++k) repeats |= strides[k] == 0 && shape[k] > 1;
  Array a(std::move(buf), dtype, std::move(shape), std::move(strides), -lo);
  return repeats ? a.as_readonly() : a;
}

}  // namespace loom
