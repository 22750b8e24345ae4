// loom-bench cases of the ufunc methods (issue 11's performance goals), one set per target; the
// peers (bench/peers/peers.py) run the same calls with NumPy and CuPy under the same names:
//   add_accumulate/float32/<large>/<target>         np.cumsum(x), x uniform(-1, 1), allocating
//   add_at_100000bins/{float64,int64}/10000000/<target>  np.add.at(a, idx, b) in place, 1e5 bins
//   subtract_reduce_axis1/float64/4096x4096/<target> np.subtract.reduce(x, axis=1, out=o)
// Select them with --benchmark_filter='^(add_accumulate|add_at_|subtract_reduce_)'. Device
// targets take device arrays (inputs placed once, outside the timing) and every iteration waits
// for the device. Each case checks its first result before timing.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <type_traits>

#include "../common/app_util.hpp"
#include "bench.hpp"

namespace loom::bench {

namespace {

constexpr std::int64_t kAtUpdates = 10'000'000, kAtBins = 100'000;
const Shape kReduceShape{4096, 4096};

std::int64_t bytes_of(const Array& a) { return a.size() * static_cast<std::int64_t>(a.itemsize()); }

Array on(const Runtime& rt, const std::string& target, const Array& a, bool device) {
  return device ? rt.to_device(a, target) : a;
}

void wait(const Runtime& rt, const std::string& target, bool device) {
  if (device) rt.synchronize(target);
}

// Greatest |got - want| / max(|want|, 1) over two float arrays of the same shape.
double rel_err(const Array& got, const Array& want) {
  const std::vector<double> g = got.to_vector<double>(), w = want.to_vector<double>();
  double worst = 0;
  for (std::size_t i = 0; i < w.size(); ++i) {
    worst = std::max(worst, std::fabs(g[i] - w[i]) / std::max(std::fabs(w[i]), 1.0));
  }
  return worst;
}

// add.accumulate of 2^26 float32 (sizes.large); the result is allocated by every call, as
// np.cumsum(x) and cupy.cumsum(x) do. Checked against a float64 running sum: the scan's error
// on uniform(-1, 1) data stays far below 1e-2 of the running sum's scale.
void accumulate_case(benchmark::State& st, const Runtime& rt, const std::string& target,
                     std::int64_t n, bool device, bool batch) {
  try {
    const Array x = apps::random_uniform<float>({n}, -1, 1, 111);
    const Array dx = on(rt, target, x, device);
    wait(rt, target, device);
    const Ufunc add = rt.ufunc("add");
    AccumulateOptions opt{.target = target};
    if (batch) opt.stream = rt.stream(target);
    const Array first = rt.to_host(add.accumulate(dx, opt));
    const float* xv = reinterpret_cast<const float*>(x.data());
    const float* got = reinterpret_cast<const float*>(first.data());
    double s = 0, scale = 1;
    for (std::int64_t i = 0; i < n; ++i) {
      s += xv[i];
      scale = std::max(scale, std::fabs(s));
      if (!(std::fabs(got[i] - s) <= 1e-2 * scale)) {
        st.SkipWithError(("add.accumulate on " + target + ": element " + std::to_string(i) +
                          " is " + std::to_string(got[i]) + ", the running sum " +
                          std::to_string(s))
                             .c_str());
        return;
      }
    }
    if (batch) {
      time_on_stream(st, opt.stream,
                     [&] { benchmark::DoNotOptimize(add.accumulate(dx, opt).data()); });
    } else {
      for (auto _ : st) {
        Array r = add.accumulate(dx, opt);
        wait(rt, target, device);
        benchmark::DoNotOptimize(r.data());
      }
    }
    st.SetBytesProcessed(st.iterations() * 2 * bytes_of(x));  // read + written
    st.SetItemsProcessed(st.iterations() * n);
  } catch (const Error& e) {
    st.SkipWithError(e.what());
  }
}

// add.at of 1e7 values at uniform random indices into 1e5 bins, in place (the bins keep growing
// over the iterations, as a peer's repeated np.add.at does): float64 uniform [0, 1) (the ordered
// path on parallel) and int64 uniform [0, 1000) (atomics on parallel). The first call, on zeros,
// is checked against an in-order host loop: bit for bit on host targets and for integers, within
// 1e-12 for floats on a device (whose atomics add in another order).
template <class T>
void at_case(benchmark::State& st, const Runtime& rt, const std::string& target, bool device,
             bool batch) {
  try {
    Array idx = empty({kAtUpdates}, DType::int64);
    auto* iv = reinterpret_cast<std::int64_t*>(idx.data());
    apps::SplitMix rng(121);
    for (std::int64_t j = 0; j < kAtUpdates; ++j) {
      iv[j] =
          std::min<std::int64_t>(kAtBins - 1, static_cast<std::int64_t>(rng.uniform() * kAtBins));
    }
    const bool is_float = std::is_floating_point_v<T>;
    Array b = apps::random_uniform<double>({kAtUpdates}, 0, is_float ? 1 : 1000, 122);
    if (!is_float) b = b.astype(dtype_v<T>);  // truncated: whole numbers in [0, 1000)
    const Array di = on(rt, target, idx, device), db = on(rt, target, b, device);
    const Array a = device ? rt.zeros({kAtBins}, dtype_v<T>, target) : zeros({kAtBins}, dtype_v<T>);
    wait(rt, target, device);
    const Ufunc add = rt.ufunc("add");
    AtOptions opt{.target = target};
    if (batch) opt.stream = rt.stream(target);
    add.at(a, di, db, opt);
    wait(rt, target, device);
    Array want = zeros({kAtBins}, dtype_v<T>);
    auto* w = reinterpret_cast<T*>(want.data());
    const auto* bv = reinterpret_cast<const T*>(b.data());
    for (std::int64_t j = 0; j < kAtUpdates; ++j) w[iv[j]] += bv[j];
    const Array got = rt.to_host(a);
    // Floats on cuda (atomics) and parallel (private bins) sum in another order than the loop.
    const bool ok = is_float && target != "cpu"
                        ? rel_err(got, want) <= 1e-12
                        : std::memcmp(got.data(), want.data(), bytes_of(want)) == 0;
    if (!ok) {
      st.SkipWithError(("add.at on " + target + ": the bins differ from the in-order loop's (" +
                        std::to_string(rel_err(got, want)) + " relative)")
                           .c_str());
      return;
    }
    if (batch) {
      time_on_stream(st, opt.stream, [&] { add.at(a, di, db, opt); });
    } else {
      for (auto _ : st) {
        add.at(a, di, db, opt);
        wait(rt, target, device);
      }
    }
    // Read: indices and values; read and written: the bins.
    st.SetBytesProcessed(st.iterations() * (bytes_of(idx) + bytes_of(b) + 2 * bytes_of(a)));
    st.SetItemsProcessed(st.iterations() * kAtUpdates);
  } catch (const Error& e) {
    st.SkipWithError(e.what());
  }
}

// subtract.reduce along the last axis of (4096, 4096) float64 uniform [0, 1): NumPy's in-order
// fold per row, into out=. The first result is checked bit for bit against a plain loop.
void reduce_case(benchmark::State& st, const Runtime& rt, const std::string& target, bool device,
                 bool batch) {
  try {
    const Array x = apps::random_uniform<double>(kReduceShape, 0, 1, 131);
    const Array dx = on(rt, target, x, device);
    const std::int64_t rows = kReduceShape[0], cols = kReduceShape[1];
    const Array out =
        device ? rt.empty({rows}, DType::float64, target) : empty({rows}, DType::float64);
    wait(rt, target, device);
    const Ufunc sub = rt.ufunc("subtract");
    ReduceOptions opt{.target = target, .axis = 1, .out = out};
    if (batch) opt.stream = rt.stream(target);
    sub.reduce(dx, opt);
    wait(rt, target, device);
    const Array got = rt.to_host(out);
    const auto* xv = reinterpret_cast<const double*>(x.data());
    const auto* gv = reinterpret_cast<const double*>(got.data());
    for (std::int64_t r = 0; r < rows; ++r) {
      double acc = xv[r * cols];
      for (std::int64_t c = 1; c < cols; ++c) acc -= xv[r * cols + c];
      if (std::memcmp(&acc, &gv[r], sizeof acc) != 0) {
        st.SkipWithError(("subtract.reduce on " + target + ": row " + std::to_string(r) + " is " +
                          std::to_string(gv[r]) + ", the left fold gives " + std::to_string(acc))
                             .c_str());
        return;
      }
    }
    if (batch) {
      time_on_stream(st, opt.stream, [&] { sub.reduce(dx, opt); });
    } else {
      for (auto _ : st) {
        sub.reduce(dx, opt);
        wait(rt, target, device);
      }
    }
    st.SetBytesProcessed(st.iterations() * (bytes_of(x) + bytes_of(out)));
    st.SetItemsProcessed(st.iterations() * x.size());
  } catch (const Error& e) {
    st.SkipWithError(e.what());
  }
}

}  // namespace

void register_method_cases(const Runtime& rt, const std::string& target, const Sizes& sizes,
                           bool device) {
  const Runtime* r = &rt;
  const std::int64_t n = sizes.large;
  // "<case>/<target>", and on a device "<case>/<target>_batch" too (time_on_stream).
  auto reg = [&](const std::string& name, std::function<void(benchmark::State&, bool)> fn) {
    benchmark::RegisterBenchmark((name + "/" + target).c_str(),
                                 [fn](benchmark::State& st) { fn(st, false); })
        ->UseRealTime()
        ->MinTime(sizes.large_min_time)
        ->Unit(benchmark::kMillisecond);
    if (device) {
      benchmark::RegisterBenchmark((name + "/" + target + "_batch").c_str(),
                                   [fn](benchmark::State& st) { fn(st, true); })
          ->UseManualTime()
          ->MinTime(sizes.large_min_time)
          ->Unit(benchmark::kMillisecond);
    }
  };
  reg("add_accumulate/float32/" + apps::size_label(n),
      [=](benchmark::State& st, bool b) { accumulate_case(st, *r, target, n, device, b); });
  // Appends, not `"/" + std::to_string(..)`: that trips GCC 12's -Wrestrict (PR 105329).
  std::string at_op = "add_at_", at_n = "/";
  at_op += std::to_string(kAtBins) + "bins/";
  at_n += std::to_string(kAtUpdates);
  reg(at_op + "float64" + at_n,
      [=](benchmark::State& st, bool b) { at_case<double>(st, *r, target, device, b); });
  reg(at_op + "int64" + at_n,
      [=](benchmark::State& st, bool b) { at_case<std::int64_t>(st, *r, target, device, b); });
  reg("subtract_reduce_axis1/float64/" + apps::shape_label(kReduceShape),
      [=](benchmark::State& st, bool b) { reduce_case(st, *r, target, device, b); });
}

}  // namespace loom::bench
