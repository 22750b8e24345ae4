// loom-bench: Google Benchmark binary for loom's ufuncs, gufuncs, reductions and custom kernels on
// every available target, next to hand-written C++ loops and memcpy. LOOM_BENCH_SMALL=1: 64M -> 4M.
#include <benchmark/benchmark.h>

#include <iostream>

#include "bench.hpp"

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  try {
    // Outlives every benchmark: the registered closures hold handles into it.
    static loom::Runtime rt;
    const loom::bench::Sizes sizes = loom::bench::sizes_from_env();
    for (const auto& t : rt.targets()) {
      if (!t.available) {
        std::cerr << "loom-bench: skipping target " << t.target << ": " << t.reason << "\n";
        continue;
      }
      loom::bench::register_loom_cases(rt, t.target, sizes);
      const bool device = rt.resolve_target(t.target).first->family() != loom::Family::host;
      if (device) loom::bench::register_loom_cases(rt, t.target, sizes, /*device=*/true);
      loom::bench::register_kernel_cases(rt, t.target, sizes, device);
      loom::bench::register_kernel_path_cases(rt, t.target, sizes, device);
      loom::bench::register_method_cases(rt, t.target, sizes, device);
      if (!device) loom::bench::register_outs_cases(rt, t.target, sizes);
      loom::bench::register_catalogue_cases(rt, t.target, sizes, device);
      loom::bench::register_linalg_cases(rt, t.target, sizes);
      if (device) loom::bench::register_linalg_cases(rt, t.target, sizes, /*device=*/true);
      if (device) loom::bench::register_device_set_cases(rt, t.target, sizes);
      loom::bench::register_random_cases(rt, t.target, sizes, device);
      loom::bench::register_stats_cases(rt, t.target, sizes, device);
    }
    loom::bench::register_baselines(sizes);
    loom::bench::register_kernel_path_baselines(sizes);
    loom::bench::register_kernel_baselines(sizes);
  } catch (const loom::Error& e) {
    std::cerr << "loom-bench: " << e.what() << "\n";
    return 1;
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
