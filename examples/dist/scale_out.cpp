// docs/scale-out.md's program: an array split by rows over MPI ranks, a ufunc on each rank's
// rows, reductions with the same result on every rank, a halo exchange for a stencil, and an
// error every rank sees. Run: mpirun -np 2 scale_out [target].
#include <cstdio>
#include <loom/dist/dist.hpp>
#include <loom/loom.hpp>
#include <string>

int main(int argc, char** argv) {
  loom::dist::Environment env(argc, argv);  // MPI_Init here, MPI_Finalize at the end
  loom::Runtime rt;
  const loom::dist::Comm world;  // a duplicate of MPI_COMM_WORLD
  const std::string target = argc > 1 ? argv[1] : "cpu";

  // Rank 0 builds the array; scatter gives every rank its block of rows on its target.
  const loom::Array x = world.rank() == 0 ? loom::linspace(0.0, 1.0, 1001) : loom::Array();
  const loom::dist::DistArray dx = loom::dist::scatter(rt, world, x, {.target = target});
  const loom::dist::DistArray y = loom::dist::Ufunc(rt, "sinexp")(dx, 2.0);  // each rank's rows
  const double s = loom::dist::Reduce(rt, "sum")(y).item<double>();  // every rank, same bits
  const double top = loom::dist::Reduce(rt, "max")(dx).item<double>();

  // A 3-point stencil: one halo row from each neighbour around this rank's rows.
  loom::dist::exchange_halo(rt, dx, 1);
  const loom::Array h = dx.with_halo();  // [row above, owned rows..., row below]
  const std::int64_t n = dx.local().shape()[0];
  const loom::Array pair = rt.ufunc("add")(h.slice(0, 0, n), h.slice(0, 2, n + 2));
  const loom::dist::DistArray sums = loom::dist::from_local(rt, world, pair, target);
  const loom::Array all = loom::dist::gather(rt, sums);  // the whole array on rank 0

  // Operands that split differently: an error on every rank, before any computing.
  try {
    loom::dist::Ufunc(rt, "add")(dx, loom::dist::scatter(rt, world, loom::arange(7)));
  } catch (const loom::dist::DistributionError& e) {
    if (world.rank() == 0) std::printf("every rank: %s\n", e.what());
  }
  if (world.rank() == 0) {
    std::printf("ranks %d, sum %.12f, max %g, pair[500] %g\n", world.size(), s, top,
                all.at<double>(500));
  }
  return 0;
}
