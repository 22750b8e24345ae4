// GoogleTest main for the MPI tests: every rank runs every test (each test makes the same
// collective calls on every rank), and the job passes only if every rank passed. A test that
// fails on some ranks and so leaves the others waiting ends through loom::dist's timeout
// (LOOM_DIST_TIMEOUT, set short by ctest) rather than hanging.
#include <gtest/gtest.h>
#include <mpi.h>

#include "loom/dist/comm.hpp"

int main(int argc, char** argv) {
  loom::dist::Environment env(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  // Only rank 0 prints the passing tests; every rank prints its failures.
  if (rank != 0) GTEST_FLAG_SET(brief, true);
  const int mine = RUN_ALL_TESTS();
  int any = 0;
  MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return any;
}
