// The steps of a ufunc or gufunc call after its entry (ufunc_call.cpp: the checks of the
// options, the target and the loop): the elementwise loop (elementwise_call.cpp) or the gufunc
// loop (gufunc_call.cpp), and the out= arrays they fill. Internal to the core.
#pragma once
#include <span>
#include <string>

#include "calls/call_outputs.hpp"
#include "runtime/call_common.hpp"

namespace loom::detail {

// The op as messages name it: "ufunc 'add'".
inline std::string who(const OpDesc& op) {
  return std::string(name(op.kind)) + " '" + op.name + "'";
}

// A ufunc's call on its target with its loop: broadcasting, out= slots, casts to the loop,
// read-before-write copies, host operands streamed through a device target, the loop.
Arrays call_ufunc(const OpDesc& op, const Target& t, const Loop& loop,
                  std::span<const Array> inputs, const CallOptions& o);
// A gufunc's: core dimensions bound from the layout and the operands, then its loop.
Arrays call_gufunc(const OpDesc& op, const Target& t, const Loop& loop,
                   std::span<const Array> inputs, const CallOptions& o);

}  // namespace loom::detail
