// Kernel launches, internal to the core: the checks and configuration every launch makes
// (kernel_call.cpp), shared with launches on a device set (device_set_kernel.cpp).
#pragma once
#include <span>
#include <string>

#include "runtime/call_common.hpp"
#include "loom/kernel.hpp"
#include "loom/runtime.hpp"

namespace loom::detail {

// Picks k's overload for t and the arguments, checks cfg (threads, blocks, size, shared and
// stack bytes) and the arrays the kernel writes, and fills in `call`: the configuration (fixed
// here for a host target), the overload and the scalar arguments (array arguments are left for
// the caller to place). False when no block runs (a size with a zero extent, automatic blocks).
bool configure_launch(const KernelDesc& k, const Target& t, const LaunchConfig& cfg,
                      std::span<const KernelArgIn> args, KernelCall& call);

// args[i]'s pointer, shape and strides (as placed in the target's memory) into call.args[i].
void place_array_arg(const Array& a, int ndim, KernelArg& ka);

// t's backend runs `call` (on t.device); errors name the kernel.
void run_kernel_on(const Target& t, KernelCall& call);

// Kernel::launch_args on a device set (docs/multi-gpu.md, "Kernels").
void launch_on_device_set(const Runtime& rt, const KernelDesc& k, const LaunchConfig& cfg,
                          std::span<const KernelArgIn> args);

}  // namespace loom::detail
