// Several GPUs of one process (docs/multi-gpu.md): issue 16's figures, each case run on the set of
// every device ("<target>_all") and on a set of the first device alone ("<target>_0"), so the two
// differ only in the number of devices: sinexp float32 and the sum of float32 on sharded device
// arrays, and sinexp on host arrays (each device streaming its rows), beside copy_pinned: n float32
// from pinned host memory to the first device and back, the link's floor for the host rows
// (issue 29). Sizes::device_set elements.
#include <benchmark/benchmark.h>

#include <numbers>

#include "../common/app_util.hpp"
#include "bench.hpp"

namespace loom::bench {

namespace {

// Waits for every device of the set.
void sync_all(const Runtime& rt, const std::vector<std::string>& devices) {
  for (const auto& d : devices) rt.synchronize(d);
}

void set_case(benchmark::State& st, const Runtime& rt, const std::string& what,
              const std::string& set, std::int64_t n) {
  try {
    const std::vector<std::string> devices = rt.device_targets(set);
    const Array x = linspace(0.0, 2 * std::numbers::pi, n).astype(DType::float32);
    const Array y = full({n}, 10.0, DType::float32);
    std::int64_t bytes = 0;
    if (what == "copy_pinned") {  // the floor of the host rows: pinned memory in and out
      const std::string dev = devices.at(0);
      const Array hx = rt.pinned_empty({n}, DType::float32, dev);
      const Array hy = rt.pinned_empty({n}, DType::float32, dev);
      rt.copy_to(x, hx);
      for (auto _ : st) {
        const Array d = rt.to_device(hx, dev);
        rt.copy_to(d, hy);
        rt.synchronize(dev);
      }
      bytes = 2 * n * 4;
    } else if (what == "sinexp_host") {  // host arrays, out= given: the copies in and out are timed
      CallOptions opt{.target = set};
      opt.out = {rt.ufunc("sinexp")(x, y, opt)};
      // A program's steady state: the second crossing page-locks x, y and out in place
      // (docs/cuda.md, "Host arrays that cross again"), about 50 ms per GiB, paid once here.
      rt.ufunc("sinexp")(x, y, opt);
      for (auto _ : st) benchmark::DoNotOptimize(rt.ufunc("sinexp")(x, y, opt).data());
      bytes = 3 * n * 4;
    } else {
      const ShardedArray xs = rt.to_devices(x, set), ys = rt.to_devices(y, set);
      sync_all(rt, devices);
      if (what == "sinexp") {  // a new sharded result per call, every device waited for
        for (auto _ : st) {
          const ShardedArray zs = rt.ufunc("sinexp")(xs, ys);
          sync_all(rt, devices);
          benchmark::DoNotOptimize(zs.count());
        }
        bytes = 3 * n * 4;
      } else {  // sum: each device's partial, combined on the host in device order
        for (auto _ : st) benchmark::DoNotOptimize(rt.reduce("sum")(xs).data());
        bytes = n * 4;
      }
    }
    st.SetBytesProcessed(st.iterations() * bytes);
    st.SetItemsProcessed(st.iterations() * n);
    st.counters["devices"] = static_cast<double>(devices.size());
  } catch (const Error& e) {
    st.SkipWithError(e.what());
  }
}

}  // namespace

void register_device_set_cases(const Runtime& rt, const std::string& target, const Sizes& sizes) {
  const Runtime* r = &rt;
  const std::int64_t n = sizes.device_set;
  for (const char* what : {"sinexp", "sum", "sinexp_host", "copy_pinned"}) {
    for (const std::string& set : {target + ":all", target + ":0"}) {
      // The pinned copy is one link's floor: the first device's (each GPU has its own link).
      if (std::string(what) == "copy_pinned" && set.back() != '0') continue;
      const std::string label = target + (set.back() == '0' ? "_0" : "_all");
      auto* b = benchmark::RegisterBenchmark(
          ("set_" + std::string(what) + "/float32/" + apps::size_label(n) + "/" + label).c_str(),
          [=](benchmark::State& st) { set_case(st, *r, what, set, n); });
      b->UseRealTime()->MinTime(sizes.large_min_time)->Unit(benchmark::kMillisecond);
    }
  }
}

}  // namespace loom::bench
