// Steps every call shares: target and device checks, loop choice, input casts, outputs (out=,
// casting back, overlap with inputs). Internal to the core.
#pragma once
#include <span>
#include <string>
#include <vector>

#include "loom/runtime.hpp"
#include "loom/type_resolution.hpp"

namespace loom::detail {

// Where a call runs and where its arrays live. On a device target a call is in device mode when
// any argument is a device array (host arguments are copied in, results stay on the device);
// with host arrays only, results come back to the host before the call returns.
struct Target {
  Backend* backend;
  int device;
  Family family;
  std::string name;
  const Runtime* rt = nullptr;
  Stream stream{};
  bool device_mode = false;

  bool on_device() const { return family != Family::host; }
  std::string device_name() const { return "cuda:" + std::to_string(device); }
  Array alloc(const Shape& shape, DType dtype, bool zero) const;  // in the call's result memory
  Array cast(const Array& a, DType to) const;                     // in a's own memory
  Array to_device(const Array& a) const;  // a, or a copy in the device's memory
  void copy(const Array& src, const Array& dst) const;
  // dst = src (cast, broadcast) where mask is true; all three in the call's memory.
  void copy_where(const Array& src, const Array& dst, const Array& mask) const;
};

// `labels` name the arrays in a TransferGuard error ("argument 0", "out="); default "array i".
Target pick_target(const Runtime& rt, const std::string& target, const OpDesc& op,
                   std::span<const Array* const> arrays, const Stream& stream = {},
                   std::span<const std::string> labels = {});
// The same for any call; `what` names it in messages ("kernel 'histogram'").
Target pick_target(const Runtime& rt, const std::string& target, const std::string& what,
                   std::span<const Array* const> arrays, const Stream& stream = {},
                   std::span<const std::string> labels = {});

// Loop for these inputs (after argument-count checks).
const Loop& pick_loop(const OpDesc& op, Family family, std::span<const Array> inputs,
                      std::optional<DType> dtype, const std::string& signature, Casting casting);

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

}  // namespace loom::detail
