// Runtime internals shared by runtime.cpp and the plugin loader (not installed).
#pragma once
#include <array>
#include <atomic>
#include <boost/dll/shared_library.hpp>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "loom/collective.hpp"
#include "loom/runtime.hpp"

namespace loom {

struct Runtime::Impl {
  mutable std::mutex mutex;
  std::vector<boost::dll::shared_library> libs;  // kept loaded (and RTLD_NODELETE besides)
  std::vector<LoadedLibrary> records;
  std::vector<SearchNotice> notices;  // written by the constructor only
  std::vector<std::unique_ptr<Backend>> backends;
  std::vector<std::unique_ptr<Collectives>> collectives;  // one a backend target at most
  int num_threads = 0;
  TransferGuard transfer_guard = TransferGuard::allow;
  bool checked_launches = false;  // LOOM_CHECKED, read once by the constructor
  std::mutex transfers_mutex;  // apart from `mutex`: counted inside calls that may hold it
  std::map<int, TransferCounts> transfers;  // by device index
  // Op and kernel names that libraries refused at merge time registered (by path), so that a
  // lookup of a missing name can say which refused library would have defined it.
  std::map<std::string, std::vector<std::string>> refused_defines;
  // Declared last so that they go first: the registry's descriptors before the libraries
  // holding their code.
  Registry registry;
  std::vector<std::string> search_path;
  std::string default_target;
  std::weak_ptr<const Runtime> shared_owner;  // Runtime::shared(), made on first use
  // Targets without ':' that resolve_target found available, read without the mutex (a call's
  // dispatch): each slot is written once, its name before its backend (release), under `mutex`.
  // Backends are never removed and their target, availability and device count do not change.
  struct TargetMemo {
    char name[24] = {};
    std::atomic<Backend*> backend{nullptr};
  };
  std::array<TargetMemo, 4> target_memo;
  std::atomic<int> target_memo_count{0};
};

// Loads one library into the runtime's registry and backends; PluginError when refused, with the
// registry and backends unchanged.
// `folder_checked`: the caller found the folder holding `path` trusted (the folder scan).
LoadedLibrary load_plugin_library(const std::string& path, Registry& registry, Runtime::Impl& impl,
                                  bool folder_checked = false);
// Why a name looked up in the registry may be missing: ". libloom_x.so would have defined it but
// was refused: <why>.", or the libraries refused before their ops were known; empty if none.
std::string refused_note(const Runtime::Impl& impl, const std::string& name);
// Folder holding libloom.so itself.
std::string core_library_dir();

}  // namespace loom
