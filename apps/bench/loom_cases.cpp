// loom's calls as benchmarks, one set per available target. Inputs are made once per run,
// outside the timed loop; out= is given (from one untimed warm-up call) so the loop measures
// the call, not the allocator, except in the cases named *_alloc and the one-element call.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
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

std::string name(const std::string& op, DType t, const std::string& size,
                 const std::string& target) {
  return op + "/" + std::string(loom::name(t)) + "/" + size + "/" + target;
}

benchmark::internal::Benchmark* tune(benchmark::internal::Benchmark* b, std::int64_t n,
                                     const Sizes& sizes) {
  b->UseRealTime();
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
  };
  auto reduce = [&](const std::string& op, DType t, std::int64_t n, MakeInputs make) {
    auto* b = benchmark::RegisterBenchmark(
        name(op, t, apps::size_label(n), label).c_str(),
        [=](benchmark::State& st) { reduce_case(st, *r, op, target, make, device); });
    tune(b, n, sizes);
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
  ufunc("sum_row", DType::float32, shape_size(m), apps::shape_label(m), true,
        [m] { return std::vector<Array>{apps::random_uniform<float>(m, 0, 1, 3)}; });

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
}

Sizes sizes_from_env() {
  Sizes s;
  const char* small = std::getenv("LOOM_BENCH_SMALL");
  if (small && *small && std::string(small) != "0") {
    s.large = 4 << 20;
    s.huge = 0;
    s.sum_row[0] /= 16;
  }
  return s;
}

}  // namespace loom::bench
