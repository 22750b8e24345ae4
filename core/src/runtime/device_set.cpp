// Parsing device sets: "cuda:all" and "cuda:0,1" into the single-device targets they name.
#include "runtime/device_set.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "loom/backend.hpp"
#include "loom/error.hpp"

namespace loom {

std::vector<std::string> Runtime::device_targets(const std::string& target) const {
  if (!detail::names_device_set(target)) {
    resolve_target(target);  // the usual errors for an unknown or unavailable target
    return {target.empty() ? default_target() : target};
  }
  const auto colon = target.find(':');
  const std::string base = target.substr(0, colon), rest = target.substr(colon + 1);
  // The backend and its availability, with resolve_target's messages.
  Backend* backend = resolve_target(base).first;
  std::vector<std::string> out;
  if (rest == "all") {
    for (int d = 0; d < backend->device_count(); ++d) out.push_back(base + ":" + std::to_string(d));
    return out;
  }
  std::vector<int> seen;
  std::size_t start = 0;
  while (start <= rest.size()) {
    const std::size_t comma = std::min(rest.find(',', start), rest.size());
    const std::string item = rest.substr(start, comma - start);
    if (item.empty()) {
      throw TargetError("target '" + target + "': an empty entry in the device list (write " +
                        base + ":0,1 or " + base + ":all)");
    }
    const std::string one = base + ":" + item;
    const int d = resolve_target(one).second;  // a number, and a device that exists
    if (std::find(seen.begin(), seen.end(), d) != seen.end()) {
      throw TargetError("target '" + target + "': device " + std::to_string(d) +
                        " is listed twice; each device of a set runs its own rows");
    }
    seen.push_back(d);
    out.push_back(one);
    start = comma + 1;
  }
  return out;
}

}  // namespace loom
