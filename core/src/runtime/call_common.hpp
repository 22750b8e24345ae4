// What every call shares: its Target (where it runs, and how its arrays move and cast there) and
// the checks that pick it. A ufunc's loop: ops/pick_loop.hpp; its out= arrays:
// calls/call_outputs.hpp. Internal to the core.
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

}  // namespace loom::detail
