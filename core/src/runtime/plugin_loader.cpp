// Loads plugin and backend libraries with Boost.DLL: one exported `loom_plugin` factory each, its
// ABI version checked before anything else in it is used.
#include <dlfcn.h>

#include <algorithm>
#include <filesystem>

#include "loom/error.hpp"
#include "loom/plugin.hpp"
#include "loom/plugin_file.hpp"
#include "runtime/runtime_impl.hpp"

namespace loom {

std::string core_library_dir() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&core_library_dir), &info) == 0 || !info.dli_fname) return {};
  return std::filesystem::path(info.dli_fname).parent_path().string();
}

LoadedLibrary load_plugin_library(const std::string& path, Registry& registry, Runtime::Impl& impl,
                                  const LoadOptions& options) {
  namespace dll = boost::dll;
  const std::string file = std::filesystem::path(path).filename().string();
  if (auto why = plugin_trust_problem(path, options.folder_checked); !why.empty()) {
    throw PluginError("plugin " + path + " refused: " + why);
  }
  // Before dlopen: a file whose segments reach past its end would be a SIGBUS inside the loader
  // (a half-copied install), one for another machine at best a confusing dlerror.
  if (auto why = plugin_file_problem(path); !why.empty()) {
    throw PluginError("plugin " + path + " refused: " + why);
  }
  dll::shared_library lib;
  try {
    // RTLD_NODELETE: unloading TBB while its workers run crashed at exit (FINDINGS.md).
    lib.load(path, static_cast<dll::load_mode::type>(RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE));
  } catch (const std::exception& e) {
    const char* why = dlerror();
    throw PluginError("cannot load plugin " + path + ": " + (why ? why : e.what()));
  }
  if (!lib.has("loom_plugin")) {
    throw PluginError("plugin " + path +
                      " exports no loom_plugin factory; declare one with LOOM_PLUGIN(...) "
                      "from <loom/plugin.hpp>");
  }
  const PluginInfo* info = lib.get_alias<const PluginInfo*()>("loom_plugin")();
  if (!info) throw PluginError("plugin " + path + ": its loom_plugin factory returned null");
  if (info->abi_version != kAbiVersion) {
    throw PluginError("plugin " + path + " was built for loom ABI version " +
                      std::to_string(info->abi_version) + " but this loom has ABI version " +
                      std::to_string(kAbiVersion) + "; rebuild the plugin against this loom");
  }
  PluginIndex actual;
  actual.abi_version = info->abi_version;
  actual.name = info->name ? info->name : file;
  actual.family = info->family;
  std::unique_ptr<Backend> backend;
  if (info->make_backend) {
    try {
      backend.reset(info->make_backend());
    } catch (const std::exception& e) {
      throw PluginError("backend in " + path + " failed to start: " + e.what());
    }
    actual.backend = backend->target();
    if (impl.num_threads > 0) backend->set_num_threads(impl.num_threads);
  }
  std::unique_ptr<Collectives> coll;
  if (lib.has("loom_collectives")) {
    try {
      coll.reset(lib.get_alias<Collectives*()>("loom_collectives")());
    } catch (const std::exception& e) {
      throw PluginError("collectives in " + path + " failed to start: " + e.what());
    }
    if (!coll) throw PluginError("plugin " + path + ": its loom_collectives factory returned null");
    actual.collectives = coll->target();
  }
  Registrar reg(info->family);
  if (info->register_ops) {
    try {
      info->register_ops(reg);
    } catch (const std::exception& e) {
      throw PluginError("plugin " + path + " failed while registering its ops: " + e.what());
    }
    for (const auto& d : reg.staged()) actual.ops.push_back({d.name, d.kind});
    for (const auto& k : reg.staged_kernels()) actual.kernels.push_back(k.name);
  }
  if (options.described) *options.described = actual;
  // What a library would have defined, so that a lookup of one of its ops can say why it is
  // missing (refused_note).
  auto note_defines = [&] {
    auto& names = impl.refused_defines[path];
    for (const auto& o : actual.ops) names.push_back(o.name);
    for (const auto& k : actual.kernels) names.push_back(k);
    if (options.index) {
      for (const auto& o : options.index->ops) names.push_back(o.name);
      for (const auto& k : options.index->kernels) names.push_back(k);
    }
  };
  if (options.index) {
    if (auto diff = plugin_index_difference(*options.index, actual); !diff.empty()) {
      note_defines();
      throw PluginError(path + ": its index " + options.index_file + " is stale (" + diff +
                        "); rebuild the plugin (loom_add_plugin writes the index) or delete the "
                        "index to load it at start-up");
    }
  }
  if (options.before_merge) options.before_merge(actual);
  if (backend) {
    for (const auto& b : impl.backends) {
      if (b->target() == backend->target()) {
        throw PluginError("plugin " + path + " provides target '" + backend->target() +
                          "', already provided by backend '" + b->name() + "'; refused");
      }
    }
  }
  if (coll) {
    for (const auto& c : impl.collectives) {
      if (c->target() == coll->target()) {
        throw PluginError("plugin " + path + " provides collectives for '" + coll->target() +
                          "', already provided by '" + c->name() + "'; refused");
      }
    }
  }
  if (info->register_ops) {
    // A name that exists already gains loops: handles holding its old descriptor must see them.
    bool changes = false;
    for (const auto& o : actual.ops) changes = changes || registry.find(o.name) != nullptr;
    for (const auto& k : actual.kernels) changes = changes || registry.find_kernel(k) != nullptr;
    try {
      registry.merge(reg, file, actual.name);
    } catch (const PluginError& e) {  // merge knows the file name only; name the path too
      note_defines();
      throw PluginError("cannot load plugin " + path + ": " + e.what());
    }
    if (changes) impl.generation.fetch_add(1, std::memory_order_release);
  }
  if (backend) impl.backends.push_back(std::move(backend));
  if (coll) impl.collectives.push_back(std::move(coll));
  impl.libs.push_back(std::move(lib));
  return LoadedLibrary{path, actual.name, info->family, true, {}};
}

PluginIndex describe_plugin_library(const std::string& path) {
  // Heap-allocated and kept: the backends it made are destroyed before their libraries.
  auto impl = std::make_unique<Runtime::Impl>();
  PluginIndex x;
  LoadOptions o;
  o.described = &x;
  load_plugin_library(path, impl->registry, *impl, o);
  return x;
}

std::string refused_note(const Runtime::Impl& impl, const std::string& name) {
  std::string would, unknown;
  std::vector<std::string> seen;
  int listed = 0, more = 0;
  for (const auto& r : impl.records) {
    if (r.ok || std::find(seen.begin(), seen.end(), r.path) != seen.end()) continue;
    seen.push_back(r.path);
    auto it = impl.refused_defines.find(r.path);
    if (it != impl.refused_defines.end()) {
      if (std::find(it->second.begin(), it->second.end(), name) != it->second.end()) {
        would += ' ';  // appended piece by piece: GCC 12 warns (-Wrestrict) on " " + string
        would += std::filesystem::path(r.path).filename().string();
        would += " would have defined it but was refused: ";
        would += r.error;
        would += '.';
      }
    } else if (listed < 4) {  // bounded: the message stays readable
      if (!unknown.empty()) unknown += "; ";
      unknown += r.error;
      ++listed;
    } else {
      ++more;
    }
  }
  if (!would.empty()) return "." + would;
  if (unknown.empty()) return {};
  return ". Libraries refused before their ops were known (one of them may define it): " + unknown +
         (more ? "; and " + std::to_string(more) + " more (Runtime::libraries() lists them)" : "") +
         ".";
}

}  // namespace loom
