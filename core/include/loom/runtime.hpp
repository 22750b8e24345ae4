// loom::Runtime: loads backends and plugins from the search path, holds the registry, and turns
// a call by name and target into a backend call with NumPy's semantics.
#pragma once
#include <memory>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "loom/array.hpp"
#include "loom/backend.hpp"
#include "loom/registry.hpp"
#include "loom/stream.hpp"

namespace loom {

struct RuntimeOptions {
  // Folders searched for libloom_*.so, in order. Empty: LOOM_PLUGIN_PATH (':'-separated), then
  // <folder of libloom>/loom. The current directory is never searched.
  std::vector<std::string> plugin_path{};
  bool use_default_path = true;  // false: only plugin_path (tests of broken plugins)
  int num_threads = 0;           // for parallel backends; 0: LOOM_NUM_THREADS or all cores
};

struct CallOptions {
  // Members have {} initializers so that designated initializers ({.target = "cuda"}) do not
  // trip GCC 12's -Wmissing-field-initializers.
  std::string target{};  // "" = the runtime's default (LOOM_TARGET, else "cpu")
  std::vector<Array> out{};  // given outputs (NumPy's out=), one per output or empty
  std::optional<Array> where{};
  std::optional<DType> dtype{};  // pick the loop whose output has this dtype
  std::string signature{};       // pick exactly this loop, "float64(float64,float64)"
  Casting casting = Casting::same_kind;
  Stream stream{};  // device targets: the stream to queue on (default: the default stream)
};

struct ReduceOptions {
  std::string target{};
  std::vector<int> axis{};  // empty: all axes (NumPy's axis=None)
  bool keepdims = false;
  std::optional<double> initial{};
  std::optional<Array> out{};
  std::optional<DType> dtype{};
  Stream stream{};
};

struct LoadedLibrary {
  std::string path;
  std::string name;
  Family family;
  bool ok;
  std::string error;  // why it was refused
};

struct TargetInfo {
  std::string target;   // "cpu"
  std::string backend;  // "serial"
  bool available;
  std::string reason;
  std::string details;
};

class Runtime;

class Ufunc {
 public:
  Array operator()(const Array& a, const CallOptions& o = {}) const { return one({a}, o); }
  Array operator()(const Array& a, const Array& b, const CallOptions& o = {}) const {
    return one({a, b}, o);
  }
  Array operator()(const Array& a, const Array& b, const Array& c,
                   const CallOptions& o = {}) const {
    return one({a, b, c}, o);
  }
  // Every output (divmod, modf); operator() needs an op with exactly one output.
  std::vector<Array> call(const std::vector<Array>& inputs, const CallOptions& o = {}) const;
  const OpDesc& desc() const { return *desc_; }

 private:
  friend class Runtime;
  Array one(std::initializer_list<Array> inputs, const CallOptions& o) const;
  SmallVec<Array, 4> run(std::span<const Array> inputs, const CallOptions& o) const;
  const Runtime* rt_;
  std::shared_ptr<const OpDesc> desc_;
};

class Reduce {
 public:
  Array operator()(const Array& a, const ReduceOptions& o = {}) const;
  const OpDesc& desc() const { return *desc_; }

 private:
  friend class Runtime;
  const Runtime* rt_;
  std::shared_ptr<const OpDesc> desc_;
};

class Runtime {
 public:
  explicit Runtime(RuntimeOptions options = {});
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  // Handles by name; LookupError if no op of that name and kind is registered.
  Ufunc ufunc(const std::string& name) const;  // ufuncs and gufuncs
  Ufunc gufunc(const std::string& name) const { return ufunc(name); }
  Reduce reduce(const std::string& name) const;

  // Device arrays (CuPy's / Numba's cuda API). A call on device arrays queues work and returns
  // without synchronizing; host arrays given to a device target are copied in and out.
  Array to_device(const Array& a, const std::string& target = "cuda", const Stream& s = {}) const;
  Array to_host(const Array& a, const Stream& s = {}) const;  // returns when the data is there
  Array empty(Shape shape, DType dtype, const std::string& target, const Stream& s = {}) const;
  Array zeros(Shape shape, DType dtype, const std::string& target, const Stream& s = {}) const;
  Array empty_like(const Array& a, const Stream& s = {}) const;  // same device as a
  // dst[...] = src[...] (cast, broadcast) between any two memories.
  void copy_to(const Array& src, const Array& dst, const Stream& s = {}) const;
  Array pinned_empty(Shape shape, DType dtype, const std::string& target = "cuda") const;
  Stream stream(const std::string& target = "cuda") const;
  void synchronize(const std::string& target = "cuda") const;
  // The backend and device index holding a device array (DeviceError for host arrays).
  std::pair<Backend*, int> backend_of(const Array& a) const;

  // Loads one more library now (also one outside the search path); PluginError if refused.
  void load_library(const std::string& path);

  const Registry& registry() const { return registry_; }
  std::vector<std::string> search_path() const { return search_path_; }
  std::vector<LoadedLibrary> libraries() const;
  std::vector<TargetInfo> targets() const;
  std::string default_target() const { return default_target_; }
  int num_threads() const;
  void set_num_threads(int n);

  // The backend that runs `target` ("cpu", "parallel", "cuda:1") and the device index.
  // TargetError for an unknown target (listing the known ones) or an unavailable one (why).
  std::pair<Backend*, int> resolve_target(const std::string& target) const;

  struct Impl;  // internal (core/src/runtime_impl.hpp)

 private:
  std::unique_ptr<Impl> impl_;
  Registry registry_;
  std::vector<std::string> search_path_;
  std::string default_target_;
};

}  // namespace loom
