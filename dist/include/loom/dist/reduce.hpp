// Reductions of distributed arrays. Over axes that include the distributed axis 0, every rank
// reduces its rows with loom and the partials are combined in a fixed order on every rank, so the
// result is the same array on every rank (docs/scale-out.md, "Reductions: what is guaranteed").
// Over other axes the reduction is local to each rank and the result stays distributed.
#pragma once
#include <optional>
#include <string>

#include "loom/dist/array.hpp"
#include "loom/runtime.hpp"

namespace loom::dist {

// How the partials over axis 0 are formed (docs/scale-out.md).
enum class Order : unsigned char {
  // Fixed blocks of global rows, the same for any rank count (a block that spans two ranks is
  // sent whole to the first); the blocks' partials are combined in block order. The result has
  // the same bits for every rank count (with the same target on every rank).
  blocks,
  // One partial per rank, combined in rank order: the same bits on every run with the same rank
  // count; for integer dtypes (and exact ops) the one-process result for any rank count.
  ranks,
  // ranks for bool and integer inputs (whose sums are exact: the same result, less work), blocks
  // otherwise.
  automatic,
};

struct ReduceOptions {
  Axes axis{};  // not given: every axis for a Reduce, axis 0 for Reduce::method (as NumPy)
  bool keepdims = false;
  Initial initial{};  // counted once, in the combine
  std::optional<DType> dtype{};
  Order order = Order::automatic;
  // Where one partial a rank is combined (Order::ranks): automatic all-reduces integer and bool
  // partials on the GPUs through an NCCL group when every rank is on its own cuda:N
  // (docs/scale-out.md, "GPU ranks and NCCL"), else through MPI on the host; fixed_order always
  // through MPI; collective on the GPUs or an error saying why (and makes automatic's order
  // ranks for floating point too).
  Combine combine = Combine::automatic;
};

// A reduction (rt.reduce("sum")) or a binary ufunc's reduce method (Reduce::method(rt, "add")).
// The op must be reorderable to reduce over axis 0 (ValueError on every rank otherwise: such a
// fold runs strictly left to right over every row, which only one process can do).
class Reduce;
loom::Array blocked_reduce(const Reduce& r, const loom::Array& x, const ReduceOptions& o,
                           const std::string& target);

class Reduce {
 public:
  Reduce(const Runtime& rt, const std::string& name);
  static Reduce method(const Runtime& rt, const std::string& ufunc_name);

  // Axes including 0: the result, the same on every rank (a host array). Collective.
  loom::Array operator()(const DistArray& a, const ReduceOptions& o = {}) const;
  // Axes without 0: each rank's rows reduced, distributed as `a`. Collective.
  DistArray local(const DistArray& a, const ReduceOptions& o = {}) const;
  const std::string& name() const { return name_; }

 private:
  friend loom::Array blocked_reduce(const Reduce&, const loom::Array&, const ReduceOptions&,
                                    const std::string&);
  Reduce() = default;
  loom::Array run(const loom::Array& x, const loom::ReduceOptions& o) const;
  const Runtime* rt_ = nullptr;
  std::string name_;
  std::optional<loom::Reduce> reduce_;
  std::optional<loom::Ufunc> method_;
  bool reorderable_ = false;
};

// The rows of axis 0 in each block of Order::blocks for an array of this global shape: at least
// 64K elements a block and at most 256 blocks, fixed by the shape alone.
std::int64_t block_rows_for(const Shape& global_shape);

// What Order::blocks computes, in one process on a whole array: the blocks reduced on `target`,
// their partials combined in block order on cpu. A distributed reduction with Order::blocks gives
// these bits for any rank count (the reference the tests compare with).
loom::Array blocked_reduce(const Reduce& r, const loom::Array& x, const ReduceOptions& o,
                           const std::string& target = "");

}  // namespace loom::dist
