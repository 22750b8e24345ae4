// The CUDA backend (targets "cuda" and "cuda:N"): device discovery, stream-ordered device memory
// from each device's default pool (kept cached: repeated calls never reach cudaMalloc), pinned
// staging for host transfers, casts, streams and events; calls run the plugin's device loops,
// which launch asynchronously on the call's stream. The runtime is linked statically, so the
// library loads without a driver and reports why it is unavailable.
#include <cuda_runtime_api.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>

#include "cast.hpp"
#include "check.hpp"
#include "devices.hpp"
#include "host_copy.hpp"
#include "index_range.hpp"
#include "loom/plugin.hpp"
#include "staging.hpp"

namespace loom::backend::cuda_backend {

namespace {

std::string dev_name(int device) { return "cuda:" + std::to_string(device); }

}  // namespace

class CudaBackend final : public Backend {
 public:
  CudaBackend() : found_(discover()) {
    // A copier per device: a device set's parts stage their rows at once, each on its share of
    // the cores, instead of queueing for one copier.
    const int n = std::max<int>(1, static_cast<int>(found_.devices.size()));
    const int threads =
        std::clamp(static_cast<int>(std::thread::hardware_concurrency()) / n, 2, 16);
    for (const auto& d : found_.devices)
      states_.push_back(std::make_unique<DeviceState>(d.index, threads));
  }

  std::string name() const override { return "cuda"; }
  std::string target() const override { return "cuda"; }
  Family family() const override { return Family::cuda; }
  Availability availability() const override { return found_.availability; }
  int device_count() const override { return static_cast<int>(found_.devices.size()); }
  std::string describe() const override {
    std::string s;
    for (const auto& d : found_.devices) s += (s.empty() ? "" : "; ") + cuda_backend::describe(d);
    return s;
  }

  void run_elementwise(const ElementwiseCall& c, int device) override {
    DeviceState& st = select(device);
    if (!c.loop || !c.loop->device_elementwise) missing_loop("elementwise");
    if (c.host_operands != 0) {
      st.staging.run_elementwise(c);
    } else {
      c.loop->device_elementwise(c, c.loop->data);
    }
  }
  void run_gufunc(const GufuncCall& c, int device) override {
    select(device);
    if (!c.loop || !c.loop->device_gufunc) missing_loop("gufunc");
    c.loop->device_gufunc(c, c.loop->data);
  }
  void run_reduce(const ReduceCall& c, int device) override {
    select(device);
    if (!c.loop || !c.loop->device_reduce) missing_loop("reduce");
    c.loop->device_reduce(c, c.loop->data);
  }
  void run_scan(const ScanCall& c, int device) override {
    select(device);
    if (!c.loop || !c.loop->device_scan) missing_loop("accumulate");
    c.loop->device_scan(c, c.loop->data);
  }
  void run_at(const AtCall& c, int device) override {
    select(device);
    if (!c.loop || !c.loop->device_at) missing_loop("at");
    c.loop->device_at(c, c.loop->data);
  }
  std::pair<std::int64_t, std::int64_t> index_range(const std::int64_t* idx, std::int64_t m,
                                                    int device, void* stream) override {
    select(device);
    return cuda_backend::index_range(idx, m, static_cast<cudaStream_t>(stream));
  }
  unsigned* begin_index_gate(const std::int64_t* idx, std::int64_t m, std::int64_t rows, int device,
                             void* stream) override {
    select(device);
    return cuda_backend::begin_index_gate(idx, m, rows, static_cast<cudaStream_t>(stream));
  }
  bool end_index_gate(unsigned* gate, int device, void* stream) override {
    select(device);
    return cuda_backend::end_index_gate(gate, static_cast<cudaStream_t>(stream));
  }
  void run_kernel(KernelCall& c, int device) override {
    select(device);
    if (!c.impl || !c.impl->device) {
      throw DeviceError("cuda: kernel '" + c.name + "' has no CUDA device loop for this overload " +
                        "(its plugin has no CUDA half)");
    }
    // The device loop completes an automatic configuration, checks it and launches on c.stream.
    c.impl->device(c, c.impl->data);
  }

