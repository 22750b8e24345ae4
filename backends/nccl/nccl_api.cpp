// dlopen of libnccl.so.2 (see nccl_api.hpp). LOOM_NCCL_LIBRARY names the file when it is not on
// the loader's path, e.g. site-packages/nvidia/nccl/lib/libnccl.so.2 of the nvidia-nccl wheel.
#include "nccl_api.hpp"

#include <dlfcn.h>

#include <cstdlib>

#include "loom/error.hpp"

namespace loom::nccl {

namespace {

template <class F>
bool bind(void* h, const char* sym, F& fn, std::string& error) {
  fn = reinterpret_cast<F>(dlsym(h, sym));
  if (!fn && error.empty()) error = "symbol " + std::string(sym) + " missing";
  return fn != nullptr;
}

Api load() {
  Api a;
  const char* env = std::getenv("LOOM_NCCL_LIBRARY");
  a.path = env && *env ? env : "libnccl.so.2";
  // RTLD_NODELETE: NCCL's proxy threads may outlive a dlclose at exit.
  void* h = dlopen(a.path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (!h) {
    const char* why = dlerror();
    a.error = "cannot load " + a.path + " (" + (why ? why : "unknown") +
              "); install NCCL or set LOOM_NCCL_LIBRARY to its libnccl.so.2";
    return a;
  }
  bind(h, "ncclGetVersion", a.get_version, a.error);
  bind(h, "ncclGetUniqueId", a.get_unique_id, a.error);
  bind(h, "ncclCommInitAll", a.comm_init_all, a.error);
  bind(h, "ncclCommInitRank", a.comm_init_rank, a.error);
  bind(h, "ncclCommDestroy", a.comm_destroy, a.error);
  bind(h, "ncclReduce", a.reduce, a.error);
  bind(h, "ncclAllReduce", a.all_reduce, a.error);
  bind(h, "ncclGroupStart", a.group_start, a.error);
  bind(h, "ncclGroupEnd", a.group_end, a.error);
  bind(h, "ncclGetErrorString", a.error_string, a.error);
  if (!a.error.empty()) {
    a.error = a.path + " is not a usable NCCL: " + a.error;
    return a;
  }
  if (a.get_version(&a.version) != ncclSuccess) a.error = a.path + ": ncclGetVersion failed";
  // The same major version as the header we were built with: its types and enums are ours.
  if (a.error.empty() && a.version / 10000 != NCCL_MAJOR) {
    a.error = a.path + " is NCCL " + std::to_string(a.version) + ", not NCCL " +
              std::to_string(NCCL_MAJOR) + ".x as loom was built against";
  }
  return a;
}

}  // namespace

const Api& api() {
  static const Api a = load();
  return a;
}

void check(ncclResult_t r, const std::string& what) {
  if (r == ncclSuccess) return;
  const char* msg = api().error_string ? api().error_string(r) : "unknown";
  throw DeviceError(what + ": NCCL error " + std::to_string(static_cast<int>(r)) + " (" + msg +
                    ")");
}

}  // namespace loom::nccl
