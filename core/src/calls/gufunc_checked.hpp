// Checked gufunc calls (CallOptions::checked, LOOM_CHECKED=1; docs/kernels.md, "Checked gufunc
// calls"): the call's error record, armed before the loop runs and read after it, and the
// IndexError naming the operand, the instance and the index of the first bad View access.
#pragma once
#include "loom/exec.hpp"
#include "loom/view.hpp"
#include "runtime/call_common.hpp"

namespace loom::detail {

class GufuncCheck {
 public:
  // Whether the call is checked. A loop without a checked instantiation (not built by
  // def::gufunc) is refused with TypeError before anything runs when the call asks
  // (CallOptions::checked), and runs unchecked under LOOM_CHECKED=1.
  GufuncCheck(const OpDesc& op, const Target& t, const Loop& loop, const CallOptions& o);
  bool on() const { return on_; }
  // The record for GufuncCall::check: a local on host targets, a zeroed device buffer on cuda.
  CheckRecord* arm();
  // After the loop (and the copies of results into out= arrays): on cuda the record comes back
  // and the stream is synchronized, so the call is synchronous; IndexError when an access failed,
  // naming the instance by its position in `loop_shape` (the call's, before the backend's
  // iteration merged contiguous dims).
  void raise_if_failed(const GufuncCall& call, const Shape& loop_shape);

 private:
  const OpDesc& op_;
  const Target& t_;
  bool on_ = false;
  CheckRecord record_;
  Array device_record_;
};

}  // namespace loom::detail
