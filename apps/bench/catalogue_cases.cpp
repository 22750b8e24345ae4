// The catalogue's cases (issue 13, docs/catalogue.md): streaming ops against the all-thread copy
// bandwidth (parallel) and CuPy (cuda device arrays), the costly float32 functions against NumPy
// (cpu, one thread), and float16 / complex64 loops against CuPy. A case is registered only where
// the op has the loop, so the file runs against any math plugin. Inputs: x = linspace(lo, hi, n)
// and, for two inputs, y = a constant (bench/peers/peers.py makes the same arrays); out= given.
#include <benchmark/benchmark.h>

#include <numbers>

#include "../common/app_util.hpp"
#include "bench.hpp"

namespace loom::bench {

namespace {

struct Spec {
  const char* op;
  double lo, hi;     // x = linspace(lo, hi, n)
  bool two = false;  // y = full(n, y)
  double y = 0;
};

// lo, hi, y as the peers script's CATALOGUE table.
const Spec kSpecs[] = {
    {"multiply", 0, 1, true, 2.0},
    {"less", 0, 1, true, 0.5},
    {"sin", 0, 2 * std::numbers::pi},
    {"exp", -10, 10},
    {"log", 0.01, 100},
    {"arctan2", -1, 1, true, 0.7},
    {"power", 0.5, 2, true, 2.5},
};

const Spec& spec(const std::string& op) {
  for (const auto& s : kSpecs) {
    if (op == s.op) return s;
  }
  throw ValueError("catalogue bench: no spec for '" + op + "'");
}

bool has_loop(const Runtime& rt, const std::string& op, DType t) {
  const auto d = rt.registry().find(op);
  if (!d) return false;
  for (const auto& l : d->loops) {
    if (!l.sig.inputs.empty() && l.sig.inputs[0] == t) return true;
  }
  return false;
}

void catalogue_case(benchmark::State& st, const Runtime& rt, const std::string& op, DType t,
                    const std::string& target, std::int64_t n, bool device) {
  try {
    const Spec& s = spec(op);
    // Made in float64 and cast: float16 and complex64 have no linspace of their own.
    std::vector<Array> in{linspace(s.lo, s.hi, n, true, DType::float64).astype(t)};
    if (s.two) in.push_back(full({n}, s.y, DType::float64).astype(t));
    if (device) {
      for (auto& a : in) a = rt.to_device(a, target);
      rt.synchronize(target);
    }
    timed_call(st, rt, op, target, in, device);
  } catch (const Error& e) {
    st.SkipWithError(e.what());
  }
}

}  // namespace

void timed_call(benchmark::State& st, const Runtime& rt, const std::string& op,
                const std::string& target, const std::vector<Array>& in, bool device) {
  const Ufunc f = rt.ufunc(op);
  CallOptions opt;
  opt.target = target;
  const std::vector<Array> warm = f.call(in, opt);
  opt.out.assign(warm.begin(), warm.end());
  if (device) {
    // As peers.py times CuPy (CUDA events around k calls back to back): k calls, then one
    // synchronize, so a call's time is the GPU's, not a host round trip per call.
    constexpr int k = 8;
    while (st.KeepRunningBatch(k)) {
      for (int i = 0; i < k; ++i) benchmark::DoNotOptimize(f.call(in, opt)[0].data());
      rt.synchronize(target);
    }
  } else {
    for (auto _ : st) benchmark::DoNotOptimize(f.call(in, opt)[0].data());
  }
  std::int64_t bytes = 0;
  for (const auto& a : in) bytes += a.size() * static_cast<std::int64_t>(a.itemsize());
  for (const auto& a : warm) bytes += a.size() * static_cast<std::int64_t>(a.itemsize());
  st.SetBytesProcessed(st.iterations() * bytes);
  st.SetItemsProcessed(st.iterations() * in[0].size());
  st.counters["outputs"] = static_cast<double>(warm.size());
}

void register_catalogue_cases(const Runtime& rt, const std::string& target, const Sizes& sizes,
                              bool device) {
  const Runtime* r = &rt;
  const std::int64_t n = sizes.large;
  const bool host = !device;
  auto add = [&](const std::string& op, DType t) {
    if (!has_loop(rt, op, t)) return;
    const std::string nm =
        "cat_" + op + "/" + std::string(name(t)) + "/" + apps::size_label(n) + "/" + target;
    benchmark::RegisterBenchmark(
        nm.c_str(), [=](benchmark::State& st) { catalogue_case(st, *r, op, t, target, n, device); })
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond)
        ->MinTime(sizes.large_min_time);
  };
  // Streaming: parallel against baseline_memcpy_threads, cuda against CuPy.
  if (target != "cpu") {
    for (const char* op : {"multiply", "less"}) add(op, DType::float32);
  }
  // The functions NumPy users call most, one thread against NumPy.
  if (host && target == "cpu") {
    for (const char* op : {"sin", "exp", "log", "arctan2", "power"}) add(op, DType::float32);
  }
  if (device) {
    for (const char* op : {"multiply", "exp"}) {
      add(op, DType::float16);
      add(op, DType::complex64);
    }
  }
}

}  // namespace loom::bench
