// Runtime internals shared by runtime.cpp and the plugin loader (not installed).
#pragma once
#include <array>
#include <atomic>
#include <boost/dll/shared_library.hpp>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

#include "loom/collective.hpp"
#include "loom/runtime.hpp"
#include "plugins/plugin_index.hpp"

namespace loom {

// A library found with a valid index and not opened yet (docs/plugins.md, "When libraries are
// opened"); opened when a name it lists is looked up, its target resolved or its collectives
// asked for.
struct LazyLibrary {
  std::string path;
  PluginIndex index;
  std::size_t record = 0;  // its slot in Impl::records, filled when it is opened
  bool opened = false;     // tried: loaded or refused
};

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
  std::mutex transfers_mutex;     // apart from `mutex`: counted inside calls that may hold it
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

  // Lazy opening (lazy_libraries.cpp), all under `mutex`. `lazy` is in the order the libraries
  // would have loaded eagerly, so that "which library wins" stays as it was.
  std::vector<LazyLibrary> lazy;
  std::array<bool, kNumFamilies> active{true, false};  // host always; cuda once its backend opens
  std::set<std::string> looked_up_ops, looked_up_kernels;  // names asked for so far
  // Every name the indexes list ('o' or 'k', then the op or kernel name), sorted, and whether a
  // lookup of it has done its opening (then a lookup needs no mutex: its active-family libraries
  // are open and the others will open with their family). Fixed once the constructor is done.
  std::vector<std::string> indexed_names;
  std::unique_ptr<std::atomic<bool>[]> settled;
  // Unopened libraries with a backend: calls check it without the mutex (prepare_target).
  std::atomic<int> lazy_backends{0};
  // Bumped when an opened library adds loops to a name that existed: a handle made before then
  // takes the registry's current descriptor for its calls (Runtime::current_op).
  std::atomic<std::uint64_t> generation{0};
};

struct LoadOptions {
  bool folder_checked = false;         // the caller found the folder holding the library trusted
  const PluginIndex* index = nullptr;  // the library's index: a difference refuses it (stale)
  std::string index_file;              // its path, for that message
  // Called with what the library provides before anything of it is merged (the runtime opens
  // the earlier libraries that share a name or target with it, "which library wins").
  std::function<void(const PluginIndex&)> before_merge;
  PluginIndex* described = nullptr;  // filled with what the library provides (loom-plugin-index)
};

// Loads one library into the runtime's registry and backends; PluginError when refused, with the
// registry and backends unchanged.
LoadedLibrary load_plugin_library(const std::string& path, Registry& registry, Runtime::Impl& impl,
                                  const LoadOptions& options = {});

// What the library at `path` provides, read by loading it alone into a scratch runtime through
// load_plugin_library (loom-plugin-index writes it as the library's index). PluginError when
// the library would be refused on its own.
PluginIndex describe_plugin_library(const std::string& path);

// Lazy opening (lazy_libraries.cpp); the caller holds impl.mutex unless a function says
// otherwise. Refusals are recorded in impl.records, never thrown.
// The unopened libraries of active families listing op (or kernel) `name`; the others are
// remembered for their family's opening. Takes the mutex only for a name not settled yet.
void open_listing(Runtime::Impl& impl, const std::string& name, bool kernel);
// The unopened libraries whose backend provides `target` (every backend library when empty).
void open_backends(Runtime::Impl& impl, const std::string& target);
// The unopened libraries whose backend runs `family`'s loops.
void open_family_backends(Runtime::Impl& impl, Family family);
// The unopened libraries with collectives for `target`.
void open_collectives(Runtime::Impl& impl, const std::string& target);
// After the constructor's scan: indexed_names and settled from the indexes of `lazy`.
void index_names(Runtime::Impl& impl);
// What the unopened libraries list ("did you mean" considers them); take the mutex.
std::vector<std::string> unopened_kernels(Runtime::Impl& impl);
std::vector<PluginIndex::Op> unopened_ops(Runtime::Impl& impl);
// Every unopened library.
void open_all(Runtime::Impl& impl);
// Opens a library now (one without an index at construction, Runtime::load_library), checked
// against `index` when given: the earlier unopened libraries sharing a name with it first.
// Throws PluginError when refused.
LoadedLibrary open_now(Runtime::Impl& impl, const std::string& path, bool folder_checked,
                       const PluginIndex* index);
// The index beside `library`: nullopt without one; nullopt and `why` (a refusal) when it is not
// trusted, cannot be read or parsed, or was written for another ABI version.
// `folder_checked`: the folder scan found the folder trusted.
std::optional<PluginIndex> read_index(const std::string& library, std::string& why,
                                      bool folder_checked);
// Why a name looked up in the registry may be missing: ". libloom_x.so would have defined it but
// was refused: <why>.", or the libraries refused before their ops were known; empty if none.
std::string refused_note(const Runtime::Impl& impl, const std::string& name);
// Folder holding libloom.so itself.
std::string core_library_dir();

}  // namespace loom
