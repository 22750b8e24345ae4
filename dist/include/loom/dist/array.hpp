// loom::dist::DistArray: an array block-distributed along axis 0 over a Comm (HeAT's split=0,
// PETSc's Vec). Each rank holds its rows as a loom::Array on its own target, optionally with
// halo rows of its neighbours around them. Creating one (scatter, from_local) and gathering it are
// collective calls: every rank of the Comm makes them, in the same order.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "loom/array.hpp"
#include "loom/dist/comm.hpp"
#include "loom/dist/rows.hpp"
#include "loom/runtime.hpp"

namespace loom::dist {

class DistArray {
 public:
  DistArray() = default;
  bool valid() const { return state_ != nullptr; }

  const Comm& comm() const;
  const Shape& shape() const;  // the global shape; shape()[0] rows split as block_rows
  DType dtype() const;
  int ndim() const { return static_cast<int>(shape().size()); }
  std::int64_t size() const { return shape_size(shape()); }
  const std::string& target() const;  // this rank's target ("parallel", "cuda:1")
  Rows rows() const;                  // the global rows this rank owns
  Rows rows_of(int rank) const;

  // This rank's rows, shape (rows().size(), shape()[1:]...), on target(): a view that calls may
  // read and write (a stencil's output, an out= of a loom call).
  const loom::Array& local() const;
  // The owned rows with `halo()` rows on each side: rows [0, halo()) are the previous rank's last
  // rows, then the owned rows, then the next rank's first rows (exchange_halo fills them). The
  // halo rows of rank 0's top and the last rank's bottom are never written by loom: a stencil's
  // boundary values may live there.
  const loom::Array& with_halo() const;
  int halo() const;

  std::string str()
      const;  // "float64 array of global shape (10, 3), rows [3, 6) of 10 on rank 1 of 4, parallel"

  // Internal: made by the functions of loom::dist.
  struct State;
  explicit DistArray(std::shared_ptr<State> s) : state_(std::move(s)) {}
  State& state() const;

 private:
  std::shared_ptr<State> state_;
};

// Where a new distributed array's shards live.
struct Placement {
  int root = 0;          // scatter's root, gather's destination
  std::string target{};  // this rank's target; "" = the runtime's default
};

// The root's `global` (a host or device array; ignored on other ranks, which may pass
// loom::Array()) split by block_rows over comm: every rank gets its rows on its target. Collective.
DistArray scatter(const Runtime& rt, const Comm& comm, const loom::Array& global,
                  const Placement& p = {});
// Every rank's rows, concatenated in rank order, as a C-contiguous host array on `root`; other
// ranks get an invalid loom::Array(). Collective.
loom::Array gather(const Runtime& rt, const DistArray& a, int root = 0);
// The whole array on every rank (host). Collective.
loom::Array allgather(const Runtime& rt, const DistArray& a);
// Each rank's own rows (on any device; kept as the shard, not copied, when C-contiguous) made one
// distributed array: the ranks' row counts must follow block_rows of their sum, and their other
// dims and dtypes must agree (DistributionError on every rank otherwise). Collective. target ""
// = the runtime's default for host arrays, the array's device ("cuda:N") for device arrays.
DistArray from_local(const Runtime& rt, const Comm& comm, const loom::Array& local,
                     const std::string& target = "");
// A new distributed array of zeros with the global shape, on this rank's target. Collective.
DistArray zeros(const Runtime& rt, const Comm& comm, Shape global_shape, DType dtype,
                const std::string& target = "");

}  // namespace loom::dist
