// Several-output ufuncs (issue 13): the example plugin's Black-Scholes as one two-output op (call
// and put) and as the one-output op of the call alone, the same formula, on host targets. The
// ratio of the two is what a second output costs on the SIMD path (it was 10x when several-output
// loops were scalar). Five float32 inputs of sizes.large / 4 elements; out= given.
#include <benchmark/benchmark.h>

#include "../common/app_util.hpp"
#include "bench.hpp"

namespace loom::bench {

namespace {

void outs_case(benchmark::State& st, const Runtime& rt, const std::string& op,
               const std::string& target, std::int64_t n) {
  try {
    const Shape s{n};
    // spot 5-30, strike 1-100, 0.25-10 years, rate 2 %, volatility 30 %: the seeds' ranges.
    const std::vector<Array> in = {apps::random_uniform<float>(s, 5, 30, 11),
                                   apps::random_uniform<float>(s, 1, 100, 12),
                                   apps::random_uniform<float>(s, 0.25, 10, 13),
                                   full(s, 0.02, DType::float32), full(s, 0.30, DType::float32)};
    timed_call(st, rt, op, target, in, /*device=*/false);
  } catch (const Error& e) {
    st.SkipWithError(e.what());
  }
}

}  // namespace

void register_outs_cases(const Runtime& rt, const std::string& target, const Sizes& sizes) {
  if (!rt.registry().find("black_scholes")) return;  // the example plugin is not on the path
  const Runtime* r = &rt;
  const std::int64_t n = sizes.large / 4;
  for (const char* op : {"black_scholes", "black_scholes_call"}) {
    const std::string nm = std::string(op) + "/float32/" + apps::size_label(n) + "/" + target;
    benchmark::RegisterBenchmark(nm.c_str(),
                                 [=](benchmark::State& st) { outs_case(st, *r, op, target, n); })
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond)
        ->MinTime(sizes.large_min_time);
  }
}

}  // namespace loom::bench
