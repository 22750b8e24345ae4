// Where memory lives: the host, or CUDA device N. Arrays carry it; calls refuse to mix devices.
#pragma once
#include <string>

namespace loom {

enum class DeviceKind : unsigned char { host, cuda };

struct Device {
  DeviceKind kind = DeviceKind::host;
  int index = 0;
  bool operator==(const Device&) const = default;
  bool is_host() const { return kind == DeviceKind::host; }
  std::string str() const {
    return kind == DeviceKind::host ? std::string("host") : "cuda:" + std::to_string(index);
  }
};

}  // namespace loom
