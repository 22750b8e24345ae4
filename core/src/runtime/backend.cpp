// Defaults of the device-memory part of the Backend interface: a host backend never gets these
// calls, so reaching one is an error naming the backend.
#include "loom/backend.hpp"

#include <algorithm>

#include "loom/error.hpp"
#include "loom/exec.hpp"

namespace loom {

namespace {
[[noreturn]] void no_device(const Backend& b, const char* what) {
  throw DeviceError("backend '" + b.name() + "' (target '" + b.target() + "') has no device " +
                    "memory: " + what + " is only for device targets such as cuda");
}
}  // namespace

std::shared_ptr<Buffer> Backend::allocate(std::size_t, int, void*) { no_device(*this, "allocate"); }
std::shared_ptr<Buffer> Backend::allocate_pinned(std::size_t) {
  no_device(*this, "allocate_pinned");
}
std::shared_ptr<void> Backend::pin_host(void*, std::size_t) { return nullptr; }
void Backend::copy(void*, const void*, std::size_t, CopyKind, int, void*) {
  no_device(*this, "copy");
}
void Backend::cast(const CastCall&, int) { no_device(*this, "cast"); }
void* Backend::create_stream(int) { no_device(*this, "create_stream"); }
void Backend::destroy_stream(int, void*) { no_device(*this, "destroy_stream"); }
void Backend::synchronize(int, void*) {}  // host work is synchronous: nothing to wait for
void* Backend::create_event(int) { no_device(*this, "create_event"); }
void Backend::destroy_event(int, void*) { no_device(*this, "destroy_event"); }
void Backend::record_event(void*, void*) { no_device(*this, "record_event"); }
void Backend::wait_event(void*, void*) { no_device(*this, "wait_event"); }
void Backend::synchronize_event(void*) { no_device(*this, "synchronize_event"); }
float Backend::elapsed_ms(void*, void*) { no_device(*this, "elapsed_ms"); }

void Backend::run_scan(const ScanCall& call, int) {
  if (family() == Family::host) return run_scan_range(call, 0, shape_size(call.outer_shape));
  if (!call.loop->device_scan) {
    throw LookupError("backend '" + name() + "' has no accumulate loop for " +
                      std::string(loom::name(call.dtype)));
  }
  call.loop->device_scan(call, call.loop->data);
}

void Backend::run_at(const AtCall& call, int) {
  if (family() == Family::host) return run_at_serial(call);
  if (!call.loop->device_at) {
    throw LookupError("backend '" + name() + "' has no at loop for " +
                      std::string(loom::name(call.dtype)));
  }
  call.loop->device_at(call, call.loop->data);
}

std::pair<std::int64_t, std::int64_t> Backend::index_range(const std::int64_t* idx, std::int64_t m,
                                                           int, void*) {
  if (family() != Family::host) no_device(*this, "index_range");
  return host_index_range(idx, m);
}

unsigned* Backend::begin_index_gate(const std::int64_t*, std::int64_t, std::int64_t, int, void*) {
  no_device(*this, "begin_index_gate");
}

bool Backend::end_index_gate(unsigned*, int, void*) { no_device(*this, "end_index_gate"); }

std::pair<std::int64_t, std::int64_t> host_index_range(const std::int64_t* idx, std::int64_t m) {
  std::int64_t lo = m > 0 ? idx[0] : 0, hi = m > 0 ? idx[0] : -1;
  for (std::int64_t j = 1; j < m; ++j) {  // branch-free min/max: the compiler vectorizes it
    lo = std::min(lo, idx[j]);
    hi = std::max(hi, idx[j]);
  }
  return {lo, hi};
}

void Backend::run_kernel(KernelCall& call, int) {
  throw LaunchError("kernel '" + call.name + "': backend '" + name() + "' (target '" + target() +
                    "') cannot run custom kernels");
}

}  // namespace loom
