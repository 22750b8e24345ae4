// loom-dist-bench: time per call of distributed sinexp (float32) and sum (float32) on arrays
// block-distributed over MPI ranks, independent of loom-bench (Google Benchmark does not know
// MPI). Each rank makes its own rows (no scatter). sqrt_1k_f32, a call on 1024 elements, is the
// cost of a call beyond its work (the agreement's collectives). A call's time is the slowest
// rank's, from a barrier before it; the median over --repeat calls is printed, one line a case, as
//   case=sinexp_f32 ranks=4 threads=4 target=parallel elements=268435456 ms=12.345
// Compare `mpirun -np 4 loom-dist-bench --threads 4` with `mpirun -np 1 loom-dist-bench
// --threads 16`; bench/dist-scaling runs the strong- and weak-scaling tables.
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <loom/dist/dist.hpp>
#include <loom/loom.hpp>
#include <numbers>
#include <string>
#include <vector>

namespace {

// Median over `repeat` calls of the slowest rank's time, in ms (one warm-up call first). Each
// call waits for the rank's device (`done`): on a device target a call only queues its kernels.
double time_ms(const loom::dist::Comm& c, int repeat, const std::function<void()>& call,
               const std::function<void()>& done) {
  call();
  done();
  std::vector<double> t;
  for (int i = 0; i < repeat; ++i) {
    MPI_Barrier(c.get());
    const auto t0 = std::chrono::steady_clock::now();
    call();
    done();
    double mine =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    double slowest = 0;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, c.get());
    t.push_back(slowest);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  loom::dist::Environment env(argc, argv);
  CLI::App app{"loom-dist-bench: distributed sinexp and sum, time per call"};
  int threads = 0, log2n = 28, repeat = 10;
  bool weak = false;
  std::string target;
  app.add_option("--threads", threads,
                 "threads of each rank's parallel target (0: LOOM_NUM_THREADS, else all cores)");
  app.add_option("--size", log2n, "log2 of the elements (of each rank's with --weak)")
      ->check(CLI::Range(10, 34));
  app.add_flag("--weak", weak, "--size is per rank (weak scaling)");
  app.add_option("--repeat", repeat, "timed calls per case (median)")->check(CLI::PositiveNumber);
  app.add_option("--target", target,
                 "each rank's target (default: parallel where built, else cpu)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    loom::Runtime rt(loom::RuntimeOptions{.num_threads = threads});
    const loom::dist::Comm world(MPI_COMM_WORLD);
    if (target.empty()) {
      target = "cpu";
      for (const auto& t : rt.targets()) {
        if (t.target == "parallel" && t.available) target = "parallel";
      }
    }
    if (target == "cuda:node") target = "cuda:" + std::to_string(world.node_rank());
    const std::int64_t n = (std::int64_t{1} << log2n) * (weak ? world.size() : 1);
    const loom::dist::Rows r = loom::dist::block_rows(n, world.size(), world.rank());
    // x = 2 pi i / n, y = 1, as float32, each rank its own rows.
    const loom::Array idx = loom::arange(static_cast<double>(r.begin), static_cast<double>(r.end),
                                         1.0, loom::DType::float32);
    const loom::Array xl = rt.ufunc("multiply")(idx, 2 * std::numbers::pi / n, {.target = target});
    const auto x = loom::dist::from_local(rt, world, xl, target);
    const auto y = loom::dist::from_local(
        rt, world, loom::full({r.size()}, 1.0, loom::DType::float32), target);
    const loom::dist::Ufunc sinexp(rt, "sinexp");
    const loom::dist::Reduce sum(rt, "sum");
    const auto out = loom::dist::zeros(rt, world, {n}, loom::DType::float32, target);
    const int nthreads = rt.num_threads();
    auto report = [&](const char* name, double ms) {
      if (world.rank() == 0) {
        std::printf("case=%s ranks=%d threads=%d target=%s elements=%lld ms=%.3f\n", name,
                    world.size(), nthreads, target.c_str(), static_cast<long long>(n), ms);
        std::fflush(stdout);
      }
    };
    const auto done = [&] { rt.synchronize(target); };
    report("sinexp_f32", time_ms(
                             world, repeat, [&] { sinexp(x, y, {.out = {out}}); }, done));
    report("sum_f32_blocks", time_ms(
                                 world, repeat, [&] { sum(x); }, done));
    report("sum_f32_ranks",
           time_ms(
               world, repeat, [&] { sum(x, {.order = loom::dist::Order::ranks}); }, done));
    // What a call costs beyond its work: the agreement's collectives on a call with almost none.
    const auto tiny = loom::dist::zeros(rt, world, {1024}, loom::DType::float32, target);
    const loom::dist::Ufunc sqrt(rt, "sqrt");
    report("sqrt_1k_f32", time_ms(
                              world, std::max(repeat, 100), [&] { sqrt(tiny); }, done));
    return 0;
  } catch (const loom::Error& e) {
    std::fprintf(stderr, "loom-dist-bench: %s\n", e.what());
    return 1;
  }
}
