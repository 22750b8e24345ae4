// loom::Runtime: loads backends and plugins from the search path, holds the registry, and turns
// a call by name and target into a backend call with NumPy's semantics.
#pragma once
#include <cstring>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "loom/array.hpp"
#include "loom/backend.hpp"
#include "loom/kernel.hpp"
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
  std::string target{};      // "" = the runtime's default (LOOM_TARGET, else "cpu")
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

// A grid or block extent as the caller gives it: an integer (x) or {x, y, z}, or nothing (the
// default: pick automatically). Signed so that a negative or zero value is reported as such
// instead of wrapping.
struct Extent {
  std::int64_t x = 1, y = 1, z = 1;
  bool given = false;
  Extent() = default;
  Extent(std::int64_t x_, std::int64_t y_ = 1, std::int64_t z_ = 1)  // NOLINT: implicit by design
      : x(x_), y(y_), z(z_), given(true) {}
};

// Numba's kernel[blocks, threads, stream, sharedmem], with names.
struct LaunchConfig {
  Extent blocks{};               // not given: from `size`, or enough to fill the device
  Extent threads{};              // not given: the device's best block size (256 on the host)
  std::int64_t size = 0;         // elements to cover with one thread each, for blocks not given
  std::size_t shared_bytes = 0;  // dynamic shared memory per block (ThreadCtx::shared_array)
  std::string target{};          // "" = the runtime's default
  Stream stream{};
};

// One kernel argument: an Array (passed as a View) or an arithmetic scalar.
class KernelArgIn {
 public:
  KernelArgIn(const Array& a) : array_(&a) {}  // NOLINT: implicit by design
  template <class T>
  requires std::is_arithmetic_v<T> KernelArgIn(T v) : dtype_(scalar_dtype<T>()) {  // NOLINT
    static_assert(sizeof(T) <= 8, "kernel scalars are at most 8 bytes (no long double)");
    std::memcpy(value_, &v, sizeof(T));  // the bytes of scalar_dtype<T>()'s C++ type
  }
  const Array* array() const { return array_; }
  DType dtype() const { return dtype_; }
  const unsigned char* value() const { return value_; }

 private:
  template <class T>
  static constexpr DType scalar_dtype() {
    if constexpr (std::is_same_v<T, bool>)
      return DType::bool_;
    else if constexpr (std::is_floating_point_v<T>)
      return sizeof(T) == 4 ? DType::float32 : DType::float64;
    else if constexpr (std::is_signed_v<T>)
      return sizeof(T) == 1   ? DType::int8
             : sizeof(T) == 2 ? DType::int16
             : sizeof(T) == 4 ? DType::int32
                              : DType::int64;
    else
      return sizeof(T) == 1   ? DType::uint8
             : sizeof(T) == 2 ? DType::uint16
             : sizeof(T) == 4 ? DType::uint32
                              : DType::uint64;
  }
  const Array* array_ = nullptr;
  DType dtype_ = DType::bool_;
  alignas(8) unsigned char value_[8] = {};
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

// A registered custom kernel (rt.kernel("histogram")). launch() checks the arguments against
// the kernel's overloads (array dtypes and ranks exactly, scalars by same_kind casting) and the
// configuration against the target, then runs it. On a device target with device arrays it
// returns without synchronizing; host arrays are copied in and, where the kernel may write them
// (View<T> rather than View<const T>), back out before it returns.
class Kernel {
 public:
  template <class... A>
  void launch(const LaunchConfig& cfg, const A&... args) const {
    const KernelArgIn in[] = {KernelArgIn(args)..., KernelArgIn(false)};
    launch_args(cfg, std::span<const KernelArgIn>(in, sizeof...(A)));
  }
  void launch_args(const LaunchConfig& cfg, std::span<const KernelArgIn> args) const;
  const KernelDesc& desc() const { return *desc_; }

 private:
  friend class Runtime;
  const Runtime* rt_;
  std::shared_ptr<const KernelDesc> desc_;
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
  Kernel kernel(const std::string& name) const;  // LookupError if no kernel of that name

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
