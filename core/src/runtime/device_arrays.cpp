// Device arrays: allocation through the device backend, transfers, copies and streams.
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "loom/aliasing.hpp"
#include "loom/error.hpp"
#include "loom/runtime.hpp"
#include "loom/shape_check.hpp"
#include "loom/strided.hpp"
#include "runtime/runtime_impl.hpp"

namespace loom {

namespace {

std::pair<Backend*, int> device_target(const Runtime& rt, const std::string& target) {
  auto bt = rt.resolve_target(target);
  if (bt.first->family() == Family::host) {
    throw TargetError("target '" + target + "' runs on the host and has no device memory; " +
                      "use a device target such as cuda or cuda:N");
  }
  return bt;
}

Device device_of(Backend* b, int index) {
  (void)b;
  return Device{DeviceKind::cuda, index};
}

// C-contiguous host copy unless a already is one.
Array host_contiguous(const Array& a) { return a.is_c_contiguous() ? a : a.copy(); }

// The same buffer, also keeping `owner` (the runtime's state: its backend and device pools)
// alive until the buffer is freed, so that a device array may outlive its Runtime.
std::shared_ptr<Buffer> holding(std::shared_ptr<Buffer> buf, std::shared_ptr<void> owner) {
  struct Held {
    std::shared_ptr<void> owner;  // declared first: goes after the buffer
    std::shared_ptr<Buffer> buf;
  };
  auto h = std::make_shared<Held>(Held{std::move(owner), std::move(buf)});
  return std::shared_ptr<Buffer>(h, h->buf.get());
}

}  // namespace

void detail::count_transfer(const Runtime& rt, int device, CopyKind kind, std::int64_t bytes) {
  std::lock_guard lock(rt.impl_->transfers_mutex);
  TransferCounts& c = rt.impl_->transfers[device];
  if (kind == CopyKind::host_to_device) {
    c.host_to_device_bytes += bytes;
    ++c.host_to_device_calls;
  } else if (kind == CopyKind::device_to_host) {
    c.device_to_host_bytes += bytes;
    ++c.device_to_host_calls;
  }
}

namespace {
// Below this a buffer's staging costs less than locking it (cudaHostRegister runs at about
// 20 GB/s on an H200 host, against the staging copies' 55-70 GB/s).
constexpr std::size_t kPinMinBytes = std::size_t{32} << 20;

bool pin_host_enabled() {
  static const bool on = [] {
    const char* v = std::getenv("LOOM_PIN_HOST");
    return !(v && std::string(v) == "0");
  }();
  return on;
}
}  // namespace

void detail::pin_on_reuse(const Runtime& rt, Backend& b, const Array& a) {
  const auto& buf = a.buffer();
  if (!buf || !buf->device().is_host() || buf->bytes() < kPinMinBytes) return;
  // The first crossing only counts: an array that crosses once (a fresh result, a one-off
  // input) is cheaper staged than locked. Exactly one call sees 2, so one call locks, and no
  // other reads the lock meanwhile (a device set's parts cross at once).
  if (buf->note_crossing() != 2 || !pin_host_enabled()) return;
  std::shared_ptr<void> pin = b.pin_host(buf->data(), buf->bytes());
  if (!pin) return;  // the backend declined (its limit, or the driver): staging, as before
  // The lock's release is the backend's code: the runtime's state (its plugins) stays loaded
  // until the buffer lets go of it.
  struct Held {
    std::shared_ptr<void> owner;  // declared first: released after the lock
    std::shared_ptr<void> pin;
  };
  buf->keep_pin(std::make_shared<Held>(Held{rt.impl_, std::move(pin)}));
}

TransferCounts Runtime::transfer_counts(const std::string& target) const {
  auto [b, dev] = resolve_target(target);
  if (b->family() == Family::host) return {};
  std::lock_guard lock(impl_->transfers_mutex);
  const auto it = impl_->transfers.find(dev);
  return it == impl_->transfers.end() ? TransferCounts{} : it->second;
}

void Runtime::reset_transfer_counts() {
  std::lock_guard lock(impl_->transfers_mutex);
  impl_->transfers.clear();
}

TransferGuard Runtime::transfer_guard() const { return impl_->transfer_guard; }

bool Runtime::checked_launches() const { return impl_->checked_launches; }

std::pair<Backend*, int> Runtime::backend_of(const Array& a) const {
  const Device d = a.device();
  if (d.is_host()) throw DeviceError("backend_of: " + a.str() + " is a host array");
  return resolve_target("cuda:" + std::to_string(d.index));
}

Array Runtime::empty(Shape shape, DType dtype, const std::string& target, const Stream& s) const {
  auto [b, dev] = resolve_target(target);
  if (b->family() == Family::host) return loom::empty(std::move(shape), dtype);
  const auto bytes = static_cast<std::size_t>(checked_nbytes(shape, itemsize(dtype), "empty"));
  auto buf = holding(b->allocate(bytes, dev, s.native()), impl_);
  Shape strides = c_strides(shape, itemsize(dtype));
  return Array(std::move(buf), dtype, std::move(shape), std::move(strides));
}

Array Runtime::zeros(Shape shape, DType dtype, const std::string& target, const Stream& s) const {
  auto [b, dev] = resolve_target(target);
  if (b->family() == Family::host) return loom::zeros(std::move(shape), dtype);
  Array out = empty(std::move(shape), dtype, target, s);
  copy_to(Array(0).as_strong(), out, s);
  return out;
}

Array Runtime::empty_like(const Array& a, const Stream& s) const {
  if (a.device().is_host()) return loom::empty(a.shape(), a.dtype());
  return empty(a.shape(), a.dtype(), a.device().str(), s);
}

Array Runtime::pinned_empty(Shape shape, DType dtype, const std::string& target) const {
  auto [b, dev] = device_target(*this, target);
  const auto bytes =
      static_cast<std::size_t>(checked_nbytes(shape, itemsize(dtype), "pinned_empty"));
  Shape strides = c_strides(shape, itemsize(dtype));
  return Array(holding(b->allocate_pinned(bytes), impl_), dtype, std::move(shape),
               std::move(strides));
}

Array Runtime::to_device(const Array& a, const std::string& target, const Stream& s) const {
  if (resolve_target(target).first->family() == Family::host) {
    // A copy, as cuda makes (and Numba's simulator): writes through it must not reach `a` on one
    // target and not on another.
    return a.device().is_host() ? a.copy() : to_host(a, s);
  }
  auto [b, dev] = device_target(*this, target);
  const Device want = device_of(b, dev);
  if (a.device() == want) return a;
  if (!a.device().is_host()) {
    throw DeviceError("to_device: " + a.str() + " is on another device than target '" + target +
                      "'; copy it to the host first");
  }
  Array d = empty(a.shape(), a.dtype(), target, s);
  const auto bytes = static_cast<std::int64_t>(a.size() * a.itemsize());
  if (a.size() == 1) {  // scalars (weak call arguments): no synchronizing transfer
    copy_to(a, d, s);
    detail::count_transfer(*this, dev, CopyKind::host_to_device, bytes);
    return d;
  }
  const Array h = host_contiguous(a);
  detail::pin_on_reuse(*this, *b, h);
  b->copy(d.data(), h.data(), static_cast<std::size_t>(bytes), CopyKind::host_to_device, dev,
          s.native());
  if (bytes > 0) detail::count_transfer(*this, dev, CopyKind::host_to_device, bytes);
  return d;
}

Array Runtime::to_host(const Array& a, const Stream& s) const {
  if (a.device().is_host()) return a;
  auto [b, dev] = backend_of(a);
  Array src = a;
  if (!a.is_c_contiguous()) {  // make it contiguous on the device, then one transfer
    src = empty(a.shape(), a.dtype(), a.device().str(), s);
    copy_to(a, src, s);
  }
  Array h = loom::empty(a.shape(), a.dtype());
  const auto bytes = static_cast<std::int64_t>(h.size() * h.itemsize());
  b->copy(h.data(), src.data(), static_cast<std::size_t>(bytes), CopyKind::device_to_host, dev,
          s.native());
  if (bytes > 0) detail::count_transfer(*this, dev, CopyKind::device_to_host, bytes);
  return h;
}

void Runtime::copy_to(const Array& src, const Array& dst, const Stream& s) const {
  require_writeable(dst, "copy_to", "the destination");
  require_no_self_overlap(dst, "copy_to", "the destination");
  const Device sd = src.device(), dd = dst.device();
  if (sd.is_host() && dd.is_host()) return copy_cast(src, dst);
  const Shape both[] = {src.shape(), dst.shape()};
  if (broadcast_shapes(both) != dst.shape()) {
    throw ShapeError("copy_to: cannot broadcast " + src.str() + " to " + dst.str());
  }
  if (!sd.is_host() && !dd.is_host() && !(sd == dd)) {
    throw DeviceError("copy_to between two devices (" + src.str() + " to " + dst.str() +
                      ") is not supported; copy through the host");
  }
  if (dd.is_host()) {  // device -> host: a contiguous device copy of dst's dtype, then transfer
    auto [sb, sdev] = backend_of(src);
    if (dst.is_c_contiguous() && src.is_c_contiguous() && src.dtype() == dst.dtype() &&
        src.shape() == dst.shape()) {  // straight into dst (a pinned dst: one DMA)
      const auto bytes = static_cast<std::int64_t>(dst.size() * dst.itemsize());
      detail::pin_on_reuse(*this, *sb, dst);
      sb->copy(dst.data(), src.data(), static_cast<std::size_t>(bytes), CopyKind::device_to_host,
               sdev, s.native());
      if (bytes > 0) detail::count_transfer(*this, sdev, CopyKind::device_to_host, bytes);
      return;
    }
    Array tmp = empty(dst.shape(), dst.dtype(), sd.str(), s);
    copy_to(src, tmp, s);
    copy_cast(to_host(tmp, s), dst);
    return;
  }
  auto [b, dev] = backend_of(dst);
  if (sd.is_host() && src.size() == 1) {  // a scalar: the value travels as a kernel parameter
    CastCall call{};
    const Array ops[] = {dst, dst};
    call.iter = StridedIter::make(ops, dst.shape());
    call.from = src.dtype();
    call.to = dst.dtype();
    call.stream = s.native();
    call.from_value = true;
    std::memcpy(call.value, src.data(), src.itemsize());
    if (dst.size() > 0) b->cast(call, dev);
    return;
  }
  Array from = src;
  if (sd.is_host()) {  // host -> device: ship src as it is (small if broadcast), convert there
    from = to_device(src, dd.str(), s);
  } else if (may_share_memory(src, dst) && !same_elements(src, dst)) {
    // NumPy's copyto reads src before it writes dst: memory both reach goes through a copy.
    from = empty(src.shape(), src.dtype(), sd.str(), s);
    copy_to(src, from, s);
  }
  const Array ops[] = {from.broadcast_to(dst.shape()), dst};
  CastCall call{StridedIter::make(ops, dst.shape()), from.dtype(), dst.dtype(), s.native()};
  if (dst.size() > 0) b->cast(call, dev);
}

Stream Runtime::stream(const std::string& target) const {
  auto [b, dev] = device_target(*this, target);
  Stream st;
  st.backend_ = b;
  st.device_ = dev;
  void* h = b->create_stream(dev);
  // Copies, not the bindings: capturing structured bindings is C++20 that clang < 16 rejects.
  // The deleter holds the runtime's state: the backend outlives every stream (and event) of it.
  st.handle_ = std::shared_ptr<void>(
      h, [b = b, dev = dev, keep = impl_](void* p) { b->destroy_stream(dev, p); });
  return st;
}

void Runtime::synchronize(const std::string& target) const {
  auto [b, dev] = resolve_target(target);
  b->synchronize(dev, nullptr);
}

void Stream::synchronize() const {
  if (backend_) backend_->synchronize(device_, handle_.get());
}

Event Stream::record() const {
  if (!backend_) throw DeviceError("record() on a default-constructed Stream; use Runtime::stream");
  Event e;
  e.backend_ = backend_;
  Backend* b = backend_;
  const int dev = device_;
  e.handle_ = std::shared_ptr<void>(b->create_event(dev), [b, dev, keep = handle_](void* p) {
    b->destroy_event(dev, p);  // `keep`: the stream, and through it the backend
  });
  b->record_event(e.handle_.get(), handle_.get());
  return e;
}

void Stream::wait(const Event& e) const {
  if (!backend_ || !e.valid())
    throw DeviceError("Stream::wait needs a stream and a recorded event");
  backend_->wait_event(handle_.get(), e.native());
}

void Event::synchronize() const {
  if (backend_) backend_->synchronize_event(handle_.get());
}

float Event::elapsed_ms(const Event& earlier) const {
  if (!backend_ || !earlier.valid()) throw DeviceError("elapsed_ms needs two recorded events");
  return backend_->elapsed_ms(earlier.native(), handle_.get());
}

}  // namespace loom
