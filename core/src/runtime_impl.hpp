// Runtime internals shared by runtime.cpp and the plugin loader (not installed).
#pragma once
#include <memory>
#include <mutex>
#include <vector>

#include <boost/dll/shared_library.hpp>

#include "loom/runtime.hpp"

namespace loom {

struct Runtime::Impl {
  mutable std::mutex mutex;
  std::vector<boost::dll::shared_library> libs;  // kept loaded (and RTLD_NODELETE besides)
  std::vector<LoadedLibrary> records;
  std::vector<std::unique_ptr<Backend>> backends;
  int num_threads = 0;
};

// Loads one library into the runtime's registry and backends; PluginError when refused, with the
// registry and backends unchanged.
LoadedLibrary load_plugin_library(const std::string& path, Registry& registry,
                                  Runtime::Impl& impl);
// Why a plugin folder or file is unsafe to load from ("it is writable by every user (mode
// 0777)"), or empty when it is not. Follows symlinks: the mode of what is loaded counts.
std::string writable_by_others(const std::string& path);
// Folder holding libloom.so itself.
std::string core_library_dir();

}  // namespace loom
