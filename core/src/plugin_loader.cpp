// Loads plugin and backend libraries with Boost.DLL: one exported `loom_plugin` factory each, its
// ABI version checked before anything else in it is used.
#include <dlfcn.h>
#include <sys/stat.h>

#include <cstdio>

#include <filesystem>

#include "loom/error.hpp"
#include "loom/plugin.hpp"
#include "runtime_impl.hpp"

namespace loom {

std::string core_library_dir() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&core_library_dir), &info) == 0 || !info.dli_fname) return {};
  return std::filesystem::path(info.dli_fname).parent_path().string();
}

std::string writable_by_others(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return {};  // missing: the load reports it
  if ((st.st_mode & S_IWOTH) == 0) return {};
  char mode[8];
  std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
  // The sticky bit (as on /tmp) keeps others from replacing a file, not from adding one: a
  // world-writable folder is refused with or without it.
  return std::string("it is writable by every user (mode ") + mode +
         "); remove the write permission of others (chmod o-w)";
}

LoadedLibrary load_plugin_library(const std::string& path, Registry& registry,
                                  Runtime::Impl& impl) {
  namespace dll = boost::dll;
  const std::string file = std::filesystem::path(path).filename().string();
  if (auto why = writable_by_others(path); !why.empty()) {
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
  std::unique_ptr<Backend> backend;
  if (info->make_backend) {
    try {
      backend.reset(info->make_backend());
    } catch (const std::exception& e) {
      throw PluginError("backend in " + path + " failed to start: " + e.what());
    }
    for (const auto& b : impl.backends) {
      if (b->target() == backend->target()) {
        throw PluginError("plugin " + path + " provides target '" + backend->target() +
                          "', already provided by backend '" + b->name() + "'; refused");
      }
    }
    if (impl.num_threads > 0) backend->set_num_threads(impl.num_threads);
  }
  if (info->register_ops) {
    Registrar reg(info->family);
    try {
      info->register_ops(reg);
    } catch (const std::exception& e) {
      throw PluginError("plugin " + path + " failed while registering its ops: " + e.what());
    }
    try {
      registry.merge(reg, file);
    } catch (const PluginError& e) {  // merge knows the file name only; name the path too
      throw PluginError("cannot load plugin " + path + ": " + e.what());
    }
  }
  if (backend) impl.backends.push_back(std::move(backend));
  impl.libs.push_back(std::move(lib));
  return LoadedLibrary{path, info->name ? info->name : file, info->family, true, {}};
}

}  // namespace loom
