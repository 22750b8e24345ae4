// The backend interface: one small abstract class a backend library implements ("how to run").
// The core has settled types, shapes and outputs before any of these is called.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <utility>

#include "loom/exec.hpp"
#include "loom/kernel.hpp"

namespace loom {

enum class CopyKind : std::uint8_t { host_to_device, device_to_host, device_to_device };

// dst = cast(src) elementwise over a strided iteration (operands {src, dst}) on a device.
struct CastCall {
  StridedIter iter;
  DType from;
  DType to;
  void* stream = nullptr;
  // A host scalar broadcast to every element: `value` holds one element of dtype `from` and
  // operand 0 is ignored. Lets a fill (zeros, a reduction's start, a scalar argument) reach
  // the device as a kernel parameter instead of a synchronizing copy.
  bool from_value = false;
  alignas(16) unsigned char value[16] = {};
  // where=: operand 2 is a bool mask (device memory, broadcast to the shape); elements where it
  // is false keep dst's value.
  bool masked = false;
};

struct Availability {
  bool ok = true;
  std::string reason;  // why not, when !ok ("no CUDA driver")
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;    // library-level name: "serial", "tbb", "cuda"
  virtual std::string target() const = 0;  // target prefix it serves: "cpu", "parallel", "cuda"
  virtual Family family() const = 0;
  virtual Availability availability() const = 0;
  virtual int device_count() const { return 1; }
  virtual std::string describe() const { return {}; }  // device details for loom-info
  virtual int num_threads() const { return 1; }
  // n from 0 (all cores) to Runtime::max_num_threads(), checked by the core.
  virtual void set_num_threads(int) {}

  virtual void run_elementwise(const ElementwiseCall& call, int device) = 0;
  virtual void run_gufunc(const GufuncCall& call, int device) = 0;
  virtual void run_reduce(const ReduceCall& call, int device) = 0;
  // Ufunc methods. Defaults: host backends run them serially (run_scan_range, run_at_serial);
  // device backends call the loop's device_scan / device_at.
  virtual void run_scan(const ScanCall& call, int device);
  virtual void run_at(const AtCall& call, int device);
  // The smallest and largest of m int64 indices in the backend's memory (ufunc.at checks its
  // indices with it: device indices where they are, host ones split over a host backend's
  // threads); {0, -1} when m is 0. Default: host_index_range for host backends.
  virtual std::pair<std::int64_t, std::int64_t> index_range(const std::int64_t* idx, std::int64_t m,
                                                            int device, void* stream);
  // ufunc.at's index gate on a device: begin launches a check of m int64 indices in device memory
  // against [0, rows) that leaves its verdict there (AtCall::gate: the updates queued behind it
  // run only when it is 0) and returns it; end waits for the stream, frees the verdict and says
  // whether every index was inside. Device backends only.
  virtual unsigned* begin_index_gate(const std::int64_t* idx, std::int64_t m, std::int64_t rows,
                                     int device, void* stream);
  virtual bool end_index_gate(unsigned* gate, int device, void* stream);
  // A custom kernel's grid. Host backends run call.impl->host over ranges of block_range(call)
  // (the core has fixed the configuration; a device set's part is a sub-range); a device backend
  // calls call.impl->device, which may fill in an automatic configuration and launches only the
  // call's part. The default throws LaunchError naming the backend.
  virtual void run_kernel(KernelCall& call, int device);

  // Device memory, copies and streams: device backends override these; a host backend is never
  // asked (the defaults throw DeviceError naming the backend). Everything is asynchronous on
  // `stream` (null: the device's default stream) unless it says otherwise.
  virtual std::shared_ptr<Buffer> allocate(std::size_t bytes, int device, void* stream);
  virtual std::shared_ptr<Buffer> allocate_pinned(std::size_t bytes);  // page-locked host memory
  // Page-locks existing host memory in place (cudaHostRegister) until the returned token is
  // destroyed; null when the backend does not, or will not (its limit reached, the driver
  // refused). Default: null.
  virtual std::shared_ptr<void> pin_host(void* ptr, std::size_t bytes);
  // Contiguous bytes. host_to_device / device_to_host from pageable memory go through pinned
  // staging buffers in chunks; the call returns when the host side may be reused (H2D) or holds
  // the data (D2H).
  virtual void copy(void* dst, const void* src, std::size_t bytes, CopyKind kind, int device,
                    void* stream);
  virtual void cast(const CastCall& call, int device);  // strided copy with conversion on device
  virtual void* create_stream(int device);
  virtual void destroy_stream(int device, void* stream);
  virtual void synchronize(int device, void* stream);  // stream null: the whole device
  virtual void* create_event(int device);
  virtual void destroy_event(int device, void* event);
  virtual void record_event(void* event, void* stream);
  virtual void wait_event(void* stream, void* event);  // stream waits, host does not
  virtual void synchronize_event(void* event);         // host waits
  virtual float elapsed_ms(void* start, void* stop);
};

}  // namespace loom
