// MPI set-up for loom::dist: Environment (MPI_Init / MPI_Finalize for a program) and Comm, the
// communicator distributed arrays live on (a duplicate of the caller's, so that loom's messages
// never meet the program's own).
#pragma once
#include <mpi.h>

#include <memory>

namespace loom::dist {

// Initializes MPI (thread level funneled: only the calling thread talks to MPI; TBB's workers
// never do) unless the program already did, and finalizes it on destruction if it initialized it.
class Environment {
 public:
  Environment(int& argc, char**& argv);
  Environment();  // MPI_Init_thread(nullptr, nullptr, ...)
  ~Environment();
  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;

 private:
  bool owns_ = false;
};

// A duplicate of `comm` (MPI_Comm_idup, collective) with MPI_ERRORS_RETURN, freed when the last
// copy of this handle and of the arrays on it goes. Copies share the duplicate.
class Comm {
 public:
  explicit Comm(MPI_Comm comm = MPI_COMM_WORLD);
  int rank() const { return rank_; }
  int size() const { return size_; }
  // This rank's index among the ranks of its node (MPI_COMM_TYPE_SHARED): the GPU a rank takes
  // when every node runs one rank per GPU ("cuda:" + node_rank()). Collective, and blocking:
  // MPI has no non-blocking MPI_Comm_split_type, so loom's timeout does not cover it.
  int node_rank() const;
  MPI_Comm get() const;  // the duplicate
  bool operator==(const Comm& o) const { return state_ == o.state_; }

 private:
  struct State;
  std::shared_ptr<State> state_;
  int rank_ = 0, size_ = 1;
};

}  // namespace loom::dist