  std::shared_ptr<Buffer> allocate(std::size_t bytes, int device, void* stream) override {
    DeviceState& st = select(device);
    if (bytes == 0)
      return std::make_shared<Buffer>(nullptr, 0, Device{DeviceKind::cuda, device}, nullptr);
    const auto s = static_cast<cudaStream_t>(stream);
    void* p = nullptr;
    cudaError_t e = cudaMallocAsync(&p, bytes, s);
    if (e == cudaErrorMemoryAllocation) {
      // The pool keeps freed blocks cached: give them back to the device and try once more.
      (void)cudaGetLastError();
      (void)cudaDeviceSynchronize();
      (void)cudaMemPoolTrimTo(st.pool, 0);
      e = cudaMallocAsync(&p, bytes, s);
    }
    if (e == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();
      std::size_t free = 0, total = 0;
      (void)cudaMemGetInfo(&free, &total);
      (void)cudaGetLastError();
      throw DeviceError(dev_name(device) + ": out of device memory: asked for " + bytes_str(bytes) +
                        ", " + bytes_str(free) + " free of " + bytes_str(total) +
                        " (cudaMallocAsync: " + cudaGetErrorString(e) +
                        "); free device arrays or work in smaller pieces");
    }
    check(e, "cudaMallocAsync");
    // Freed on the legacy default stream, which waits for work on every (blocking) stream, so
    // the block cannot be reused while a kernel on another stream still reads it.
    return std::make_shared<Buffer>(p, bytes, Device{DeviceKind::cuda, device}, [device](void* q) {
      int prev = -1;
      if (cudaGetDevice(&prev) != cudaSuccess) {
        (void)cudaGetLastError();
        return;  // CUDA already shut down (process exit): the driver reclaims the memory
      }
      if (prev != device) (void)cudaSetDevice(device);
      (void)cudaFreeAsync(q, nullptr);
      if (prev != device) (void)cudaSetDevice(prev);
      (void)cudaGetLastError();
    });
  }

  std::shared_ptr<Buffer> allocate_pinned(std::size_t bytes) override {
    require_available("allocate_pinned");
    if (bytes == 0) return std::make_shared<Buffer>(nullptr, 0, Device{}, nullptr);
    void* p = nullptr;
    const cudaError_t e = cudaHostAlloc(&p, bytes, cudaHostAllocPortable);
    if (e == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();
      throw DeviceError("cuda: cannot allocate " + bytes_str(bytes) +
                        " of pinned (page-locked) host memory: " + cudaGetErrorString(e));
    }
    check(e, "cudaHostAlloc");
    return std::make_shared<Buffer>(p, bytes, Device{}, [](void* q) {
      (void)cudaFreeHost(q);
      (void)cudaGetLastError();
    });
  }

  // cudaHostRegister (portable: every device DMAs from it) of a host buffer that crosses again,
  // up to half of the host's memory in all: locked pages cannot be swapped out.
  std::shared_ptr<void> pin_host(void* ptr, std::size_t bytes) override {
    if (!found_.availability.ok || bytes == 0) return nullptr;
    static const std::size_t limit = static_cast<std::size_t>(sysconf(_SC_PHYS_PAGES)) *
                                     static_cast<std::size_t>(sysconf(_SC_PAGESIZE)) / 2;
    if (pinned_in_place_.fetch_add(bytes) + bytes > limit) {
      pinned_in_place_.fetch_sub(bytes);
      return nullptr;
    }
    if (cudaHostRegister(ptr, bytes, cudaHostRegisterPortable) != cudaSuccess) {
      (void)cudaGetLastError();  // the driver refused (a locked-memory limit): staging, as before
      pinned_in_place_.fetch_sub(bytes);
      return nullptr;
    }
    return std::shared_ptr<void>(ptr, [this, bytes](void* p) {
      (void)cudaHostUnregister(p);
      (void)cudaGetLastError();
      pinned_in_place_.fetch_sub(bytes);
    });
  }

