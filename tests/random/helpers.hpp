// Shared pieces of the random tests: one runtime (the build's backends and plugins, the test
// kernel and the multidev test backend), the targets every test runs on, and bit comparisons.
#pragma once
#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "loom/loom.hpp"
#include "loom/random_arrays.hpp"

namespace loom_random_test {

inline loom::Runtime& runtime() {
  static loom::Runtime rt(loom::RuntimeOptions{
      .plugin_path = {LOOM_RTEST_PLUGINS, LOOM_RTEST_MULTIDEV_DIR}, .use_default_path = true});
  return rt;
}

// Why `target` (or the backend of a device set, "multidev" of "multidev:all") cannot run here.
inline std::optional<std::string> unavailable(const std::string& target) {
  const std::string base = target.substr(0, target.find(':'));
  for (const auto& t : runtime().targets()) {
    if (t.target == base) return t.available ? std::nullopt : std::optional(t.reason);
  }
  return "no backend for target '" + base + "' on the search path";
}

// Every target an array must come out the same on: serial, TBB, a device set of three host
// devices (the multidev test backend), one GPU and every GPU.
inline const std::string kTargets[] = {"cpu", "parallel", "multidev:all", "cuda", "cuda:all"};
inline std::string target_name(const ::testing::TestParamInfo<std::string>& i) {
  std::string s = i.param;
  for (char& c : s) c = (c == ':') ? '_' : c;
  return s;
}

// The array's bytes, from wherever it lives, in C order.
inline std::vector<unsigned char> bytes_of(const loom::Array& a) {
  const loom::Array h = a.device().is_host() ? a : runtime().to_host(a);
  const loom::Array c = h.is_c_contiguous() ? h : h.copy();
  const auto* p = static_cast<const unsigned char*>(static_cast<const void*>(c.data()));
  return std::vector<unsigned char>(p, p + c.size() * loom::itemsize(c.dtype()));
}

}  // namespace loom_random_test
