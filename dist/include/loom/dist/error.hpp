// The errors of loom::dist: each is a loom::Error subclass, raised on every rank of the call
// (docs/scale-out.md, "Failure behaviour"; docs/errors.md lists them).
#pragma once
#include <string>

#include "loom/error.hpp"

namespace loom::dist {

// Operands whose global shapes, dtypes or distributions disagree, across ranks or with each
// other, or local shards that do not follow the block split: raised on every rank of the call.
class DistributionError : public ShapeError {
 public:
  using ShapeError::ShapeError;
};

// Another rank failed inside a collective call: what this rank raises when its own step
// succeeded. The failing rank raises its own error; every other rank raises this with its text.
class RemoteError : public Error {
 public:
  RemoteError(int rank, const std::string& what_failed, const std::string& message)
      : Error(what_failed + " failed on rank " + std::to_string(rank) + ": " + message),
        rank_(rank) {}
  int rank() const { return rank_; }  // the lowest rank that failed

 private:
  int rank_;
};

// An MPI call returned an error (the communicator's handler is MPI_ERRORS_RETURN).
class CommError : public DeviceError {
 public:
  using DeviceError::DeviceError;
};

}  // namespace loom::dist
