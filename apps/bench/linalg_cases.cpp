// loom-bench cases of batched linear algebra (issue 14); bench/peers/peers.py runs the same calls
// with NumPy and CuPy under the same names:
//   {matmul,det,inv}/float64/<batch>x4x4/<target>  10^6 small matrices (np.matmul, np.linalg.det,
//                                                  np.linalg.inv; cupy's on 3-d arrays)
//   matmul/float32/64x256x256/<target>             device targets only (cuBLAS's batched gemm)
//   solve/float64/<n>x<n>/<target>                 one system, b of shape (n, 1); n = 4096 on a
//                                                  device, 1024 on the host targets
// The gufuncs are called with out= (from a warm-up call), as timed_call does; device targets run
// twice, "cuda" on device arrays and "cuda_host" on host arrays (transfers included). An op with
// no loop for the target's family is registered and skipped with that reason, not left out.
#include <benchmark/benchmark.h>

#include <functional>

#include "../common/app_util.hpp"
#include "bench.hpp"

namespace loom::bench {

namespace {

constexpr std::int64_t kBatch256 = 64, kSolveDevice = 4096, kSolveHost = 1024;

// uniform(-1, 1) matrices plus `diag` on each diagonal (4 for the 4x4 cases: well conditioned,
// so inv and det give no NaN or overflow; peers.py makes the same kind).
Array matrices(const Shape& shape, double diag, std::uint64_t seed) {
  Array a = apps::random_uniform<double>(shape, -1, 1, seed);
  const std::int64_t n = shape.back(), count = a.size() / (n * n);
  double* p = a.data<double>();
  for (std::int64_t k = 0; k < count; ++k) {
    for (std::int64_t i = 0; i < n; ++i) p[(k * n + i) * n + i] += diag;
  }
  return a;
}

void linalg_case(benchmark::State& st, const Runtime& rt, const std::string& op,
                 const std::string& target, const std::vector<Array>& host_in,
                 std::int64_t instances, bool device) {
  try {
    const auto desc = rt.registry().find(op);
    const Family family = rt.resolve_target(target).first->family();
    if (!desc || !desc->has_family(family)) {
      st.SkipWithError((op + " has no loop for target " + target + " yet (issue 14)").c_str());
      return;
    }
    std::vector<Array> in = host_in;
    if (device) {
      for (auto& a : in) a = rt.to_device(a, target);
      rt.synchronize(target);
    }
    timed_call(st, rt, op, target, in, device);
    st.SetItemsProcessed(st.iterations() * instances);  // matrices per second
  } catch (const Error& e) {
    st.SkipWithError(e.what());
  }
}

}  // namespace

void register_linalg_cases(const Runtime& rt, const std::string& target, const Sizes& sizes,
                           bool device) {
  const Runtime* r = &rt;
  const bool host = rt.resolve_target(target).first->family() == Family::host;
  const std::string label = host || device ? target : target + "_host";
  auto reg = [&](const std::string& op, DType t, const Shape& shape, std::int64_t instances,
                 std::function<std::vector<Array>()> make) {
    const std::string nm =
        op + "/" + std::string(name(t)) + "/" + apps::shape_label(shape) + "/" + label;
    // Inputs made when the case runs (as loom_cases.cpp does), so a filtered-out case costs none.
    benchmark::RegisterBenchmark(
        nm.c_str(),
        [=](benchmark::State& st) { linalg_case(st, *r, op, target, make(), instances, device); })
        ->UseRealTime()
        ->MinTime(sizes.large_min_time)
        ->Unit(benchmark::kMillisecond);
  };
  const std::int64_t b = sizes.linalg_batch;
  const Shape small{b, 4, 4};
  reg("matmul", DType::float64, small, b, [=] {
    return std::vector<Array>{matrices(small, 0, 141), matrices(small, 0, 142)};
  });
  reg("det", DType::float64, small, b, [=] { return std::vector<Array>{matrices(small, 4, 143)}; });
  reg("inv", DType::float64, small, b, [=] { return std::vector<Array>{matrices(small, 4, 143)}; });
  if (!host) {
    const Shape big{kBatch256, 256, 256};
    reg("matmul", DType::float32, big, kBatch256, [=] {
      return std::vector<Array>{matrices(big, 0, 144).astype(DType::float32),
                                matrices(big, 0, 145).astype(DType::float32)};
    });
  }
  const std::int64_t n = host ? kSolveHost : kSolveDevice;
  reg("solve", DType::float64, Shape{n, n}, 1, [=] {
    return std::vector<Array>{matrices({n, n}, 0, 146),
                              apps::random_uniform<double>({n, 1}, -1, 1, 147)};
  });
}

}  // namespace loom::bench
