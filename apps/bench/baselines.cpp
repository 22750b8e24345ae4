// What loom is measured against: the loop a user would write by hand over std::vector, and a
// memcpy of the same bytes (the memory-bandwidth ceiling for a streaming op).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>
#include <thread>
#include <vector>

#include "../common/app_util.hpp"
#include "bench.hpp"

namespace loom::bench {

namespace {

// noinline: the loop is compiled once, as a user's function would be, not specialised to a
// benchmark's constants.
template <class T>
[[gnu::noinline]] void add_loop(const std::vector<T>& a, const std::vector<T>& b,
                                std::vector<T>& c) {
  for (std::size_t i = 0; i < c.size(); ++i) c[i] = a[i] + b[i];
}

template <class T>
[[gnu::noinline]] void sinexp_loop(const std::vector<T>& a, const std::vector<T>& b,
                                   std::vector<T>& c) {
  for (std::size_t i = 0; i < c.size(); ++i) c[i] = std::sin(a[i]) * std::exp(b[i]);
}

// The same inputs as the loom cases: a = linspace(lo, hi, n), b = fill.
template <class T>
std::vector<T> linspace_vec(double lo, double hi, std::int64_t n) {
  std::vector<T> v(static_cast<std::size_t>(n));
  const double step = n > 1 ? (hi - lo) / static_cast<double>(n - 1) : 0;
  for (std::int64_t i = 0; i < n; ++i) v[i] = static_cast<T>(lo + step * static_cast<double>(i));
  return v;
}

template <class T, void (*Loop)(const std::vector<T>&, const std::vector<T>&, std::vector<T>&)>
void loop_case(benchmark::State& st, std::int64_t n, double lo, double hi, double fill) {
  const std::vector<T> a = linspace_vec<T>(lo, hi, n);
  const std::vector<T> b(static_cast<std::size_t>(n), static_cast<T>(fill));
  std::vector<T> c(static_cast<std::size_t>(n));
  for (auto _ : st) {
    Loop(a, b, c);
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  st.SetBytesProcessed(st.iterations() * 3 * n * static_cast<std::int64_t>(sizeof(T)));
  st.SetItemsProcessed(st.iterations() * n);
}

void memcpy_case(benchmark::State& st, std::int64_t bytes) {
  std::vector<char> src(static_cast<std::size_t>(bytes), 1), dst(static_cast<std::size_t>(bytes));
  for (auto _ : st) {
    std::memcpy(dst.data(), src.data(), src.size());
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  // Bytes read plus bytes written, as the loom cases count them.
  st.SetBytesProcessed(st.iterations() * 2 * bytes);
}

// The machine's copy bandwidth with every core: each thread copies its own slice (first touched by
// the same thread, so pages sit near it), as STREAM's copy does.
void memcpy_threads_case(benchmark::State& st, std::int64_t bytes) {
  const unsigned nt = std::max(1u, std::thread::hardware_concurrency());
  std::vector<char> src(static_cast<std::size_t>(bytes)), dst(static_cast<std::size_t>(bytes));
  auto each = [&](auto&& f) {
    std::vector<std::thread> ts;
    for (unsigned t = 0; t < nt; ++t) {
      const std::int64_t lo = bytes * t / nt, hi = bytes * (t + 1) / nt;
      ts.emplace_back([&, lo, hi] { f(lo, hi); });
    }
    for (auto& t : ts) t.join();
  };
  each([&](std::int64_t lo, std::int64_t hi) {
    std::memset(src.data() + lo, 1, hi - lo);
    std::memset(dst.data() + lo, 0, hi - lo);
  });
  for (auto _ : st) {
    each([&](std::int64_t lo, std::int64_t hi) {
      std::memcpy(dst.data() + lo, src.data() + lo, hi - lo);
    });
    benchmark::ClobberMemory();
  }
  st.SetBytesProcessed(st.iterations() * 2 * bytes);
  st.counters["threads"] = nt;
}

void finish(benchmark::internal::Benchmark* b, std::int64_t n, const Sizes& sizes) {
  b->UseRealTime()->Unit(n >= sizes.large ? benchmark::kMillisecond : benchmark::kMicrosecond);
  if (n >= sizes.large) b->MinTime(sizes.large_min_time);
}

}  // namespace

void register_baselines(const Sizes& sizes) {
  const double two_pi = 2 * std::numbers::pi;
  for (std::int64_t n : {sizes.small, sizes.large}) {
    const std::string size = apps::size_label(n);
    finish(benchmark::RegisterBenchmark(
               ("baseline_loop/add/float32/" + size).c_str(),
               [=](benchmark::State& st) { loop_case<float, add_loop<float>>(st, n, 0, 1, 2); }),
           n, sizes);
    finish(benchmark::RegisterBenchmark(("baseline_loop/sinexp/float32/" + size).c_str(),
                                        [=](benchmark::State& st) {
                                          loop_case<float, sinexp_loop<float>>(st, n, 0, two_pi,
                                                                               10);
                                        }),
           n, sizes);
    finish(benchmark::RegisterBenchmark(("baseline_loop/sinexp/float64/" + size).c_str(),
                                        [=](benchmark::State& st) {
                                          loop_case<double, sinexp_loop<double>>(st, n, 0, two_pi,
                                                                                 10);
                                        }),
           n, sizes);
  }
  const std::int64_t n = sizes.large;
  finish(benchmark::RegisterBenchmark(("baseline_memcpy/float32/" + apps::size_label(n)).c_str(),
                                      [=](benchmark::State& st) { memcpy_case(st, n * 4); }),
         n, sizes);
  finish(benchmark::RegisterBenchmark(
             ("baseline_memcpy_threads/float32/" + apps::size_label(n)).c_str(),
             [=](benchmark::State& st) { memcpy_threads_case(st, n * 4); }),
         n, sizes);
}

}  // namespace loom::bench
