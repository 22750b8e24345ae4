// Shared pieces of the kernel tests: one runtime (the build's backends and plugins plus the test
// kernels), the fixture that runs a test once per target and memory, and small references.
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "loom/atomic.hpp"
#include "loom/loom.hpp"

namespace loom_kernel_test {

using loom::Array;
using loom::DType;
using loom::Extent;
using loom::LaunchConfig;
using loom::Shape;

inline const std::string kTestPlugins = LOOM_KTEST_PLUGINS;
inline const std::string kExtraPlugins = LOOM_KTEST_EXTRA;

// The build's default search path (serial, tbb, cuda, math, kernels) and the test kernels.
inline loom::RuntimeOptions options() {
  return loom::RuntimeOptions{.plugin_path = {kTestPlugins}, .use_default_path = true};
}
inline loom::Runtime& runtime() {
  static loom::Runtime rt(options());
  return rt;
}

// Why `target` cannot run here, or nothing when it can.
inline std::optional<std::string> unavailable(const std::string& target) {
  for (const auto& t : runtime().targets()) {
    if (t.target == target) return t.available ? std::nullopt : std::optional(t.reason);
  }
  return "no backend for target '" + target + "' on the search path";
}

// Where a test runs: the target, and on cuda whether the arrays are device arrays (made with
// rt.to_device; results stay there) or host arrays (copied in and back by launch).
// On host targets, `fibers` runs every block's threads as fibers (LaunchConfig::host_fibers), the
// general path each kernel's own host path must match (docs/kernels.md, "Host paths").
struct Where {
  std::string target;
  bool device_arrays = false;
  bool fibers = false;
  std::string name() const {
    return target + (target == "cuda" ? (device_arrays ? "_device" : "_host") : "") +
           (fibers ? "_fibers" : "");
  }
};
inline const Where kEveryWhere[] = {{"cpu", false},       {"parallel", false},
                                    {"cpu", false, true}, {"parallel", false, true},
                                    {"cuda", true},       {"cuda", false}};
inline void PrintTo(const Where& w, std::ostream* os) { *os << w.name(); }
inline std::string where_name(const ::testing::TestParamInfo<Where>& i) { return i.param.name(); }

// A test run once per Where (or per tuple whose first member is a Where): skipped with the reason
// where the target cannot run here.
template <class P>
class KernelTestOf : public ::testing::TestWithParam<P> {
 protected:
  static const Where& where_of(const Where& w) { return w; }
  template <class... R>
  static const Where& where_of(const std::tuple<Where, R...>& t) {
    return std::get<0>(t);
  }
  const Where& where() const { return where_of(this->GetParam()); }

  void SetUp() override {
    if (auto why = unavailable(target())) {
      GTEST_SKIP() << "target '" << target() << "' unavailable: " << *why;
    }
  }
  const std::string& target() const { return where().target; }
  bool on_host() const { return target() != "cuda"; }
  bool serial() const { return target() == "cpu"; }
  loom::Runtime& rt() const { return runtime(); }

  // An argument for the kernel: a device copy when the test uses device arrays.
  Array put(const Array& h) const {
    return where().device_arrays ? rt().to_device(h, target()) : h;
  }
  // What the kernel left in an argument, on the host.
  Array get(const Array& a) const { return a.device().is_host() ? a : rt().to_host(a); }

  LaunchConfig config(Extent blocks, Extent threads, std::size_t shared = 0) const {
    return LaunchConfig{.blocks = blocks,
                        .threads = threads,
                        .shared_bytes = shared,
                        .host_fibers = where().fibers,
                        .target = target()};
  }
  // Blocks and threads chosen by the target; `size` not given: a grid that fills the device.
  LaunchConfig config_auto(loom::LaunchSize size = {}) const {
    return LaunchConfig{.size = size, .host_fibers = where().fibers, .target = target()};
  }
  template <class... A>
  void launch(const std::string& kernel, const LaunchConfig& c, const A&... args) const {
    rt().kernel(kernel).launch(c, args...);
  }
};
using KernelTest = KernelTestOf<Where>;

// n values uniform in [lo, hi), of dtype T; whole numbers when T is an integer.
template <class T>
std::vector<T> random_values(std::size_t n, unsigned seed, double lo = -100, double hi = 100) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  std::vector<T> v(n);
  for (auto& x : v) {
    const double d = u(gen);
    x = static_cast<T>(std::is_integral_v<T> ? std::floor(d) : d);
  }
  return v;
}

// The distance in units in the last place between two finite floats of the same sign class.
template <class T>
std::int64_t ulp_distance(T a, T b) {
  using I = std::conditional_t<sizeof(T) == 4, std::int32_t, std::int64_t>;
  if (a == b) return 0;
  I ia, ib;
  std::memcpy(&ia, &a, sizeof(T));
  std::memcpy(&ib, &b, sizeof(T));
  // Map the sign-magnitude bit patterns to a monotonic integer line.
  const auto line = [](I i) -> std::int64_t {
    return i < 0 ? -static_cast<std::int64_t>(i & std::numeric_limits<I>::max()) : i;
  };
  const std::int64_t d = line(ia) - line(ib);
  return d < 0 ? -d : d;
}

template <class T>
std::vector<T> values_of(const Array& a) {
  return a.to_vector<T>();
}

// Calls f(T{}) for T the C++ type of dtype d, one of the atomics' six types.
template <class F>
void with_type(DType d, F&& f) {
  loom::visit_dtype(d, [&](auto t) {
    if constexpr (loom::atomic_value<decltype(t)>) {
      f(t);
    } else {
      ADD_FAILURE() << "no atomic C++ type for " << loom::name(d);
    }
  });
}

}  // namespace loom_kernel_test
