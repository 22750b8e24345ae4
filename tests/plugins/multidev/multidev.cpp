// A host backend with three "devices" (target "multidev"), for the device-set tests on machines
// without GPUs: each call runs the host loops, as the serial backend does, and is logged with its
// device and size so that a test can see how a device set split it. LOOM_TEST_MULTIDEV_FAIL=<d>
// makes every call on device d throw, as a failing GPU would.
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include "loom/error.hpp"
#include "loom/plugin.hpp"

namespace {

struct Logged {
  int device;
  std::int64_t size;
};
std::mutex log_mutex;
std::vector<Logged> log_entries;

class MultiDev final : public loom::Backend {
 public:
  std::string name() const override { return "multidev"; }
  std::string target() const override { return "multidev"; }
  loom::Family family() const override { return loom::Family::host; }
  loom::Availability availability() const override { return {}; }
  int device_count() const override { return 3; }
  std::string describe() const override { return "test backend, 3 host devices"; }

  void run_elementwise(const loom::ElementwiseCall& c, int d) override {
    note(d, c.iter.size());
    loom::run_elementwise_range(c, 0, c.iter.size());
  }
  void run_gufunc(const loom::GufuncCall& c, int d) override {
    note(d, c.outer.size());
    loom::run_gufunc_range(c, 0, c.outer.size());
  }
  void run_reduce(const loom::ReduceCall& c, int d) override {
    note(d, c.iter.size());
    loom::run_reduce_range(c, 0, c.iter.size());
  }

 private:
  static void note(int d, std::int64_t size) {
    const char* fail = std::getenv("LOOM_TEST_MULTIDEV_FAIL");
    if (fail && std::atoi(fail) == d) {
      throw loom::DeviceError("multidev:" + std::to_string(d) +
                              " failed (LOOM_TEST_MULTIDEV_FAIL)");
    }
    std::lock_guard lock(log_mutex);
    log_entries.push_back({d, size});
  }
};

loom::Backend* make_backend() { return new MultiDev(); }

}  // namespace

// The log, for the tests (found with dlsym): how many calls ran with a nonzero size on device d,
// and their total size; reset clears it.
extern "C" [[gnu::visibility("default")]] std::int64_t loom_test_multidev_rows(int d, int* calls) {
  std::lock_guard lock(log_mutex);
  std::int64_t total = 0;
  *calls = 0;
  for (const auto& e : log_entries) {
    if (e.device != d || e.size == 0) continue;
    total += e.size;
    ++*calls;
  }
  return total;
}
extern "C" [[gnu::visibility("default")]] void loom_test_multidev_reset() {
  std::lock_guard lock(log_mutex);
  log_entries.clear();
}

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "multidev", loom::Family::host, nullptr,
                              &make_backend}))
