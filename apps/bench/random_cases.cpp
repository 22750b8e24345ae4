// loom::random's cases (issue 27, docs/random.md): Generator's arrays drawn into a preallocated
// out= array (the generator's speed, not the allocator's), on device arrays on a device target,
// and the seeds' Monte Carlo estimate of pi on Numba's xoroshiro128p states. bench/peers/peers.py
// has NumPy's, CuPy's and Numba's cases of the same names. Registration looks nothing up: a
// target without the random plugin gets error rows, and --benchmark_filter='^random' runs these
// alone.
#include <benchmark/benchmark.h>

#include <cmath>
#include <numbers>

#include "../common/app_util.hpp"
#include "bench.hpp"
#include "loom/random_arrays.hpp"

namespace loom::bench {

namespace {

// Integers drawn in [kLow, kHigh), as peers.py's rng.integers(0, 1000): a span below 2^32, one
// 32-bit word per element (Lemire's method, docs/random.md).
constexpr std::int64_t kLow = 0, kHigh = 1000;
constexpr std::uint64_t kSeed = 2027;
// Device cases: calls back to back, then one wait, as timed_call (catalogue_cases.cpp) times
// the device and peers.py's CUDA events time CuPy.
constexpr int kDeviceBatch = 8;

enum class Draw { uniform, normal, integers };

const char* op_name(Draw d) {
  switch (d) {
    case Draw::uniform:
      return "random_uniform";
    case Draw::normal:
      return "random_normal";
    default:
      return "random_integers";
  }
}

// The warm-up's array against its distribution: the mean within 6 standard errors (uniform
// [0, 1): sd 1/sqrt(12); normal: 1; integers in [kLow, kHigh): (kHigh - kLow)/sqrt(12)), so a
// kernel that writes nothing, or the wrong draw, is an error row rather than a fast one.
std::string check_mean(const Array& host, Draw d) {
  const Array a = host.astype(DType::float64);
  const double* p = reinterpret_cast<const double*>(a.data());
  const std::int64_t n = a.size();
  double sum = 0;
  for (std::int64_t i = 0; i < n; ++i) sum += p[i];
  const double mean = sum / static_cast<double>(n);
  const double span = static_cast<double>(kHigh - kLow);
  const double want = d == Draw::uniform ? 0.5 : d == Draw::normal ? 0.0 : (span - 1) / 2;
  const double sd = d == Draw::uniform  ? 1 / std::sqrt(12.0)
                    : d == Draw::normal ? 1.0
                                        : span / std::sqrt(12.0);
  if (std::abs(mean - want) <= 6 * sd / std::sqrt(static_cast<double>(n))) return {};
  return std::string(op_name(d)) + ": mean " + std::to_string(mean) + ", expected " +
         std::to_string(want);
}

void draw_case(benchmark::State& st, const Runtime& rt, Draw d, DType t, const std::string& target,
               std::int64_t n, bool device) {
  try {
    const Array out = device ? rt.empty({n}, t, target) : empty({n}, t);
    random::Generator gen(kSeed);
    const random::RandomOptions o{.target = target, .out = out};
    auto call = [&] {
      switch (d) {
        case Draw::uniform:
          return gen.uniform(rt, {n}, t, o);
        case Draw::normal:
          return gen.normal(rt, {n}, t, o);
        default:
          return gen.integers(rt, kLow, kHigh, {n}, t, o);
      }
    };
    call();  // warm-up: loads the kernel and touches out's pages
    if (const std::string bad = check_mean(rt.to_host(out), d); !bad.empty()) {
      st.SkipWithError(bad.c_str());
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
    // Bytes written (nothing is read): read against the copy's read + written at the same rate.
    st.SetBytesProcessed(st.iterations() * n * static_cast<std::int64_t>(out.itemsize()));
    st.SetItemsProcessed(st.iterations() * n);
  } catch (const Error& e) {
    st.SkipWithError(e.what());
  }
}

// The seeds' compute_pi (the random plugin's random_compute_pi, examples/random/monte_carlo.hpp's
// functor) over `points` points: 1024 x 256 threads, as loom-bench's other kernels and the Numba
// peer, each drawing points / 262144 points from its own state. States advance with every call,
// so each call draws new points; the first estimate must be within 6 standard errors of pi.
constexpr std::int64_t kPiBlocks = 1024, kPiThreads = 256;

void pi_case(benchmark::State& st, const Runtime& rt, const std::string& target,
             std::int64_t points, bool device) {
  try {
    const std::int64_t threads = kPiBlocks * kPiThreads;
    const std::int64_t iterations = std::max<std::int64_t>(1, points / threads);
    const Array states = random::create_xoroshiro128p_states(rt, threads, 1, {.target = target});
    const Array out =
        device ? rt.empty({threads}, DType::float32, target) : empty({threads}, DType::float32);
    const Kernel k = rt.kernel("random_compute_pi");
    LaunchConfig cfg;
    cfg.blocks = kPiBlocks;
    cfg.threads = kPiThreads;
    cfg.target = target;
    k.launch(cfg, states, iterations, out);
    const Array h = rt.to_host(out).astype(DType::float64);
    double sum = 0;
    for (std::int64_t i = 0; i < threads; ++i) sum += h.at<double>(i);
    const double pi = sum / static_cast<double>(threads),
                 total = static_cast<double>(threads * iterations);
    const double se = std::sqrt(std::numbers::pi * (4 - std::numbers::pi) / total);
    if (!(std::abs(pi - std::numbers::pi) <= 6 * se)) {
      st.SkipWithError(("random_compute_pi: estimate " + std::to_string(pi)).c_str());
      return;
    }
    if (device) {
      while (st.KeepRunningBatch(kDeviceBatch)) {
        for (int i = 0; i < kDeviceBatch; ++i) k.launch(cfg, states, iterations, out);
        rt.synchronize(target);
      }
      st.counters["calls_per_sync"] = kDeviceBatch;
    } else {
      for (auto _ : st) k.launch(cfg, states, iterations, out);
    }
    st.SetItemsProcessed(st.iterations() * threads * iterations);  // points
    st.counters["blocks"] = kPiBlocks;
    st.counters["threads"] = kPiThreads;
    st.counters["pi"] = pi;
  } catch (const Error& e) {
    st.SkipWithError(e.what());
  }
}

}  // namespace

void register_random_cases(const Runtime& rt, const std::string& target, const Sizes& sizes,
                           bool device) {
  const Runtime* r = &rt;
  const std::int64_t n = sizes.large;
  const std::string size = apps::size_label(n);
  auto add = [&](const std::string& nm, auto fn) {
    benchmark::RegisterBenchmark(nm.c_str(), fn)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond)
        ->MinTime(sizes.large_min_time);
  };
  const std::pair<Draw, DType> cases[] = {{Draw::uniform, DType::float32},
                                          {Draw::uniform, DType::float64},
                                          {Draw::normal, DType::float32},
                                          {Draw::normal, DType::float64},
                                          {Draw::integers, DType::int64}};
  for (const auto& [d, t] : cases) {
    add(std::string(op_name(d)) + "/" + std::string(name(t)) + "/" + size + "/" + target,
        [=](benchmark::State& st) { draw_case(st, *r, d, t, target, n, device); });
  }
  add("random_monte_carlo_pi/float32/" + size + "/" + target,
      [=](benchmark::State& st) { pi_case(st, *r, target, n, device); });
}

}  // namespace loom::bench
