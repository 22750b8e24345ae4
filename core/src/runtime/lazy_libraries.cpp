// Opening plugin libraries when first used, from their indexes (docs/plugins.md, "When libraries
// are opened"). Every function here runs under Runtime::Impl::mutex unless it says otherwise.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "loom/error.hpp"
#include "loom/plugin.hpp"
#include "loom/plugin_file.hpp"
#include "runtime/runtime_impl.hpp"

namespace loom {

namespace {

bool lists_op(const PluginIndex& x, const std::string& name) {
  auto it =
      std::lower_bound(x.ops.begin(), x.ops.end(), name,
                       [](const PluginIndex::Op& o, const std::string& n) { return o.name < n; });
  return it != x.ops.end() && it->name == name;
}

bool lists_kernel(const PluginIndex& x, const std::string& name) {
  return std::binary_search(x.kernels.begin(), x.kernels.end(), name);
}

// Whether two libraries could compete for something: an op or kernel name, a backend target or a
// collectives target. Then the one earlier in the eager load order must be opened first.
bool shares(const PluginIndex& earlier, const PluginIndex& what) {
  if (!what.backend.empty() && earlier.backend == what.backend) return true;
  if (!what.collectives.empty() && earlier.collectives == what.collectives) return true;
  for (const auto& o : what.ops) {
    if (lists_op(earlier, o.name)) return true;
  }
  for (const auto& k : what.kernels) {
    if (lists_kernel(earlier, k)) return true;
  }
  return false;
}

void open_at(Runtime::Impl& impl, std::size_t i);

// Opens the unopened libraries before position `before` (of `impl.lazy`) that share something
// with `what`, of an active family or of `family` (the opening library's own).
void open_earlier_sharing(Runtime::Impl& impl, const PluginIndex& what, Family family,
                          std::size_t before) {
  for (std::size_t j = 0; j < before && j < impl.lazy.size(); ++j) {
    const LazyLibrary& e = impl.lazy[j];
    if (e.opened) continue;
    const auto f = static_cast<std::size_t>(e.index.family);
    if ((impl.active[f] || e.index.family == family) && shares(e.index, what)) open_at(impl, j);
  }
}

// A backend of `family` was opened: its op libraries are used from now on, those listing a name
// looked up so far at once (a handle of that name may be called on the new target).
void activate(Runtime::Impl& impl, Family family) {
  const auto f = static_cast<std::size_t>(family);
  if (impl.active[f]) return;
  impl.active[f] = true;
  for (std::size_t j = 0; j < impl.lazy.size(); ++j) {
    const LazyLibrary& e = impl.lazy[j];
    if (e.opened || e.index.family != family) continue;
    bool wanted = false;
    for (const auto& o : e.index.ops) wanted = wanted || impl.looked_up_ops.count(o.name);
    for (const auto& k : e.index.kernels) wanted = wanted || impl.looked_up_kernels.count(k);
    if (wanted) open_at(impl, j);
  }
}

void open_at(Runtime::Impl& impl, std::size_t i) {
  if (impl.lazy[i].opened) return;
  impl.lazy[i].opened = true;  // first: opening the earlier ones must not come back to it
  // `impl.lazy` does not grow while libraries are opened, so the reference stays valid.
  const LazyLibrary& lib = impl.lazy[i];
  if (!lib.index.backend.empty()) impl.lazy_backends.fetch_sub(1, std::memory_order_release);
  LoadOptions o;
  o.folder_checked = true;
  o.index = &lib.index;
  o.index_file = index_path_for(lib.path);
  o.before_merge = [&](const PluginIndex& what) {
    open_earlier_sharing(impl, what, lib.index.family, i);
  };
  LoadedLibrary rec;
  try {
    rec = load_plugin_library(lib.path, impl.registry, impl, o);
  } catch (const Error& e) {
    rec = LoadedLibrary{lib.path, std::filesystem::path(lib.path).filename().string(),
                        lib.index.family, false, e.what()};
  }
  impl.records[lib.record] = rec;
  if (rec.ok && !lib.index.backend.empty()) activate(impl, lib.index.family);
}

}  // namespace

void index_names(Runtime::Impl& impl) {
  std::vector<std::string>& n = impl.indexed_names;
  for (const auto& l : impl.lazy) {
    for (const auto& o : l.index.ops) n.push_back('o' + o.name);
    for (const auto& k : l.index.kernels) n.push_back('k' + k);
  }
  std::sort(n.begin(), n.end());
  n.erase(std::unique(n.begin(), n.end()), n.end());
  impl.settled = std::make_unique<std::atomic<bool>[]>(n.size());
}

void open_listing(Runtime::Impl& impl, const std::string& name, bool kernel) {
  // A name no index lists has nothing to open; one looked up before has done its opening.
  const std::string key = (kernel ? 'k' : 'o') + name;
  const auto& n = impl.indexed_names;
  const auto it = std::lower_bound(n.begin(), n.end(), key);
  if (it == n.end() || *it != key) return;
  std::atomic<bool>& settled = impl.settled[static_cast<std::size_t>(it - n.begin())];
  if (settled.load(std::memory_order_acquire)) return;
  std::lock_guard lock(impl.mutex);
  for (std::size_t i = 0; i < impl.lazy.size(); ++i) {
    const LazyLibrary& e = impl.lazy[i];
    if (e.opened) continue;
    if (!(kernel ? lists_kernel(e.index, name) : lists_op(e.index, name))) continue;
    if (impl.active[static_cast<std::size_t>(e.index.family)]) {
      open_at(impl, i);
    } else {  // remembered: opened with its family (activate)
      (kernel ? impl.looked_up_kernels : impl.looked_up_ops).insert(name);
    }
  }
  settled.store(true, std::memory_order_release);
}

void open_backends(Runtime::Impl& impl, const std::string& target) {
  if (impl.lazy_backends.load(std::memory_order_relaxed) == 0) return;
  for (std::size_t i = 0; i < impl.lazy.size(); ++i) {
    const LazyLibrary& e = impl.lazy[i];
    if (!e.opened && !e.index.backend.empty() && (target.empty() || e.index.backend == target)) {
      open_at(impl, i);
    }
  }
}

void open_family_backends(Runtime::Impl& impl, Family family) {
  for (std::size_t i = 0; i < impl.lazy.size(); ++i) {
    const LazyLibrary& e = impl.lazy[i];
    if (!e.opened && !e.index.backend.empty() && e.index.family == family) open_at(impl, i);
  }
}

void open_collectives(Runtime::Impl& impl, const std::string& target) {
  for (std::size_t i = 0; i < impl.lazy.size(); ++i) {
    const LazyLibrary& e = impl.lazy[i];
    if (!e.opened && e.index.collectives == target) open_at(impl, i);
  }
}

std::vector<std::string> unopened_kernels(Runtime::Impl& impl) {
  std::lock_guard lock(impl.mutex);
  std::vector<std::string> out;
  for (const auto& l : impl.lazy) {
    if (!l.opened) out.insert(out.end(), l.index.kernels.begin(), l.index.kernels.end());
  }
  return out;
}

std::vector<PluginIndex::Op> unopened_ops(Runtime::Impl& impl) {
  std::lock_guard lock(impl.mutex);
  std::vector<PluginIndex::Op> out;
  for (const auto& l : impl.lazy) {
    if (!l.opened) out.insert(out.end(), l.index.ops.begin(), l.index.ops.end());
  }
  return out;
}

void open_all(Runtime::Impl& impl) {
  for (std::size_t i = 0; i < impl.lazy.size(); ++i) open_at(impl, i);
}

LoadedLibrary open_now(Runtime::Impl& impl, const std::string& path, bool folder_checked,
                       const PluginIndex* index) {
  PluginIndex what;
  LoadOptions o;
  o.folder_checked = folder_checked;
  o.described = &what;
  if (index) {
    o.index = index;
    o.index_file = index_path_for(path);
  }
  // Every library of `lazy` so far came earlier in the load order.
  const std::size_t before = impl.lazy.size();
  o.before_merge = [&](const PluginIndex& w) { open_earlier_sharing(impl, w, w.family, before); };
  LoadedLibrary rec = load_plugin_library(path, impl.registry, impl, o);
  if (!what.backend.empty()) activate(impl, what.family);
  return rec;
}

std::optional<PluginIndex> read_index(const std::string& library, std::string& why,
                                      bool folder_checked) {
  const std::string file = index_path_for(library);
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) return std::nullopt;
  const std::string rebuild = "; rebuild the plugin (loom_add_plugin writes the index)";
  // Whoever can rewrite the index decides when the library is opened: the library's own rules.
  if (auto t = plugin_trust_problem(file, folder_checked); !t.empty()) {
    why = "plugin " + library + " refused: its index " + file + ": " + t;
    return std::nullopt;
  }
  std::ifstream in(file, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string bad;
  std::optional<PluginIndex> index;
  if (!in && !in.eof()) {
    bad = std::string("it cannot be read (") + std::strerror(errno) + ")";
  } else {
    index = parse_plugin_index(text, bad);
  }
  if (!index) {
    why =
        "plugin " + library + " refused: its index " + file + " cannot be parsed: " + bad + rebuild;
    return std::nullopt;
  }
  if (index->abi_version != kAbiVersion) {
    why = "plugin " + library + " refused: its index " + file +
          " was written for loom ABI version " + std::to_string(index->abi_version) +
          " but this loom has ABI version " + std::to_string(kAbiVersion) +
          "; rebuild the plugin against this loom";
    return std::nullopt;
  }
  return index;
}

}  // namespace loom
