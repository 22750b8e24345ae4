// A host backend with three "devices" (target "multidev"), for the device-set tests on machines
// without GPUs: each call runs the host loops, as the serial backend does, and is logged with its
// device and size (elements, or a kernel's blocks) so that a test can see how a device set split
// it. LOOM_TEST_MULTIDEV_FAIL=<d> makes every call on device d throw, as a failing GPU would. Its
// collectives (as NCCL's for cuda) combine partials in reverse device order, so that a test can
// tell them from the host's fixed order; LOOM_TEST_MULTIDEV_COLL=off makes them unavailable.
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "loom/error.hpp"
#include "loom/float16.hpp"
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
  void run_kernel(loom::KernelCall& c, int d) override {  // logs the blocks it runs
    const loom::BlockRange r = loom::block_range(c);
    note(d, r.end - r.begin);
    c.impl->host(c, r.begin, r.end, c.impl->data);
  }

 public:  // the collectives below note their devices too
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

int collective_calls = 0;  // under log_mutex

template <class T>
T apply(loom::CollectiveOp op, T a, T b) {
  switch (op) {
    case loom::CollectiveOp::sum:
      return static_cast<T>(a + b);
    case loom::CollectiveOp::prod:
      return static_cast<T>(a * b);
    case loom::CollectiveOp::max:
      return b > a ? b : a;
    case loom::CollectiveOp::min:
      return b < a ? b : a;
  }
  return a;
}

template <class T>
void fold(std::span<void* const> bufs, std::int64_t n, loom::CollectiveOp op) {
  auto* root = static_cast<T*>(bufs[0]);
  for (std::int64_t j = 0; j < n; ++j) {
    T acc = static_cast<const T*>(bufs.back())[j];
    for (std::size_t i = bufs.size() - 1; i-- > 0;) {
      acc = apply(op, acc, static_cast<const T*>(bufs[i])[j]);
    }
    root[j] = acc;
  }
}

class MultiDevCollectives final : public loom::Collectives {
 public:
  std::string name() const override { return "multidev-coll"; }
  std::string target() const override { return "multidev"; }
  loom::Availability availability() const override {
    const char* off = std::getenv("LOOM_TEST_MULTIDEV_COLL");
    if (off && std::string(off) == "off") return {false, "switched off (LOOM_TEST_MULTIDEV_COLL)"};
    return {};
  }
  std::string unsupported(loom::DType t, loom::CollectiveOp) const override {
    switch (t) {  // NCCL's list
      case loom::DType::int16:
      case loom::DType::uint16:
      case loom::DType::complex64:
      case loom::DType::complex128:
        return "no " + std::string(loom::name(t)) + " reductions";
      default:
        return {};
    }
  }
  void reduce(std::span<void* const> bufs, std::span<const int> devices, std::int64_t n,
              loom::DType t, loom::CollectiveOp op) override {
    for (int d : devices) MultiDev::note(d, 0);  // a failing device fails here too
    {
      std::lock_guard lock(log_mutex);
      ++collective_calls;
    }
    using D = loom::DType;
    switch (t) {
      case D::bool_:
      case D::uint8:
        return fold<std::uint8_t>(bufs, n, op);
      case D::int8:
        return fold<std::int8_t>(bufs, n, op);
      case D::int32:
        return fold<std::int32_t>(bufs, n, op);
      case D::uint32:
        return fold<std::uint32_t>(bufs, n, op);
      case D::int64:
        return fold<std::int64_t>(bufs, n, op);
      case D::uint64:
        return fold<std::uint64_t>(bufs, n, op);
      case D::float32:
        return fold<float>(bufs, n, op);
      case D::float64:
        return fold<double>(bufs, n, op);
      default:
        throw loom::ValueError("multidev-coll: " + unsupported(t, op));
    }
  }
  std::string make_group_id() override { return "multidev"; }
  std::unique_ptr<loom::CollectiveGroup> join_group(const std::string&, int, int, int) override {
    throw loom::ValueError("multidev-coll: no process groups");
  }
};

loom::Collectives* make_collectives() { return new MultiDevCollectives(); }

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
  collective_calls = 0;
}
// Collective reductions since reset.
extern "C" [[gnu::visibility("default")]] int loom_test_multidev_collectives() {
  std::lock_guard lock(log_mutex);
  return collective_calls;
}

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "multidev", loom::Family::host, nullptr,
                              &make_backend}))
LOOM_COLLECTIVES(make_collectives)
