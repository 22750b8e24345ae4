#include "mpi_call.hpp"

#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <thread>

#include "loom/dist/error.hpp"
#include "loom/dist/wait.hpp"

namespace loom::dist {

namespace {
double initial_timeout() {
  const char* e = std::getenv("LOOM_DIST_TIMEOUT");
  if (!e || !*e) return 600;
  char* end = nullptr;
  const double v = std::strtod(e, &end);
  if (end == e || *end != '\0' || !(v >= 0)) {
    throw ValueError(std::string("LOOM_DIST_TIMEOUT='") + e +
                     "' is not a number of seconds >= 0 (0 waits forever)");
  }
  return v;
}
double& timeout_ref() {
  static double t = initial_timeout();
  return t;
}
}  // namespace

double timeout() { return timeout_ref(); }
void set_timeout(double seconds) {
  if (!(seconds >= 0)) {
    std::ostringstream v;
    v << seconds;
    throw ValueError("loom::dist::set_timeout(" + v.str() +
                     "): the timeout is a number of seconds >= 0 (0 waits forever)");
  }
  timeout_ref() = seconds;
}

namespace detail {

void check(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw CommError(std::string(what) + " failed: " + std::string(text, len));
}

void wait_all(MPI_Comm c, std::vector<MPI_Request>& reqs, const std::string& what) {
  using clock = std::chrono::steady_clock;
  const double limit = timeout();
  const auto start = clock::now();
  for (long spins = 0;; ++spins) {
    int done = 0;
    check(MPI_Testall(static_cast<int>(reqs.size()), reqs.data(), &done, MPI_STATUSES_IGNORE),
          what.c_str());
    if (done) return;
    const double waited = std::chrono::duration<double>(clock::now() - start).count();
    if (limit > 0 && waited > limit) {
      int rank = 0, size = 0;
      MPI_Comm_rank(c, &rank);
      MPI_Comm_size(c, &size);
      std::fprintf(stderr,
                   "loom::dist: rank %d of %d waited %.1f s in %s for the other ranks "
                   "(LOOM_DIST_TIMEOUT=%g s): a rank has not joined this collective call (it "
                   "failed outside loom::dist, or takes another path through the program); "
                   "calling MPI_Abort, which ends every process of the job\n",
                   rank, size, waited, what.c_str(), limit);
      std::fflush(stderr);
      MPI_Abort(c, 70);
    }
    // Spin briefly for latency, then stop taking a core from the ranks we wait for (an
    // oversubscribed node runs several ranks a core).
    if (spins < 1000) {
      std::this_thread::yield();
    } else {
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
  }
}

void wait_one(MPI_Comm c, MPI_Request& req, const std::string& what) {
  std::vector<MPI_Request> r{req};
  wait_all(c, r, what);
  req = r[0];
}

RowType::RowType(std::int64_t bytes) {
  // Rows longer than INT_MAX bytes: a vector of 1 MiB pieces and a remainder would do; refuse.
  check(MPI_Type_contiguous(as_count(bytes, "a row's size in bytes"), MPI_BYTE, &type_),
        "MPI_Type_contiguous");
  check(MPI_Type_commit(&type_), "MPI_Type_commit");
}
RowType::~RowType() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (type_ != MPI_DATATYPE_NULL && !finalized) MPI_Type_free(&type_);
}

int as_count(std::int64_t n, const char* what) {
  if (n < 0 || n > INT_MAX) {
    throw CommError(std::string(what) + " is " + std::to_string(n) +
                    ", beyond MPI's int counts (at most " + std::to_string(INT_MAX) +
                    "); use more ranks");
  }
  return static_cast<int>(n);
}

}  // namespace detail
}  // namespace loom::dist
