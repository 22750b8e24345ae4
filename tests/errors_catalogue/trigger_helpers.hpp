// Helpers the catalogue's triggers (triggers.cpp) share: runtimes with particular plugins, skips,
// a fake device array, and small functors for hand-made descriptors. Included by triggers.cpp only.
#pragma once
#include <optional>
#include <string>

#include "catalogue.hpp"
#include "loom/exec.hpp"
#include "loom/runtime.hpp"
#include "loom/view.hpp"

namespace loom::catalogue {

inline const std::string kSerialDir = LOOM_CAT_SERIAL_DIR;
inline const std::string kGoodDir = LOOM_CAT_GOOD_DIR;
inline const std::string kBrokenDir = LOOM_CAT_BROKEN_DIR;
inline const std::string kCatDir = LOOM_CAT_PLUGIN_DIR;

// The runtime a user gets: the default search path of this build (serial, math, tbb if built).
inline Runtime& rt() {
  static Runtime r;
  return r;
}
// Serial backend and libloom_testops only (as tests/plugins uses them).
inline Runtime fresh_test_rt() {
  return Runtime(RuntimeOptions{.plugin_path = {kSerialDir, kGoodDir}, .use_default_path = false});
}
inline Runtime& test_rt() {
  static Runtime r = fresh_test_rt();
  return r;
}

inline std::optional<std::string> unavailable_reason(const std::string& target) {
  for (const auto& t : rt().targets()) {
    if (t.target == target) {
      return t.available ? std::nullopt : std::optional<std::string>(t.reason);
    }
  }
  return std::string("no backend for target '" + target + "' on the search path");
}
inline void need_gpu() {
  if (auto r = unavailable_reason("cuda")) throw Skip{"needs a GPU and the cuda backend: " + *r};
}
[[noreturn]] inline void internal(const std::string& why) {
  throw Skip{"internal check, not reachable through the public API: " + why};
}

// A host pointer dressed as an array on CUDA device `dev`: enough for the checks that look at
// an array's device before touching its memory (no GPU needed; nothing ever reads it).
inline Array fake_device(Shape shape, int dev = 0) {
  static double storage[64];
  return wrap(storage, std::move(shape), DType::float64, {}, {}, Device{DeviceKind::cuda, dev});
}

// The runtime a user gets plus the catalogue's rule-breaking kernels (cat_read_past_end,
// cat_sync_undeclared, cat_barrier_divergent, cat_warp_undeclared, cat_warp_misuse), loaded once.
inline Runtime& kernel_rt() {
  static Runtime r;
  static const bool loaded = (r.load_library(kCatDir + "/libloom_cat_kernels.so"), true);
  (void)loaded;
  return r;
}

// The runtime a user gets plus a binary ufunc whose only loop is float64(int32,int32)
// (cat_ratio), loaded once.
inline Runtime& mixed_rt() {
  static Runtime r;
  static const bool loaded = (r.load_library(kCatDir + "/libloom_cat_mixed_loop.so"), true);
  (void)loaded;
  return r;
}

// A device-family backend that keeps Backend's default run_scan / run_at, which call the loop's
// device_scan / device_at: what a CUDA-family backend meets in a loop a plugin filled by hand
// without them. Only the methods' defaults are called on it.
class DeviceDefaults final : public Backend {
 public:
  std::string name() const override { return "device_defaults"; }
  std::string target() const override { return "device_defaults"; }
  Family family() const override { return Family::cuda; }
  Availability availability() const override { return {}; }
  void run_elementwise(const ElementwiseCall&, int) override {}
  void run_gufunc(const GufuncCall&, int) override {}
  void run_reduce(const ReduceCall&, int) override {}
};

// add_kernel on three float32 arrays of 8 elements with this configuration.
inline void launch_add(Runtime& r, const LaunchConfig& c) {
  const Array x = zeros({8}, DType::float32);
  Array out = zeros({8}, DType::float32);
  r.kernel("add_kernel").launch(c, x, x, out);
}

struct Neg {
  template <class T>
  T operator()(T a) const {
    return -a;
  }
};
struct Plus {
  template <class T>
  T operator()(T a, T b) const {
    return a + b;
  }
};
struct Dot2 {  // views of ranks (1),(1)->(1)
  template <class T>
  void operator()(View<const T, 1> a, View<const T, 1>, View<T, 1> out) const {
    out(0) = a(0);
  }
};
struct TwoArgs {  // two views for a three-argument layout
  template <class T>
  void operator()(View<const T, 1> a, View<T, 0> out) const {
    out() = a(0);
  }
};

}  // namespace loom::catalogue
