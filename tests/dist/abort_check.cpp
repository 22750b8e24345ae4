// The abort path (docs/scale-out.md, "Failure behaviour"): rank 1 never joins a collective call,
// so rank 0 waits LOOM_DIST_TIMEOUT seconds and then ends the job with MPI_Abort. Run by ctest
// under mpirun -np 2, which expects rank 0's message (and the job's failure) instead of a hang.
#include <chrono>
#include <cstdio>
#include <thread>

#include "loom/dist/dist.hpp"
#include "loom/loom.hpp"

int main(int argc, char** argv) {
  loom::dist::Environment env(argc, argv);
  loom::Runtime rt;
  const loom::dist::Comm world(MPI_COMM_WORLD);
  const auto d = loom::dist::scatter(rt, world, loom::arange(10));
  if (world.rank() == 1) {
    // Takes another path through the program: sleeps past rank 0's timeout, then would exit.
    std::this_thread::sleep_for(std::chrono::seconds(30));
    std::printf("rank 1 joined\n");
    return 0;
  }
  loom::dist::allgather(rt, d);
  std::printf("rank 0 was not stopped\n");
  return 0;
}
