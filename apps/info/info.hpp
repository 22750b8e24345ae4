// loom-info's two views of one Runtime: a readable report and a JSON object.
#pragma once
#include <loom/info.hpp>
#include <loom/loom.hpp>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace loom::apps {

// The readable report is libloom's loom::print_info (loom/info.hpp), with the helpers used here.
// {"search_path", "search_notices", "default_target", "libraries", "targets", "ops", "kernels"}.
nlohmann::ordered_json info_json(const Runtime& rt);

}  // namespace loom::apps
