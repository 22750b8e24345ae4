// Collectives across the devices of one backend (docs/multi-gpu.md, "Combining on the devices"):
// how a sharded reduction's per-device partials are combined where they are, and how processes
// with one device each (loom::dist ranks) reduce a buffer together. The CUDA implementation is
// NCCL's, in its own optional library (libloom_nccl.so, backends/nccl); core sees only this.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "loom/backend.hpp"
#include "loom/dtype.hpp"

namespace loom {

enum class CollectiveOp : std::uint8_t { sum, prod, max, min };

inline const char* name(CollectiveOp op) {
  switch (op) {
    case CollectiveOp::sum:
      return "sum";
    case CollectiveOp::prod:
      return "prod";
    case CollectiveOp::max:
      return "max";
    case CollectiveOp::min:
      return "min";
  }
  return "?";
}

// The collective op that combines partials of the reduction named `op` (the catalogue's sum, prod,
// max, min, any, all and the ufuncs add, multiply, maximum, minimum, logical_or, logical_and, by
// name; bools as bytes: or is max, and is min), or none.
inline std::optional<CollectiveOp> collective_op_for(const std::string& op, DType partial) {
  const bool b = partial == DType::bool_;
  if (op == "sum" || op == "add") return b ? CollectiveOp::max : CollectiveOp::sum;
  if (op == "prod" || op == "multiply") return b ? CollectiveOp::min : CollectiveOp::prod;
  if (op == "max" || op == "maximum" || op == "any" || op == "logical_or") return CollectiveOp::max;
  if (op == "min" || op == "minimum" || op == "all" || op == "logical_and")
    return CollectiveOp::min;
  return std::nullopt;
}

// One process's membership of a group of processes, each with one device (NCCL's communicator
// made from an id that one process makes and the others receive, e.g. by MPI_Bcast).
class CollectiveGroup {
 public:
  virtual ~CollectiveGroup() = default;
  virtual int size() const = 0;
  virtual int rank() const = 0;
  // buf (count elements of dtype, device memory of this process's device) becomes the op over
  // every rank's buf; queued on `stream` (null: the device's default stream).
  virtual void all_reduce(void* buf, std::int64_t count, DType dtype, CollectiveOp op,
                          void* stream) = 0;
};

class Collectives {
 public:
  virtual ~Collectives() = default;
  virtual std::string name() const = 0;    // "nccl"
  virtual std::string target() const = 0;  // the backend's target it serves: "cuda"
  virtual Availability availability() const = 0;
  // Why dtype or op cannot be reduced (empty when they can).
  virtual std::string unsupported(DType dtype, CollectiveOp op) const = 0;
  // bufs[i] (count elements of dtype, device memory of devices[i]) are reduced into bufs[0];
  // the others may be overwritten. Queued on each device's default stream, behind the work
  // already there; returns without waiting. The devices' group is made on first use and kept.
  virtual void reduce(std::span<void* const> bufs, std::span<const int> devices, std::int64_t count,
                      DType dtype, CollectiveOp op) = 0;
  // Process groups: make_group_id on one process, the same bytes given to every process's
  // join_group (which blocks until all `size` have joined).
  virtual std::string make_group_id() = 0;
  virtual std::unique_ptr<CollectiveGroup> join_group(const std::string& id, int size, int rank,
                                                      int device) = 0;
};

}  // namespace loom
