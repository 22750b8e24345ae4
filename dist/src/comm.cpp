// Environment and Comm (loom/dist/comm.hpp).
#include "loom/dist/comm.hpp"

#include "loom/dist/error.hpp"
#include "mpi_call.hpp"

namespace loom::dist {

namespace {
bool init_if_needed(int* argc, char*** argv) {
  int inited = 0;
  MPI_Initialized(&inited);
  if (inited) return false;
  int provided = 0;
  detail::check(MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  return true;
}
}  // namespace

Environment::Environment(int& argc, char**& argv) : owns_(init_if_needed(&argc, &argv)) {}
Environment::Environment() : owns_(init_if_needed(nullptr, nullptr)) {}
Environment::~Environment() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (owns_ && !finalized) MPI_Finalize();
}

struct Comm::State {
  MPI_Comm comm = MPI_COMM_NULL;
  ~State() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    // After MPI_Finalize the duplicate is gone with MPI itself.
    if (comm != MPI_COMM_NULL && !finalized) MPI_Comm_free(&comm);
  }
};

Comm::Comm(MPI_Comm comm) : state_(std::make_shared<State>()) {
  int inited = 0;
  MPI_Initialized(&inited);
  if (!inited) {
    throw CommError(
        "loom::dist::Comm: MPI is not initialized; make a loom::dist::Environment (or call "
        "MPI_Init) first");
  }
  // Non-blocking, so that a rank left alone here ends by the timeout instead of hanging.
  MPI_Request r;
  detail::check(MPI_Comm_idup(comm, &state_->comm, &r), "MPI_Comm_idup");
  detail::wait_one(comm, r, "loom::dist::Comm (MPI_Comm_idup)");
  MPI_Comm_set_errhandler(state_->comm, MPI_ERRORS_RETURN);
  MPI_Comm_rank(state_->comm, &rank_);
  MPI_Comm_size(state_->comm, &size_);
}

MPI_Comm Comm::get() const { return state_->comm; }

int Comm::node_rank() const {
  MPI_Comm node = MPI_COMM_NULL;
  detail::check(
      MPI_Comm_split_type(state_->comm, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node),
      "MPI_Comm_split_type");
  int r = 0;
  MPI_Comm_rank(node, &r);
  MPI_Comm_free(&node);
  return r;
}

}  // namespace loom::dist
