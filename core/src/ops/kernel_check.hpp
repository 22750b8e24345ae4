// Checked kernel launches (docs/kernels.md, "Checked launches"): the message of the IndexError a
// launch raises when its CheckRecord holds an out-of-bounds View access, in the host bounds
// check's format (argument, block, thread, then index, axis and size).
#pragma once
#include <string>

#include "loom/kernel.hpp"

namespace loom::detail {

// "argument 0 (const float32[:]) in block (0, 0, 0), thread (9, 0, 0): index 10 is out of bounds
// for axis 0 with size 10 (a 1-d View)"; the record must hold an error (flag set).
std::string checked_access_error(const KernelCall& c, const CheckRecord& r);

}  // namespace loom::detail
