// loom::stats's cases (issue 28, docs/stats.md): mean, var and argmax of sizes.large float32,
// bincount of int32 in [0, 1000) and histogram of float32 into 100 equal bins, on host arrays
// (host targets) or device arrays (device targets, kDeviceBatch calls per synchronize).
// bench/peers/peers.py has NumPy's and CuPy's cases of the same names. A target without the stats
// plugin gets error rows; --benchmark_filter='^stats' runs these alone.
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "../common/app_util.hpp"
#include "bench.hpp"
#include "loom/stats.hpp"

namespace loom::bench {

namespace {

constexpr int kDeviceBatch = 8;
constexpr std::int64_t kValues = 1000;  // bincount's inputs lie in [0, kValues)
constexpr std::int64_t kBins = 100;     // histogram's equal bins over [0, 1)

enum class Stat { mean, var, argmax, bincount, histogram };

const char* stat_name(Stat s) {
  switch (s) {
    case Stat::mean:
      return "stats_mean";
    case Stat::var:
      return "stats_var";
    case Stat::argmax:
      return "stats_argmax";
    case Stat::bincount:
      return "stats_bincount";
    default:
      return "stats_histogram";
  }
}

// Uniform-ish float32 in [0, 1) (or int32 in [0, kValues)) from an LCG, on the host.
Array input(Stat s, std::int64_t n) {
  std::uint64_t z = 2028;
  if (s == Stat::bincount) {
    std::vector<std::int32_t> v(static_cast<std::size_t>(n));
    for (auto& e : v) {
      z = z * 6364136223846793005ull + 1442695040888963407ull;
      e = static_cast<std::int32_t>((z >> 33) % kValues);
    }
    return from_vector(v);
  }
  std::vector<float> v(static_cast<std::size_t>(n));
  for (auto& e : v) {
    z = z * 6364136223846793005ull + 1442695040888963407ull;
    e = static_cast<float>(static_cast<double>(z >> 40) / 16777216.0);
  }
  return from_vector(v);
}

void stat_case(benchmark::State& st, const Runtime& rt, Stat s, const std::string& target,
               std::int64_t n, bool device) {
  try {
    const Array host = input(s, n);
    const Array x = device ? rt.to_device(host, target) : host;
    auto call = [&] {
      switch (s) {
        case Stat::mean:
          return stats::mean(rt, x, {.target = target});
        case Stat::var:
          return stats::var(rt, x, {.target = target});
        case Stat::argmax:
          return stats::argmax(rt, x, {.target = target});
        case Stat::bincount:
          return stats::bincount(rt, x, {.target = target});
        default:
          return stats::histogram(rt, x, kBins, {.range = std::pair{0.0, 1.0}, .target = target})
              .hist;
      }
    };
    // Warm-up, checked: a mean near 1/2, a variance near 1/12, counts that add up to n.
    const Array first = rt.to_host(call()).astype(DType::float64);
    double got = 0;
    for (const double v : first.to_vector<double>()) got += v;
    const bool ok = s == Stat::mean     ? std::abs(got - 0.5) < 1e-2
                    : s == Stat::var    ? std::abs(got - 1.0 / 12) < 1e-2
                    : s == Stat::argmax ? got >= 0 && got < static_cast<double>(n)
                                        : got == static_cast<double>(n);
    if (!ok) {
      st.SkipWithError(
          (std::string(stat_name(s)) + ": warm-up gave " + std::to_string(got)).c_str());
      return;
    }
    if (device) {
      while (st.KeepRunningBatch(kDeviceBatch)) {
        for (int k = 0; k < kDeviceBatch; ++k) benchmark::DoNotOptimize(call().data());
        rt.synchronize(target);
      }
      st.counters["calls_per_sync"] = kDeviceBatch;
    } else {
      for (auto _ : st) benchmark::DoNotOptimize(call().data());
    }
    st.SetBytesProcessed(st.iterations() * n * static_cast<std::int64_t>(host.itemsize()));
    st.SetItemsProcessed(st.iterations() * n);
  } catch (const Error& e) {
    st.SkipWithError(e.what());
  }
}

}  // namespace

void register_stats_cases(const Runtime& rt, const std::string& target, const Sizes& sizes,
                          bool device) {
  const Runtime* r = &rt;
  const std::int64_t n = sizes.large;
  const std::string size = apps::size_label(n);
  for (const Stat s : {Stat::mean, Stat::var, Stat::argmax, Stat::bincount, Stat::histogram}) {
    const std::string dt = s == Stat::bincount ? "int32" : "float32";
    benchmark::RegisterBenchmark(
        (std::string(stat_name(s)) + "/" + dt + "/" + size + "/" + target).c_str(),
        [=](benchmark::State& st) { stat_case(st, *r, s, target, n, device); })
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond)
        ->MinTime(sizes.large_min_time);
  }
}

}  // namespace loom::bench
