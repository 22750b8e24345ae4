// A plugin library's index (libloom_x.so.index beside it): what the library provides, read
// without running its code, so that the runtime opens the library only when one of its names or
// its target is first used (docs/plugins.md, "When libraries are opened"). Not installed.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loom/op.hpp"

namespace loom {

struct PluginIndex {
  std::uint32_t abi_version = 0;
  std::string name;  // PluginInfo::name ("math")
  Family family = Family::host;
  std::string backend;      // the target its backend provides ("cpu"), or empty
  std::string collectives;  // the backend target its collectives serve ("cuda"), or empty
  struct Op {
    std::string name;
    OpKind kind;
    bool operator==(const Op&) const = default;
  };
  std::vector<Op> ops;               // sorted by name
  std::vector<std::string> kernels;  // sorted
  bool operator==(const PluginIndex&) const = default;
};

inline constexpr int kPluginIndexFormat = 1;

// "libloom_math.so" -> "libloom_math.so.index".
std::string index_path_for(const std::string& library);
// The index as its file holds it: "loom-plugin-index 1 abi 12", then one line a field, op and
// kernel. Ops and kernels are written sorted.
std::string format_plugin_index(const PluginIndex& index);
// Parses an index file's text; nullopt with `why` set when it is not one this loom reads. The
// ABI version is returned as read: the caller compares it.
std::optional<PluginIndex> parse_plugin_index(const std::string& text, std::string& why);
// What differs between an index and what the library provides, for a "stale" message: "it lists
// op 'x' / the library defines op 'y'"; empty when they agree.
std::string plugin_index_difference(const PluginIndex& listed, const PluginIndex& actual);

}  // namespace loom
