// Steps every call shares: target and device checks, loop choice, input casts, outputs (out=,
// casting back, overlap with inputs). Internal to the core.
#pragma once
#include <span>
#include <string>
#include <vector>

#include "loom/runtime.hpp"
#include "loom/type_resolution.hpp"

namespace loom::detail {

struct Target {
  Backend* backend;
  int device;
  Family family;
  std::string name;
};

Target pick_target(const Runtime& rt, const std::string& target, const OpDesc& op,
                   std::span<const Array* const> arrays);

// Loop for these inputs (after argument-count checks).
const Loop& pick_loop(const OpDesc& op, Family family, std::span<const Array> inputs,
                      std::optional<DType> dtype, const std::string& signature, Casting casting);

// Input cast to the loop's dtype (a host copy when it differs).
Array cast_input(const Array& a, DType to);

// Where a result is computed: the caller's out= array itself when its dtype matches and no mask
// is involved, else a fresh array copied into out= afterwards.
struct OutSlot {
  Array target;              // what the loop writes
  std::optional<Array> out;  // the caller's array, when it must be filled afterwards
};
OutSlot make_out_slot(const OpDesc& op, int k, DType loop_dtype, const Shape& shape,
                      const Array* given, Casting casting, bool masked);

// Replaces inputs that share memory with an output (other than an identical view, when
// `identical_ok`) by copies, so results are as if the inputs were read first (NumPy's rule).
using Arrays = SmallVec<Array, 4>;
using OutSlots = SmallVec<OutSlot, 2>;
void resolve_overlap(Arrays& inputs, const OutSlots& outs, bool identical_ok);

}  // namespace loom::detail