  void copy(void* dst, const void* src, std::size_t bytes, CopyKind kind, int device,
            void* stream) override {
    DeviceState& st = select(device);
    if (bytes == 0) return;
    const auto s = static_cast<cudaStream_t>(stream);
    switch (kind) {
      case CopyKind::host_to_device:
        st.staging.to_device(dst, src, bytes, s);
        break;
      case CopyKind::device_to_host:
        st.staging.to_host(dst, src, bytes, s);
        break;
      case CopyKind::device_to_device:
        check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, s),
              "cudaMemcpyAsync (device to device)");
        break;
    }
  }

  void cast(const CastCall& c, int device) override {
    select(device);
    launch_cast(c);
  }

  void* create_stream(int device) override {
    select(device);
    cudaStream_t s = nullptr;
    // Blocking (default flags): the legacy stream that frees buffers waits for it.
    check(cudaStreamCreate(&s), "cudaStreamCreate");
    return s;
  }
  void destroy_stream(int device, void* stream) override {
    select(device);
    check(cudaStreamDestroy(static_cast<cudaStream_t>(stream)), "cudaStreamDestroy");
  }
  void synchronize(int device, void* stream) override {
    select(device);
    if (stream) {
      check(cudaStreamSynchronize(static_cast<cudaStream_t>(stream)), "cudaStreamSynchronize");
    } else {
      check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    }
  }
  void* create_event(int device) override {
    select(device);
    cudaEvent_t e = nullptr;
    check(cudaEventCreate(&e), "cudaEventCreate");
    return e;
  }
  void destroy_event(int, void* event) override {
    check(cudaEventDestroy(static_cast<cudaEvent_t>(event)), "cudaEventDestroy");
  }
  void record_event(void* event, void* stream) override {
    check(cudaEventRecord(static_cast<cudaEvent_t>(event), static_cast<cudaStream_t>(stream)),
          "cudaEventRecord");
  }
  void wait_event(void* stream, void* event) override {
    check(
        cudaStreamWaitEvent(static_cast<cudaStream_t>(stream), static_cast<cudaEvent_t>(event), 0),
        "cudaStreamWaitEvent");
  }
  void synchronize_event(void* event) override {
    check(cudaEventSynchronize(static_cast<cudaEvent_t>(event)), "cudaEventSynchronize");
  }
  float elapsed_ms(void* start, void* stop) override {
    float ms = 0;
    check(
        cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(start), static_cast<cudaEvent_t>(stop)),
        "cudaEventElapsedTime");
    return ms;
  }

 private:
  struct DeviceState {
    DeviceState(int device, int threads) : copier(threads), staging(device, copier) {}
    std::once_flag init;
    cudaMemPool_t pool = nullptr;
    HostCopier copier;  // before staging, which uses it until it is destroyed
    Staging staging;
  };

  void require_available(const char* what) const {
    if (!found_.availability.ok) {
      throw DeviceError(std::string("cuda: ") + what +
                        ": the CUDA backend is unavailable: " + found_.availability.reason);
    }
  }

  [[noreturn]] static void missing_loop(const char* kind) {
    throw DeviceError(std::string("cuda: the call has no CUDA ") + kind +
                      " loop (the op's plugin has no CUDA half for this signature)");
  }

  // Makes `device` current; the first time, sets its default pool to keep freed memory cached.
  DeviceState& select(int device) {
    require_available("device call");
    if (device < 0 || device >= device_count()) {
      throw DeviceError("cuda: device " + std::to_string(device) + " does not exist (" +
                        std::to_string(device_count()) + " device(s))");
    }
    check(cudaSetDevice(device), "cudaSetDevice");
    DeviceState& st = *states_[device];
    std::call_once(st.init, [&] {
      check(cudaDeviceGetDefaultMemPool(&st.pool, device), "cudaDeviceGetDefaultMemPool");
      std::uint64_t keep = UINT64_MAX;
      check(cudaMemPoolSetAttribute(st.pool, cudaMemPoolAttrReleaseThreshold, &keep),
            "cudaMemPoolSetAttribute(ReleaseThreshold)");
    });
    return st;
  }

  Discovery found_;
  std::vector<std::unique_ptr<DeviceState>> states_;
  std::atomic<std::size_t> pinned_in_place_{0};  // bytes locked by pin_host, not yet released
};

Backend* make_cuda() { return new CudaBackend(); }

}  // namespace loom::backend::cuda_backend

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "cuda", loom::Family::cuda, nullptr,
                              &loom::backend::cuda_backend::make_cuda}))
