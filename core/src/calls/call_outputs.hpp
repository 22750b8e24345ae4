// A ufunc's or gufunc's outputs: where each result is computed (the caller's out= array, or a
// fresh one copied into it afterwards), the inputs copied that an output could overwrite before
// they are read, and out= filled at the end. Internal to the core.
#pragma once
#include <optional>

#include "runtime/call_common.hpp"

namespace loom::detail {

// Where a result is computed: the caller's out= array itself when its dtype matches and no mask
// is involved, else a fresh array copied into out= afterwards.
struct OutSlot {
  Array target;              // what the loop writes
  std::optional<Array> out;  // the caller's array, when it must be filled afterwards
};
OutSlot make_out_slot(const Target& t, const OpDesc& op, int k, DType loop_dtype,
                      const Shape& shape, const Array* given, Casting casting, bool masked);

// Replaces inputs that may share memory with an output (by address: loom::may_share_memory;
// other than the same elements, when `identical_ok`) by copies, so results are as if the inputs
// were read first (NumPy's rule).
using Arrays = SmallVec<Array, 4>;
using OutSlots = SmallVec<OutSlot, 2>;
void resolve_overlap(const Target& t, Arrays& inputs, const OutSlots& outs, bool identical_ok);

// Fills out= arrays that were computed elsewhere (casting, where=).
Arrays finish_outputs(const Target& t, const OutSlots& slots, const CallOptions& o);

}  // namespace loom::detail
