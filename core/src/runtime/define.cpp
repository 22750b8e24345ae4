// Runtime::define: ops and kernels the program defines itself, merged by a plugin's rules.
#include <algorithm>
#include <filesystem>

#include "loom/error.hpp"
#include "runtime/runtime_impl.hpp"

namespace loom {

namespace {

// The executable, for the record loom's listing shows; empty where /proc is not mounted.
std::string program_path() {
  std::error_code ec;
  const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : p.string();
}

// The targets whose backends run `family`'s loops, as the loader names their libraries.
const char* family_targets(Family family) {
  return family == Family::host ? "cpu (libloom_serial.so) or parallel (libloom_tbb.so)"
                                : "cuda (libloom_cuda.so)";
}

}  // namespace

void Runtime::define(const std::string& owner, Family family,
                     const std::function<void(Registrar&)>& fn) {
  if (owner.empty()) {
    throw ValueError(
        "Runtime::define: the owner name is empty; name the program's definitions (\"myapp\") as "
        "a plugin names itself");
  }
  if (!fn) throw ValueError("Runtime::define('" + owner + "'): the definition function is empty");
  {
    // A loop no loaded backend can run would only fail at the first call, far from its cause.
    std::lock_guard lock(impl_->mutex);
    open_family_backends(*impl_, family);
    const bool runs = std::any_of(impl_->backends.begin(), impl_->backends.end(),
                                  [&](const auto& b) { return b->family() == family; });
    if (!runs) {
      throw TargetError("Runtime::define('" + owner + "') for family " + name(family) +
                        ": no loaded backend runs " + name(family) + " loops (target " +
                        family_targets(family) +
                        " is not on the plugin search path or was refused: Runtime::libraries() "
                        "says why); nothing was defined");
    }
  }
  // Without the lock: the program's function may ask the runtime things (targets(), registry()).
  Registrar reg(family);
  fn(reg);
  // The libraries listing these names first, so that the ownership checks see their ops
  // (open_listing takes the mutex itself).
  for (const auto& d : reg.staged()) open_listing(*impl_, d.name, false);
  for (const auto& k : reg.staged_kernels()) open_listing(*impl_, k.name, true);
  std::lock_guard lock(impl_->mutex);
  registry_.merge_program(reg, owner);
  LoadedLibrary rec{program_path(), owner, family, true, {}};
  rec.program = true;
  impl_->records.push_back(std::move(rec));
}

}  // namespace loom
