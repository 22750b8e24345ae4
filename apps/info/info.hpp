// loom-info's two views of one Runtime: a readable report and a JSON object.
#pragma once
#include <loom/loom.hpp>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace loom::apps {

// Available targets that can run `op` (or a kernel): their backend's family has loops for it.
std::vector<std::string> op_targets(const Runtime& rt, const OpDesc& op);
std::vector<std::string> kernel_targets(const Runtime& rt, const KernelDesc& k);

// The hand-written replacements among an op's loops: "float32(float32) [cuda]: cub::...".
std::vector<std::string> hand_written_loops(const OpDesc& op);

// {"search_path", "search_notices", "default_target", "libraries", "targets", "ops", "kernels"}.
nlohmann::ordered_json info_json(const Runtime& rt);

void print_info(const Runtime& rt, std::ostream& os);

}  // namespace loom::apps
