// What loom-info prints, callable by any program: the search path and its notices, the libraries
// loaded or refused (and the program's own definitions, Runtime::define, marked as such), the
// targets, and every op and kernel with its signatures and where it comes from.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include "loom/runtime.hpp"

namespace loom {

// loom-info's readable report of this runtime.
void print_info(const Runtime& rt, std::ostream& os);

// Available targets that can run `op` (or a kernel): their backend's family has loops for it.
std::vector<std::string> op_targets(const Runtime& rt, const OpDesc& op);
std::vector<std::string> kernel_targets(const Runtime& rt, const KernelDesc& k);

// The hand-written replacements among an op's loops: "float32(float32) [cuda]: cub::...".
std::vector<std::string> hand_written_loops(const OpDesc& op);

}  // namespace loom
