// Device discovery through the CUDA runtime (linked statically: it loads without a driver).
#include "devices.hpp"

#include <cuda_runtime_api.h>

#include <cstdio>

#include "check.hpp"

namespace loom::backend::cuda_backend {

std::string bytes_str(std::size_t bytes) {
  char buf[64];
  const double gib = static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0);
  if (gib >= 1.0) {
    std::snprintf(buf, sizeof buf, "%.1f GiB", gib);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  }
  return std::string(buf) + " (" + std::to_string(bytes) + " bytes)";
}

// FP32 lanes per multiprocessor by compute capability (the CUDA programming guide's table, as
// Numba's and the CUDA samples' _ConvertSMVer2Cores).
int cores_per_sm(int major, int minor) {
  switch (major) {
    case 3: return 192;
    case 5: return 128;
    case 6: return minor == 0 ? 64 : 128;
    case 7: return 64;
    case 8: return minor == 0 ? 64 : 128;
    case 9: return 128;
    case 10: return 128;
    case 11: return 128;
    case 12: return 128;
    default: return 0;
  }
}

Discovery discover() {
  Discovery out;
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    out.availability = {false, std::string("cudaGetDeviceCount: ") + cudaGetErrorString(e) +
                                   " (" + cudaGetErrorName(e) + ", error " +
                                   std::to_string(static_cast<int>(e)) + ")"};
    return out;
  }
  if (n == 0) {
    out.availability = {false, "no CUDA device found (cudaGetDeviceCount returned 0)"};
    return out;
  }
  for (int i = 0; i < n; ++i) {
    cudaDeviceProp p{};
    const cudaError_t pe = cudaGetDeviceProperties(&p, i);
    if (pe != cudaSuccess) {
      (void)cudaGetLastError();
      out.availability = {false, "cudaGetDeviceProperties(" + std::to_string(i) +
                                     "): " + cudaGetErrorString(pe)};
      out.devices.clear();
      return out;
    }
    DeviceInfo d;
    d.index = i;
    d.name = p.name;
    d.major = p.major;
    d.minor = p.minor;
    d.sms = p.multiProcessorCount;
    d.cores_per_sm = cores_per_sm(p.major, p.minor);
    d.memory = p.totalGlobalMem;
    d.bus_width = p.memoryBusWidth;
    d.l2_bytes = p.l2CacheSize;
    // CUDA 13 dropped the clock fields of cudaDeviceProp; the attributes remain.
    if (cudaDeviceGetAttribute(&d.clock_khz, cudaDevAttrClockRate, i) != cudaSuccess) {
      d.clock_khz = 0;
    }
    if (cudaDeviceGetAttribute(&d.memory_clock_khz, cudaDevAttrMemoryClockRate, i) != cudaSuccess) {
      d.memory_clock_khz = 0;
    }
    (void)cudaGetLastError();
    out.devices.push_back(std::move(d));
  }
  return out;
}

std::string describe(const DeviceInfo& d) {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "cuda:%d %s: compute capability %d.%d, %d SMs x %d cores = %d cores, %.1f GiB, "
                "%d MHz, memory %d MHz x %d-bit, L2 %d MiB",
                d.index, d.name.c_str(), d.major, d.minor, d.sms, d.cores_per_sm,
                d.sms * d.cores_per_sm,
                static_cast<double>(d.memory) / (1024.0 * 1024.0 * 1024.0), d.clock_khz / 1000,
                d.memory_clock_khz / 1000, d.bus_width, d.l2_bytes / (1024 * 1024));
  return buf;
}

}  // namespace loom::backend::cuda_backend
