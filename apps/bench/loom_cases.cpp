// loom's calls as benchmarks, one set per available target (custom kernels at the end). Inputs are
// made once per run, outside the timed loop; out= is given (from one untimed warm-up call) so the
// loop measures the call, not the allocator, except in the cases named *_alloc and the one-element
// call.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>
#include <numbers>

#include "../common/app_util.hpp"
#include "bench.hpp"

namespace loom::bench {

namespace {

using MakeInputs = std::function<std::vector<Array>()>;

std::int64_t bytes_of(const Array& a) { return a.size() * static_cast<std::int64_t>(a.itemsize()); }

// Inputs as the case runs them: on the device for a device-array case (kept out of the timing).
std::vector<Array> place(const Runtime& rt, const std::string& target, std::vector<Array> in,
                         bool device) {
  if (device) {
    for (auto& a : in) a = rt.to_device(a, target);
    rt.synchronize(target);
  }
  return in;
}

// Elementwise ufuncs and gufuncs with one or two inputs and one output. device: inputs and
// outputs are device arrays and each iteration waits for the device (the kernel's time);
// otherwise host arrays (on a device target: transfers included).
void call_case(benchmark::State& st, const Runtime& rt, const std::string& op,
               const std::string& target, const MakeInputs& make, bool with_out, bool device) {
  try {
    const std::vector<Array> in = place(rt, target, make(), device);
    const Ufunc f = rt.ufunc(op);
    CallOptions opt;
    opt.target = target;
    auto call = [&] { return in.size() == 1 ? f(in[0], opt) : f(in[0], in[1], opt); };
    Array r = call();  // warm-up; its result becomes out= below
    if (with_out) opt.out = {r};
    // One-element device calls measure host time per call (calls queue; a synchronize every
    // 256 calls bounds the queue), the figure Numba's and CuPy's dispatch costs are quoted in.
    const bool host_time = device && in[0].size() == 1;
    std::int64_t k = 0;
    for (auto _ : st) {
      r = call();
      if (device && (!host_time || ++k % 256 == 0)) rt.synchronize(target);
      benchmark::DoNotOptimize(r.data());
    }
    if (device) rt.synchronize(target);
    // Bytes read plus written; items: elements of the largest operand (sum_row's input).
    std::int64_t bytes = bytes_of(r), items = r.size();
    for (const auto& a : in) {
      bytes += bytes_of(a);
      items = std::max(items, a.size());
    }
    if (items > 1) st.SetBytesProcessed(st.iterations() * bytes);
    st.SetItemsProcessed(st.iterations() * items);
  } catch (const Error& e) {
    st.SkipWithError(e.what());
  }
}

void reduce_case(benchmark::State& st, const Runtime& rt, const std::string& op,
                 const std::string& target, const MakeInputs& make, bool device) {
  try {
    const Array x = place(rt, target, make(), device)[0];
    const Reduce f = rt.reduce(op);
    ReduceOptions opt;
    opt.target = target;
    opt.out = f(x, opt);  // warm-up; the 0-d result is reused as out=
    for (auto _ : st) {
      Array r = f(x, opt);
      if (device) rt.synchronize(target);
      benchmark::DoNotOptimize(r.data());
    }
    st.SetBytesProcessed(st.iterations() * bytes_of(x));
    st.SetItemsProcessed(st.iterations() * x.size());
  } catch (const Error& e) {
    st.SkipWithError(e.what());
  }
}

}  // namespace

void time_on_stream(benchmark::State& st, const Stream& s, const std::function<void()>& call) {
  call();  // warm-up
  s.synchronize();
  for (auto _ : st) {
    const loom::Event start = s.record();
    for (int k = 0; k < kDeviceBatch; ++k) call();
    const loom::Event stop = s.record();
    stop.synchronize();
    st.SetIterationTime(stop.elapsed_ms(start) * 1e-3 / kDeviceBatch);
  }
  st.counters["calls_per_sync"] = kDeviceBatch;
}

namespace {

// The same reduction as reduce_case on device arrays, timed as a stream of calls: kDeviceBatch
// calls back to back, one synchronize after the last, time per call (UseManualTime). This is how
// CuPy's and Numba's device figures are taken (CUDA events around k calls), so this is the column
// to read against them; reduce_case's synchronize after every call adds the round trip.
void reduce_batch_case(benchmark::State& st, const Runtime& rt, const std::string& op,
                       const std::string& target, const MakeInputs& make) {
  try {
    const Array x = place(rt, target, make(), true)[0];
    const Reduce f = rt.reduce(op);
    // Each call returns a fresh result (no out=, whose copy would add a kernel per call), as
    // CuPy's calls do.
    const loom::Stream s = rt.stream(target);
    ReduceOptions opt;
    opt.target = target;
    opt.stream = s;
    time_on_stream(st, s, [&] { benchmark::DoNotOptimize(f(x, opt).data()); });
    st.SetBytesProcessed(st.iterations() * bytes_of(x));  // per call, as the manual time is
    st.SetItemsProcessed(st.iterations() * x.size());
  } catch (const Error& e) {
    st.SkipWithError(e.what());
  }
}

// call_case's device case timed as reduce_batch_case is: CUDA events around kDeviceBatch calls with
// out= on one stream, so that a call's time is the GPU's (peers.py times CuPy's calls so).
void call_batch_case(benchmark::State& st, const Runtime& rt, const std::string& op,
                     const std::string& target, const MakeInputs& make) {
  try {
    const std::vector<Array> in = place(rt, target, make(), true);
    const Ufunc f = rt.ufunc(op);
    const loom::Stream s = rt.stream(target);
    CallOptions opt;
    opt.target = target;
    opt.stream = s;
    opt.out = f.call(in, opt);  // its results become out=
    time_on_stream(st, s, [&] { benchmark::DoNotOptimize(f.call(in, opt)[0].data()); });
    std::int64_t bytes = 0;
    for (const auto& a : in) bytes += bytes_of(a);
    for (const auto& a : opt.out) bytes += bytes_of(a);
    st.SetBytesProcessed(st.iterations() * bytes);
    st.SetItemsProcessed(st.iterations() * in[0].size());
  } catch (const Error& e) {
    st.SkipWithError(e.what());
  }
}

std::string name(const std::string& op, DType t, const std::string& size,
                 const std::string& target) {
  return op + "/" + std::string(loom::name(t)) + "/" + size + "/" + target;
}

// Units and minimum time by size; wall-clock time unless `manual` (time_on_stream's rows).
benchmark::internal::Benchmark* tune(benchmark::internal::Benchmark* b, std::int64_t n,
                                     const Sizes& sizes, bool manual = false) {
  if (manual) {
    b->UseManualTime();
  } else {
    b->UseRealTime();
  }
  if (n >= sizes.large) {
    b->MinTime(sizes.large_min_time)->Unit(benchmark::kMillisecond);
  } else if (n >= sizes.small) {
    b->Unit(benchmark::kMicrosecond);
  } else {
    b->Unit(benchmark::kNanosecond);
  }
  return b;
}

}  // namespace

void register_loom_cases(const Runtime& rt, const std::string& target, const Sizes& sizes,
                         bool device) {
  const Runtime* r = &rt;
  // Device targets run twice: "cuda" on device arrays, "cuda_host" on host arrays.
  const std::string label = device || rt.resolve_target(target).first->family() == Family::host
                                ? target
                                : target + "_host";
  // out=: given (the default) or not ("<op>_alloc/...": the result is allocated every call).
  auto ufunc = [&](const std::string& op, DType t, std::int64_t n, const std::string& size,
                   bool with_out, MakeInputs make) {
    const std::string shown = op + (with_out ? "" : "_alloc");
    auto* b = benchmark::RegisterBenchmark(
        name(shown, t, size, label).c_str(),
        [=](benchmark::State& st) { call_case(st, *r, op, target, make, with_out, device); });
    tune(b, n, sizes);
    if (device && with_out) {  // "<op>/<dtype>/<size>/cuda_batch": the row to read against CuPy
      b = benchmark::RegisterBenchmark(
          name(shown, t, size, label + "_batch").c_str(),
          [=](benchmark::State& st) { call_batch_case(st, *r, op, target, make); });
      b->UseManualTime()->Unit(n >= sizes.large ? benchmark::kMillisecond
                                                : benchmark::kMicrosecond);
      if (n >= sizes.large) b->MinTime(sizes.large_min_time);
    }
  };
  auto reduce = [&](const std::string& op, DType t, std::int64_t n, MakeInputs make) {
    auto* b = benchmark::RegisterBenchmark(
        name(op, t, apps::size_label(n), label).c_str(),
        [=](benchmark::State& st) { reduce_case(st, *r, op, target, make, device); });
    tune(b, n, sizes);
    if (device) {  // "sum/float32/256M/cuda_batch"
      b = benchmark::RegisterBenchmark(
          name(op, t, apps::size_label(n), label + "_batch").c_str(),
          [=](benchmark::State& st) { reduce_batch_case(st, *r, op, target, make); });
      b->UseManualTime()->Unit(benchmark::kMicrosecond);
      if (n >= sizes.large) b->MinTime(sizes.large_min_time);
    }
  };
  // The seed's sinexp inputs: x = linspace(0, 2pi, n), y = 10.
  auto sinexp_inputs = [](DType t, std::int64_t n) -> MakeInputs {
    return [=] {
      return std::vector<Array>{linspace(0, 2 * std::numbers::pi, n, true, t), full({n}, 10.0, t)};
    };
  };
  auto vec = [](std::int64_t n) -> MakeInputs {
    return [n] { return std::vector<Array>{linspace(0, 1, n, true, DType::float32)}; };
  };

  for (DType t : {DType::float32, DType::float64}) {
    for (std::int64_t n : {sizes.small, sizes.large}) {
      ufunc("sinexp", t, n, apps::size_label(n), true, sinexp_inputs(t, n));
    }
  }
  ufunc("sinexp", DType::float32, sizes.small, apps::size_label(sizes.small), false,
        sinexp_inputs(DType::float32, sizes.small));

  const Shape cube = sizes.cube;
  ufunc("maximum", DType::float32, shape_size(cube), apps::shape_label(cube), true, [cube] {
    return std::vector<Array>{apps::random_uniform<float>(cube, 0, 1, 1),
                              apps::random_uniform<float>(cube, 0, 1, 2)};
  });

  for (std::int64_t n : {sizes.small, sizes.large}) {
    ufunc("add", DType::float32, n, apps::size_label(n), true, [n] {
      return std::vector<Array>{linspace(0, 1, n, true, DType::float32),
                                full({n}, 2.0, DType::float32)};
    });
  }

  // Reductions; prod of ones so the product never drifts into denormals (slow on x86).
  for (std::int64_t n : {sizes.small, sizes.large}) reduce("sum", DType::float32, n, vec(n));
  if (sizes.huge > 0 && target != "cpu") reduce("sum", DType::float32, sizes.huge, vec(sizes.huge));
  reduce("prod", DType::float32, sizes.small,
         [n = sizes.small] { return std::vector<Array>{full({n}, 1.0, DType::float32)}; });

  const Shape m = sizes.sum_row;
  const MakeInputs rows = [m] {
    return std::vector<Array>{apps::random_uniform<float>(m, 0, 1, 3)};
  };
  ufunc("sum_row", DType::float32, shape_size(m), apps::shape_label(m), true, rows);
  if (device) {  // the device's copy bandwidth, the limit for the elementwise cases
    const std::int64_t n = sizes.large;
    auto* b = benchmark::RegisterBenchmark(
        ("copy/float32/" + apps::size_label(n) + "/" + label).c_str(), [=](benchmark::State& st) {
          const Array x = place(*r, target, {full({n}, 1.0, DType::float32)}, true)[0];
          const Array y = r->empty({n}, DType::float32, target);
          for (auto _ : st) {
            r->copy_to(x, y);
            r->synchronize(target);
          }
          st.SetBytesProcessed(st.iterations() * 2 * bytes_of(x));  // read + written
        });
    tune(b, n, sizes);
    // The same copy timed as the batched device cases (random_cases.cpp, timed_call): 8 copies,
    // then one wait, so that the floor the random cases are read against (issue 27: float32
    // uniform at >= 90 % of it) carries no per-call round trip either.
    b = benchmark::RegisterBenchmark(
        ("copy/float32/" + apps::size_label(n) + "/" + label + "_batch").c_str(),
        [=](benchmark::State& st) {
          const Array x = place(*r, target, {full({n}, 1.0, DType::float32)}, true)[0];
          const Array y = r->empty({n}, DType::float32, target);
          constexpr int k = 8;
          while (st.KeepRunningBatch(k)) {
            for (int i = 0; i < k; ++i) r->copy_to(x, y);
            r->synchronize(target);
          }
          st.SetBytesProcessed(st.iterations() * 2 * bytes_of(x));
          st.counters["calls_per_sync"] = k;
        });
    tune(b, n, sizes);
  }

  // Dispatch overhead: one-element float64 add as a user calls it (the result allocated: the
  // number to compare with NumPy's ~0.4 us) and with out=.
  auto one = [] {
    return std::vector<Array>{full({1}, 1.0, DType::float64), full({1}, 2.0, DType::float64)};
  };
  for (bool with_out : {false, true}) {
    auto* b = benchmark::RegisterBenchmark(
        name(with_out ? "add_out" : "add", DType::float64, "1", label).c_str(),
        [=](benchmark::State& st) { call_case(st, *r, "add", target, one, with_out, device); });
    tune(b, 1, sizes);
  }
  // Other small calls, allocating (peers.py has NumPy's): a one-element unary, a one-element
  // array plus a scalar (two shapes: the general path, not the same-shape one) and 1000 elements.
  const std::pair<const char*, std::pair<const char*, MakeInputs>> small_calls[] = {
      {"sin", {"1", [] { return std::vector<Array>{full({1}, 0.5, DType::float64)}; }}},
      {"add_scalar",
       {"1",
        [] {
          return std::vector<Array>{full({1}, 1.0, DType::float64), Array(2.0)};
        }}},
      {"add", {"1000", [] {
                 return std::vector<Array>{linspace(0, 1, 1000, true, DType::float64),
                                           full({1000}, 2.0, DType::float64)};
               }}}};
  for (const auto& [shown, c] : small_calls) {
    const std::string op = std::string(shown) == "add_scalar" ? "add" : shown;
    const MakeInputs make = c.second;
    auto* b = benchmark::RegisterBenchmark(
        name(shown, DType::float64, c.first, label).c_str(),
        [=](benchmark::State& st) { call_case(st, *r, op, target, make, false, device); });
    tune(b, 1, sizes);
  }
}

// ---------------------------------------------------------------------------------------------
// Custom kernels (plugins/kernels): the seeds' histogram, with global atomics and with per-block
// shared-memory histograms, and the grid-stride hypot.

namespace {

// Launch configuration of the explicit cases, on every target: 1024 blocks of 256 threads with
// grid-stride loops over the rest. The same grid on cpu and parallel, so their ratio is the
// parallel speed-up of the same work (1024 blocks: 64 per worker with 16 workers); on cuda
// 262144 threads, about one full wave on an H100/H200 (132 SMs x 2048 resident threads), and
// exactly what the Numba peer launches (bench/peers/peers.py).
constexpr std::int64_t kKernelBlocks = 1024, kKernelThreads = 256;
constexpr float kHistLo = -4.0f, kHistHi = 4.0f;

// np.random.normal(size=n).astype(np.float32) (Box-Muller on SplitMix), made once per size and
// kept for every histogram case (64M take a couple of seconds to draw).
const Array& normal_input(std::int64_t n) {
  static std::map<std::int64_t, Array> cache;
  auto it = cache.find(n);
  if (it != cache.end()) return it->second;
  Array a = empty({n}, DType::float32);
  float* p = reinterpret_cast<float*>(a.data());
  apps::SplitMix rng(81);
  for (std::int64_t i = 0; i < n; i += 2) {
    const double u1 = 1.0 - rng.uniform(), u2 = rng.uniform();  // u1 in (0, 1]
    const double rad = std::sqrt(-2.0 * std::log(u1)), th = 2 * std::numbers::pi * u2;
    p[i] = static_cast<float>(rad * std::cos(th));
    if (i + 1 < n) p[i + 1] = static_cast<float>(rad * std::sin(th));
  }
  return cache.emplace(n, std::move(a)).first->second;
}

// The seeds' cpu_histogram of normal_input(n): bin = int32((x - xmin) / bin_width) in float32,
// counted when in [0, nbins). Every case's first result is checked against it.
const std::vector<std::int32_t>& reference_histogram(std::int64_t n, std::int64_t nbins) {
  static std::map<std::pair<std::int64_t, std::int64_t>, std::vector<std::int32_t>> cache;
  auto it = cache.find({n, nbins});
  if (it != cache.end()) return it->second;
  std::vector<std::int32_t> h(static_cast<std::size_t>(nbins), 0);
  const float width = (kHistHi - kHistLo) / static_cast<float>(nbins);
  const float* p = reinterpret_cast<const float*>(normal_input(n).data());
  for (std::int64_t i = 0; i < n; ++i) {
    const double b = std::trunc(static_cast<double>((p[i] - kHistLo) / width));
    if (b >= 0 && b < static_cast<double>(nbins)) ++h[static_cast<std::size_t>(b)];
  }
  return cache.emplace(std::make_pair(n, nbins), std::move(h)).first->second;
}

// The loop a user writes for the same counts: one pass over x in order, the seeds' rule as the
// kernels apply it (plugins/kernels/seeds.hpp, bin_of), no atomics.
[[gnu::noinline]] void histogram_loop(const float* x, std::int64_t n, std::int32_t* h,
                                      std::int64_t nbins) {
  const float width = (kHistHi - kHistLo) / static_cast<float>(nbins);
  for (std::int64_t i = 0; i < n; ++i) {
    const float q = (x[i] - kHistLo) / width;
    if (!(q > -1.0f && q < static_cast<float>(nbins))) continue;
    const auto b = static_cast<std::int32_t>(q);
    if (b >= 0 && b < nbins) ++h[b];
  }
}

LaunchConfig explicit_config(const std::string& target, std::size_t shared_bytes = 0) {
  LaunchConfig c;
  c.blocks = kKernelBlocks;
  c.threads = kKernelThreads;
  c.shared_bytes = shared_bytes;
  c.target = target;
  return c;
}

// One histogram per iteration: the counts are zeroed (a fill on the device, queued like the
// launch) and the kernel launched; device cases wait for it. Bytes: the input read once.
void histogram_case(benchmark::State& st, const Runtime& rt, const std::string& kernel,
                    const std::string& target, std::int64_t n, std::int64_t nbins, bool device,
                    bool batch = false) {
  try {
    const Array x = place(rt, target, {normal_input(n)}, device)[0];
    const Array hist =
        device ? rt.zeros({nbins}, DType::int32, target) : zeros({nbins}, DType::int32);
    const Array zero(std::int32_t{0});
    const Kernel k = rt.kernel(kernel);
    const bool shared = kernel.find("shared") != std::string::npos;
    LaunchConfig cfg = explicit_config(
        target, shared ? sizeof(std::int32_t) * static_cast<std::size_t>(nbins) : 0);
    if (batch) cfg.stream = rt.stream(target);
    auto run = [&] {
      rt.copy_to(zero, hist, cfg.stream);
      k.launch(cfg, x, kHistLo, kHistHi, hist);
    };
    run();  // warm-up, checked against the seeds' rule
    if (rt.to_host(hist).to_vector<std::int32_t>() != reference_histogram(n, nbins)) {
      st.SkipWithError(
          ("kernel '" + kernel + "' on " + target + ": counts differ from the host cpu_histogram")
              .c_str());
      return;
    }
    if (batch) {
      time_on_stream(st, cfg.stream, run);
    } else {
      for (auto _ : st) {
        run();
        if (device) rt.synchronize(target);
      }
      if (device) rt.synchronize(target);
    }
    st.SetBytesProcessed(st.iterations() * (bytes_of(x) + bytes_of(hist)));
    st.SetItemsProcessed(st.iterations() * n);
    st.counters["bins"] = static_cast<double>(nbins);
    st.counters["blocks"] = kKernelBlocks;
    st.counters["threads"] = kKernelThreads;
  } catch (const Error& e) {
    st.SkipWithError(e.what());
  }
}

// hypot_stride on a, b = uniform(-12, 12) float32: 3 x 4 bytes per element, the copy floor's
// case. cuda: the automatic configuration (no blocks, no threads: a grid that fills the device);
// host targets: the explicit 1024 x 256 grid.
void hypot_case(benchmark::State& st, const Runtime& rt, const std::string& target, std::int64_t n,
                bool device, bool batch = false) {
  try {
    const Array a = apps::random_uniform<float>({n}, -12, 12, 91);
    const Array b = apps::random_uniform<float>({n}, -12, 12, 92);
    const std::vector<Array> in = place(rt, target, {a, b}, device);
    const Array c = device ? rt.empty({n}, DType::float32, target) : empty({n}, DType::float32);
    const Kernel k = rt.kernel("hypot_stride");
    LaunchConfig cfg = explicit_config(target);
    if (device) cfg.blocks = cfg.threads = Extent{};  // automatic
    k.launch(cfg, in[0], in[1], c);  // warm-up, checked (the seed's decimal=5) on a sample
    const Array got = rt.to_host(c);
    const float *av = reinterpret_cast<const float*>(a.data()),
                *bv = reinterpret_cast<const float*>(b.data()),
                *cv = reinterpret_cast<const float*>(got.data());
    for (std::int64_t i = 0; i < n; i += 997) {
      const double ref = std::hypot(static_cast<double>(av[i]), static_cast<double>(bv[i]));
      if (!(std::abs(cv[i] - ref) <= 1.5e-5)) {
        st.SkipWithError(("hypot_stride on " + target + ": c[" + std::to_string(i) +
                          "] = " + std::to_string(cv[i]) + ", expected " + std::to_string(ref))
                             .c_str());
        return;
      }
    }
    if (batch) {
      cfg.stream = rt.stream(target);
      time_on_stream(st, cfg.stream, [&] { k.launch(cfg, in[0], in[1], c); });
    } else {
      for (auto _ : st) {
        k.launch(cfg, in[0], in[1], c);
        if (device) rt.synchronize(target);
      }
    }
    st.SetBytesProcessed(st.iterations() * 3 * bytes_of(c));  // two read, one written
    st.SetItemsProcessed(st.iterations() * n);
    if (!device) {
      st.counters["blocks"] = kKernelBlocks;
      st.counters["threads"] = kKernelThreads;
    }
  } catch (const Error& e) {
    st.SkipWithError(e.what());
  }
}

}  // namespace

void register_kernel_cases(const Runtime& rt, const std::string& target, const Sizes& sizes,
                           bool device) {
  const Runtime* r = &rt;
  const std::int64_t n = sizes.large;
  const std::string size = apps::size_label(n);
  // kernel_histogram_10bins/float32/64M/parallel: the bin count is part of the op's name.
  for (const char* kernel : {"histogram", "histogram_shared"}) {
    for (std::int64_t nbins : {10, 1024}) {
      const std::string op = "kernel_" + std::string(kernel) + "_" + std::to_string(nbins) + "bins";
      auto* b = benchmark::RegisterBenchmark(
          name(op, DType::float32, size, target).c_str(),
          [=](benchmark::State& st) { histogram_case(st, *r, kernel, target, n, nbins, device); });
      tune(b, n, sizes);
      if (device) {
        b = benchmark::RegisterBenchmark(
            name(op, DType::float32, size, target + "_batch").c_str(), [=](benchmark::State& st) {
              histogram_case(st, *r, kernel, target, n, nbins, device, true);
            });
        tune(b, n, sizes, true);
      }
    }
  }
  auto* b = benchmark::RegisterBenchmark(
      name("kernel_hypot_stride", DType::float32, size, target).c_str(),
      [=](benchmark::State& st) { hypot_case(st, *r, target, n, device); });
  tune(b, n, sizes);
  if (device) {
    b = benchmark::RegisterBenchmark(
        name("kernel_hypot_stride", DType::float32, size, target + "_batch").c_str(),
        [=](benchmark::State& st) { hypot_case(st, *r, target, n, device, true); });
    tune(b, n, sizes, true);
  }
}

void register_kernel_baselines(const Sizes& sizes) {
  const std::int64_t n = sizes.large;
  for (std::int64_t nbins : {10, 1024}) {
    auto* b = benchmark::RegisterBenchmark(
        ("baseline_loop/histogram_" + std::to_string(nbins) + "bins/float32/" + apps::size_label(n))
            .c_str(),
        [=](benchmark::State& st) {
          const float* x = reinterpret_cast<const float*>(normal_input(n).data());
          std::vector<std::int32_t> h(static_cast<std::size_t>(nbins));
          histogram_loop(x, n, h.data(), nbins);
          if (h != reference_histogram(n, nbins)) {
            st.SkipWithError("histogram loop: counts differ from the host cpu_histogram");
            return;
          }
          for (auto _ : st) {
            std::fill(h.begin(), h.end(), 0);
            histogram_loop(x, n, h.data(), nbins);
            benchmark::DoNotOptimize(h.data());
          }
          st.SetBytesProcessed(st.iterations() * (n * 4 + nbins * 4));
          st.SetItemsProcessed(st.iterations() * n);
          st.counters["bins"] = static_cast<double>(nbins);
        });
    tune(b, n, sizes);
  }
}

Sizes sizes_from_env() {
  Sizes s;
  const char* small = std::getenv("LOOM_BENCH_SMALL");
  if (small && *small && std::string(small) != "0") {
    s.large = 4 << 20;
    s.huge = 0;
    s.sum_row[0] /= 16;
    s.linalg_batch /= 16;
    s.device_set = 4 << 20;
  }
  return s;
}

}  // namespace loom::bench
