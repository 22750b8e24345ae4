// Device discovery: what Numba's cuda.detect() prints, read once when the backend loads. Without a
// driver or GPU the backend still loads and says why it is unavailable.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "loom/backend.hpp"

namespace loom::backend::cuda_backend {

struct DeviceInfo {
  int index = 0;
  std::string name;
  int major = 0, minor = 0;  // compute capability
  int sms = 0;               // multiprocessors
  int cores_per_sm = 0;      // FP32 cores per multiprocessor (0: unknown architecture)
  std::size_t memory = 0;    // bytes
  int clock_khz = 0;         // peak SM clock
  int memory_clock_khz = 0;
  int bus_width = 0;  // bits
  int l2_bytes = 0;
};

struct Discovery {
  Availability availability;
  std::vector<DeviceInfo> devices;
};

Discovery discover();
int cores_per_sm(int major, int minor);
// "cuda:0 NVIDIA H100 80GB HBM3: compute capability 9.0, 132 SMs x 128 cores, 79.1 GiB, ..."
std::string describe(const DeviceInfo& d);

}  // namespace loom::backend::cuda_backend
