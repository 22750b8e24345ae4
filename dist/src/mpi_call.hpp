// Internal: MPI return codes as CommError, and waiting on requests behind loom::dist's timeout.
#pragma once
#include <mpi.h>

#include <string>
#include <vector>

#include "loom/dist/comm.hpp"

namespace loom::dist::detail {

// CommError naming `what` and MPI's error string, when rc is not MPI_SUCCESS.
void check(int rc, const char* what);

// Completes the requests, polling; past timeout() it writes why to stderr and calls MPI_Abort on
// the communicator (a rank missing from a collective cannot be waited out any other way).
void wait_all(MPI_Comm c, std::vector<MPI_Request>& reqs, const std::string& what);
inline void wait_all(const Comm& c, std::vector<MPI_Request>& reqs, const std::string& what) {
  wait_all(c.get(), reqs, what);
}
void wait_one(MPI_Comm c, MPI_Request& req, const std::string& what);
inline void wait_one(const Comm& c, MPI_Request& req, const std::string& what) {
  wait_one(c.get(), req, what);
}

// An MPI datatype of one row of `bytes` bytes (for counts in rows rather than bytes, which stay
// within int for any array whose row count does). Freed on destruction.
class RowType {
 public:
  explicit RowType(std::int64_t bytes);
  ~RowType();
  RowType(const RowType&) = delete;
  RowType& operator=(const RowType&) = delete;
  MPI_Datatype get() const { return type_; }

 private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

// A row count as MPI's int, or CommError.
int as_count(std::int64_t n, const char* what);

}  // namespace loom::dist::detail
