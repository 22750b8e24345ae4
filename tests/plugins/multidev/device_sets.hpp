// The device sets the device-set suites run on (tests/core/test_device_set.cpp,
// test_device_combine.cpp, tests/kernels/test_device_set.cpp): each set with the one device its
// results are compared with, a readable test name for it, and why a set cannot run here.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <ostream>
#include <string>

#include "loom/runtime.hpp"

namespace loom::test {

// A device set and the one device whose call every result must equal, bit for bit.
struct DeviceSetParam {
  std::string set, one;
};

// gtest prints a failing case's parameter with this (not as the struct's bytes).
inline void PrintTo(const DeviceSetParam& p, std::ostream* os) {
  *os << p.set << " against " << p.one;
}

// multidev's three host devices (every set there runs everywhere), and the GPUs: cuda:all is
// every GPU; on a one-GPU machine it is a set of one, which is valid and runs, but does not
// exercise the split or the merge; cuda:1,0 needs two GPUs and lists them out of order.
inline const DeviceSetParam kDeviceSets[] = {{"multidev:all", "multidev:0"},
                                             {"multidev:2,0", "multidev:0"},
                                             {"cuda:all", "cuda:0"},
                                             {"cuda:1,0", "cuda:0"}};

// "multidev:2,0" -> "multidev_2_0" (gtest names allow letters, digits and '_').
inline std::string device_set_name(const ::testing::TestParamInfo<DeviceSetParam>& i) {
  std::string s = i.param.set;
  for (char& c : s) c = (c == ':' || c == ',') ? '_' : c;
  return s;
}

inline bool is_multidev(const std::string& set) { return set.rfind("multidev:", 0) == 0; }

// Why `set` cannot run on this machine, or nothing: its backend is not on the search path or is
// unavailable (cuda without a GPU), or the set lists a device the machine lacks (cuda:1,0 with
// one GPU).
inline std::optional<std::string> set_unavailable(Runtime& rt, const std::string& set) {
  const std::string base = set.substr(0, set.find(':'));
  bool found = false;
  for (const auto& t : rt.targets()) {
    if (t.target != base) continue;
    if (!t.available) return base + " unavailable: " + t.reason;
    found = true;
  }
  if (!found) return "no backend for target '" + base + "' on the search path";
  const auto have = static_cast<int>(rt.device_targets(base + ":all").size());
  const std::string list = set.substr(set.find(':') + 1);
  int need = 1;
  if (list != "all") {
    for (std::size_t p = 0; p <= list.size();) {
      const std::size_t q = std::min(list.find(',', p), list.size());
      need = std::max(need, std::stoi(list.substr(p, q - p)) + 1);
      p = q + 1;
    }
  }
  if (have < need) {
    return set + " needs " + std::to_string(need) + " devices; this machine has " +
           std::to_string(have);
  }
  return std::nullopt;
}

}  // namespace loom::test
