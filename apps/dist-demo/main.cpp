// loom-dist-demo: the seeds' sinexp, a sum and a Laplace stencil with halos on arrays distributed
// over MPI ranks (docs/scale-out.md). Run: mpirun -np N loom-dist-demo [--target parallel].
// Every printed result has the same bits for any N (same target on every rank): the elementwise
// calls compute each element alike, integer sums are exact, and float sums are reduced in fixed
// blocks of rows (loom::dist::Order::blocks).
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <loom/dist/dist.hpp>
#include <loom/loom.hpp>
#include <numbers>
#include <string>

#include "heat.hpp"

namespace {

// The value and its bits, so that two runs are compared exactly.
std::string exact(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  char s[64];
  std::snprintf(s, sizeof s, "%.17g (0x%016llx)", v, static_cast<unsigned long long>(b));
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  loom::dist::Environment env(argc, argv);
  CLI::App app{"loom-dist-demo: sinexp, a sum and a heat stencil on arrays distributed over MPI"};
  std::string target;
  std::int64_t n = 1'000'000, grid = 256;
  int steps = 200;
  app.add_option("--target", target,
                 "each rank's target (default: LOOM_TARGET, else cpu); cuda:node = cuda:<rank on "
                 "its node>, one GPU a rank");
  app.add_option("--size", n, "elements of the sinexp and sum arrays")->check(CLI::PositiveNumber);
  app.add_option("--grid", grid, "rows and columns of the heat grid")
      ->check(CLI::Range(3, 1 << 20));
  app.add_option("--steps", steps, "Jacobi steps")->check(CLI::NonNegativeNumber);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    loom::Runtime rt;
    const loom::dist::Comm world(MPI_COMM_WORLD);
    if (target == "cuda:node") target = "cuda:" + std::to_string(world.node_rank());
    if (target.empty()) target = rt.default_target();
    const bool root = world.rank() == 0;
    if (root) std::printf("loom-dist-demo: %d ranks, target %s\n", world.size(), target.c_str());

    // sinexp(x, 10) on x = linspace(0, 2 pi, n), scattered from rank 0.
    const loom::Array x = root ? loom::linspace(0.0, 2 * std::numbers::pi, n) : loom::Array();
    const auto dx = loom::dist::scatter(rt, world, x, {.target = target});
    const auto z = loom::dist::Ufunc(rt, "sinexp")(dx, 10.0);
    const loom::dist::Reduce sum(rt, "sum"), max(rt, "max");
    const double zsum = sum(z).item<double>();
    const double zmax = max(z).item<double>();
    if (root) {
      std::printf("sinexp  n=%lld: sum %s, max %s\n", static_cast<long long>(n),
                  exact(zsum).c_str(), exact(zmax).c_str());
    }

    // An exact integer sum: arange(n), each rank making its own rows.
    const loom::dist::Rows r = loom::dist::block_rows(n, world.size(), world.rank());
    const loom::Array mine = loom::arange(static_cast<double>(r.begin), static_cast<double>(r.end),
                                          1.0, loom::DType::int64);
    const auto a = loom::dist::from_local(rt, world, mine, target);
    const std::int64_t asum = sum(a).item<std::int64_t>();
    if (root) {
      std::printf("arange  n=%lld: sum %lld (n(n-1)/2 = %lld)\n", static_cast<long long>(n),
                  static_cast<long long>(asum), static_cast<long long>(n * (n - 1) / 2));
    }

    // The heat stencil.
    const auto u = loom::dist_demo::jacobi(
        rt, loom::dist_demo::heat_grid(rt, world, grid, grid, target), steps);
    const double usum = sum(u).item<double>();
    const loom::Array centre = loom::dist::gather(rt, u);
    if (root) {
      std::printf("heat    %lldx%lld, %d Jacobi steps, halo 1: sum %s, u[%lld, %lld] %s\n",
                  static_cast<long long>(grid), static_cast<long long>(grid), steps,
                  exact(usum).c_str(), static_cast<long long>(grid / 2),
                  static_cast<long long>(grid / 2),
                  exact(centre.at<double>(grid / 2, grid / 2)).c_str());
    }
    return 0;
  } catch (const loom::Error& e) {
    std::fprintf(stderr, "loom-dist-demo: %s\n", e.what());
    return 1;
  }
}
