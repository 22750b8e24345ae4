// loom::Runtime: finds backends and plugins on the search path (each opened when first used), holds
// the registry, and turns a call by name and target into a backend call with NumPy's semantics.
#pragma once
#include <cstring>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "loom/array.hpp"
#include "loom/backend.hpp"
#include "loom/collective.hpp"
#include "loom/kernel.hpp"
#include "loom/registry.hpp"
#include "loom/sharded.hpp"
#include "loom/stream.hpp"

namespace loom {

// Whether a call may move host arrays to a device and back on its own (NumPy-style host arrays
// given to a cuda call), as JAX's transfer guard. disallow: such a call throws TransferError;
// explicit to_device / to_host / copy_to and 0-d host arrays (scalars) stay allowed.
enum class TransferGuard : std::uint8_t { from_env, allow, disallow };

struct RuntimeOptions {
  // Folders searched for libloom_*.so, in order. Empty: LOOM_PLUGIN_PATH (':'-separated), then
  // <folder of libloom>/loom. The current directory is never searched.
  std::vector<std::string> plugin_path{};
  bool use_default_path = true;  // false: only plugin_path (tests of broken plugins)
  // For parallel backends; 0: LOOM_NUM_THREADS, else all cores. Checked as set_num_threads.
  int num_threads = 0;
  // from_env: LOOM_TRANSFER_GUARD ("allow" or "disallow"), else allow.
  TransferGuard transfer_guard = TransferGuard::from_env;
};

// Bytes and transfers between host and one device since the runtime started or last reset:
// explicit ones (to_device, to_host, copy_to) and the ones calls make for host arguments.
// A scalar that fills device memory (rt.zeros) travels as a kernel parameter and is not counted.
struct TransferCounts {
  std::int64_t host_to_device_bytes = 0;
  std::int64_t host_to_device_calls = 0;
  std::int64_t device_to_host_bytes = 0;
  std::int64_t device_to_host_calls = 0;
  bool operator==(const TransferCounts&) const = default;
};

class Runtime;
namespace detail {
void count_transfer(const Runtime& rt, int device, CopyKind kind, std::int64_t bytes);
// Host array a crosses to or from device backend b: its buffer's crossing counted, and page-locked
// in place on its second crossing when large enough (docs/cuda.md, "Host arrays that cross
// again"); LOOM_PIN_HOST=0 turns that off.
void pin_on_reuse(const Runtime& rt, Backend& b, const Array& a);
}  // namespace detail

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
  // Ufuncs whose functor takes loom::ElementIndex: the index of the call's first output element
  // (element p in C order gets index_base + p). A call on rows [r0, r1) of a bigger result passes
  // r0 * (row size) to draw what the whole call draws there; a new value draws new numbers (a
  // Monte-Carlo step's counter). At least 0; other ops ignore it (docs/random.md).
  std::int64_t index_base = 0;
  // gufuncs only (NumPy's generalized-ufunc keywords; docs/methods.md, "gufunc options"); a ufunc
  // given any of them is a TypeError, as in NumPy.
  // axes: where each operand's core dims are, one list per operand ({{0}, {0}, {}} for dot on
  // axis 0); the outputs' lists may be left out when no output has core dims. Empty: not given.
  std::vector<std::vector<int>> axes{};
  std::optional<int> axis{};  // the one core dim of a gufunc with a single distinct core dim
  // Keep the inputs' core dims in each output with size 1 (for gufuncs whose inputs all have the
  // same number of core dims and whose outputs have none). Given as false still checks that.
  std::optional<bool> keepdims{};
  // Run a gufunc's checked loop (Numba's boundscheck=True, chosen per call): every access of the
  // functor's Views is bounds-checked, a bad one reads 0 or writes nothing, and the call's first
  // raises IndexError naming the argument, index, axis and the instance of the loop. Ufunc
  // functors take scalars: nothing to check, their calls ignore it. LOOM_CHECKED=1 in the
  // environment checks every gufunc call of a Runtime (docs/kernels.md, "Checked gufunc calls").
  bool checked = false;
};

// A reduction's axis= as NumPy distinguishes it: not given (`{}`: every axis for rt.reduce, as
// np.sum; axis 0 for Ufunc::reduce, as np.add.reduce), one axis (`1`), a list (`{0, 2}`), every
// axis (`loom::all_axes`, NumPy's axis=None) or none (`loom::no_axes`, NumPy's axis=()).
class Axes {
 public:
  Axes() = default;
  Axes(int axis) : given_(true), single_(true), list_{axis} {}           // NOLINT: axis=1
  Axes(std::initializer_list<int> axes) : given_(true), list_(axes) {}   // NOLINT: axis={0,2}
  Axes(std::vector<int> axes) : given_(true), list_(std::move(axes)) {}  // NOLINT
  static Axes every() {
    Axes a;
    a.given_ = a.all_ = true;
    return a;
  }
  bool given() const { return given_; }
  bool all() const { return all_; }                       // axis=None
  bool single() const { return single_; }                 // an int (axis=1), not a list
  const std::vector<int>& list() const { return list_; }  // empty and given: axis=()

 private:
  bool given_ = false, all_ = false, single_ = false;
  std::vector<int> list_;
};
inline const Axes all_axes = Axes::every();
inline const Axes no_axes = Axes(std::vector<int>{});

// A reduction's initial=: not given (`{}`: the op's identity, if any), a value (`3`, `2.5`,
// `std::uint64_t{1} << 63`: kept exactly, checked against the loop's dtype), or none
// (`loom::no_initial`, NumPy's initial=None: no start value even where the op has an identity).
class Initial {
 public:
  Initial() = default;
  template <class T>
  requires std::is_arithmetic_v<T> Initial(T v) : kind_(kind::value), value_(v) {}  // NOLINT
  static Initial none() {
    Initial i;
    i.kind_ = kind::none;
    return i;
  }
  bool given() const { return kind_ != kind::identity; }
  bool is_none() const { return kind_ == kind::none; }
  const Array& value() const { return value_; }  // a 0-d array of the value's own C++ dtype

 private:
  enum class kind : std::uint8_t { identity, none, value };
  kind kind_ = kind::identity;
  Array value_;
};
inline const Initial no_initial = Initial::none();

// How a reduction of a sharded array combines its devices' partials over axis 0
// (docs/multi-gpu.md, "Combining on the devices").
enum class Combine : std::uint8_t {
  automatic,    // on the devices (NCCL) where every order gives the same bits, else fixed_order
  fixed_order,  // brought to the host and combined in device order: the same bits every run
  collective,   // on the devices (NCCL); floating-point sums then follow NCCL's order
};

struct ReduceOptions {
  std::string target{};
  Axes axis{};
  bool keepdims = false;
  Initial initial{};
  // Elements where the mask (boolean, broadcast against the input) is false are left out; needs
  // an identity or initial=.
  std::optional<Array> where{};
  std::optional<Array> out{};    // its dtype selects the loop when dtype= is not given
  std::optional<DType> dtype{};  // the loop's dtype; the input is cast to it (NumPy: unsafe)
  Stream stream{};
  Combine combine = Combine::automatic;  // sharded arrays only; other calls have nothing to combine
};

// accumulate and reduceat (NumPy's keyword arguments of those methods).
struct AccumulateOptions {
  std::string target{};
  int axis = 0;
  std::optional<Array> out{};
  std::optional<DType> dtype{};
  Stream stream{};
};

struct AtOptions {
  std::string target{};
  Stream stream{};
};

// A slice of one axis, as Python's start:stop:step: a missing bound is the axis's end in the
// step's direction, a negative one counts from the end (Slice{} is `:`).
struct Slice {
  std::optional<std::int64_t> start{}, stop{};
  std::int64_t step = 1;
};
// One entry of Ufunc::at's index tuple: an integer index array (0-d for one integer; a 1-d bool
// array stands for its true positions), or a Slice.
using AtIndex = std::variant<Array, Slice>;

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

// LaunchConfig::size, the elements to cover with one thread each: n, or {nx, ny} or {nx, ny, nz}
// (x fastest, as a grid's axes), or nothing (the default). Its own type rather than Extent:
// extents may be 0 (nothing to run), and how many were given shapes the automatic block.
struct LaunchSize {
  std::int64_t x = 0, y = 1, z = 1;
  int ndim = 0;  // 0: not given
  LaunchSize() = default;
  LaunchSize(std::int64_t n) : x(n), ndim(1) {}  // NOLINT: implicit, so that .size = n works
  LaunchSize(std::int64_t nx, std::int64_t ny) : x(nx), y(ny), ndim(2) {}
  LaunchSize(std::int64_t nx, std::int64_t ny, std::int64_t nz) : x(nx), y(ny), z(nz), ndim(3) {}
  bool given() const { return ndim > 0; }
};

// Numba's kernel[blocks, threads, stream, sharedmem], with names. What is not given is chosen
// (docs/kernels.md, "Automatic configuration").
struct LaunchConfig {
  Extent blocks{};   // not given: covering `size` (ceil-div per axis), or enough to fill the device
  Extent threads{};  // not given: 256 on the host, the occupancy choice on cuda, shaped by `size`
  LaunchSize size{};             // elements to cover with one thread each, for what is not given
  std::size_t shared_bytes = 0;  // dynamic shared memory per block (ThreadCtx::shared_array)
  // Host targets, kernels that use syncthreads: each thread's fiber stack in bytes; 0: the
  // default (256 KiB), at most 8 MiB (docs/kernels.md, "Fiber stacks"). Ignored on cuda.
  std::size_t stack_bytes = 0;
  // Host targets: run each block's threads as fibers whatever the kernel's own path (its
  // KernelOverload::host_path). The general path, slow; for checking a fast path against it.
  bool host_fibers = false;
  // Run the kernel's checked instantiation (Numba's debug=True), on every target: each View
  // access is bounds-checked, a bad one reads 0 or writes nothing, and the launch's first raises
  // IndexError naming the argument, index, axis, block and thread. LOOM_CHECKED=1 in the
  // environment checks every launch of a Runtime (docs/kernels.md, "Checked launches").
  bool checked = false;
  std::string target{};  // "" = the runtime's default
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
  // Definitions the program made itself (Runtime::define): `name` is their owner ("myapp"),
  // `path` the program's executable; no library file was loaded.
  bool program = false;
};

// What the plugin search passed over, reported instead of skipped without a trace: a search path
// entry that does not exist, cannot be read or is not a folder, and a library in a plugin folder
// that exports loom_plugin but is not named libloom_*.so (docs/plugins.md, "Search path
// notices"). loom-info lists them; a failed lookup of an op or kernel appends them.
struct SearchNotice {
  enum class Kind { missing_entry, unreadable_entry, not_a_folder, misnamed_library };
  Kind kind;
  std::string path;     // the search path entry, or the library passed over
  std::string message;  // "search path entry '/nope' does not exist"
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
  Array operator()(const Array& a, const CallOptions& o = {}) const { return one({&a}, o); }
  Array operator()(const Array& a, const Array& b, const CallOptions& o = {}) const {
    return one({&a, &b}, o);
  }
  Array operator()(const Array& a, const Array& b, const Array& c,
                   const CallOptions& o = {}) const {
    return one({&a, &b, &c}, o);
  }
  // Four to eight inputs the same way (options last, designated initializers work); more through
  // call({...}).
  Array operator()(const Array& a, const Array& b, const Array& c, const Array& d,
                   const CallOptions& o = {}) const {
    return one({&a, &b, &c, &d}, o);
  }
  Array operator()(const Array& a, const Array& b, const Array& c, const Array& d, const Array& e,
                   const CallOptions& o = {}) const {
    return one({&a, &b, &c, &d, &e}, o);
  }
  Array operator()(const Array& a, const Array& b, const Array& c, const Array& d, const Array& e,
                   const Array& f, const CallOptions& o = {}) const {
    return one({&a, &b, &c, &d, &e, &f}, o);
  }
  Array operator()(const Array& a, const Array& b, const Array& c, const Array& d, const Array& e,
                   const Array& f, const Array& g, const CallOptions& o = {}) const {
    return one({&a, &b, &c, &d, &e, &f, &g}, o);
  }
  Array operator()(const Array& a, const Array& b, const Array& c, const Array& d, const Array& e,
                   const Array& f, const Array& g, const Array& h,
                   const CallOptions& o = {}) const {
    return one({&a, &b, &c, &d, &e, &f, &g, &h}, o);
  }
  // Every output (divmod, modf); operator() needs an op with exactly one output.
  std::vector<Array> call(const std::vector<Array>& inputs, const CallOptions& o = {}) const;
  // On sharded arrays (docs/multi-gpu.md): every device of their set runs on its shards, the
  // launches queued one device after another; the result is split as the split inputs are
  // (replicated when every input is). A plain Array operand (a scalar, or a host array that
  // broadcasts along the rows) goes whole to every device.
  ShardedArray operator()(const ShardedArray& a, const CallOptions& o = {}) const;
  ShardedArray operator()(const ShardedArray& a, const ShardedArray& b,
                          const CallOptions& o = {}) const;
  ShardedArray operator()(const ShardedArray& a, const Array& b, const CallOptions& o = {}) const;
  ShardedArray operator()(const ShardedArray& a, const ShardedArray& b, const ShardedArray& c,
                          const CallOptions& o = {}) const;

  // NumPy's ufunc methods, for ufuncs with two inputs and one output (ValueError otherwise).
  // reduce: axis not given means axis 0, as np.add.reduce (rt.reduce's default is every axis).
  Array reduce(const Array& x, const ReduceOptions& o = {}) const;
  Array reduce(const ShardedArray& x, const ReduceOptions& o = {}) const;  // as Reduce's below
  Array accumulate(const Array& x, const AccumulateOptions& o = {}) const;
  // indices: a 1-d integer array; out[i] reduces x[indices[i]:indices[i+1]] along the axis, or is
  // x[indices[i]] when indices[i] >= indices[i+1] (the last one runs to the end).
  Array reduceat(const Array& x, const Array& indices, const AccumulateOptions& o = {}) const;
  // Every pair: result shape a.shape + b.shape.
  Array outer(const Array& a, const Array& b, const CallOptions& o = {}) const;
  // In place, unbuffered: a[indices[j], ...] = op(a[indices[j], ...], b[j, ...]) once per j, a
  // repeated index once per occurrence (np.add.at). indices: 1-d integers along a's first axis
  // (negative ones count from the end); b broadcasts to indices.shape + a.shape[1:].
  void at(const Array& a, const Array& indices, const Array& b, const AtOptions& o = {}) const;
  // NumPy's full index, np.add.at(a, (i, j), b) or np.add.at(a, (slice(None), i), b): one entry
  // per leading axis of a (the rest taken whole); the index arrays broadcast together, and the
  // indexed shape is a[index]'s, NumPy's rules for where the broadcast dims go (docs/methods.md).
  void at(const Array& a, std::span<const AtIndex> index, const Array& b,
          const AtOptions& o = {}) const;
  void at(const Array& a, std::initializer_list<AtIndex> index, const Array& b,
          const AtOptions& o = {}) const {
    at(a, std::span<const AtIndex>(index.begin(), index.size()), b, o);
  }
  const OpDesc& desc() const { return *desc_; }

 private:
  friend class Runtime;
  // Inputs by address: a one-element call must not copy its arrays (dispatch overhead).
  Array one(std::initializer_list<const Array*> inputs, const CallOptions& o) const;
  SmallVec<Array, 4> run(std::span<const Array> inputs, const CallOptions& o) const;
  std::shared_ptr<const Runtime> rt_;  // keeps the runtime's state alive (docs/reliability.md)
  std::shared_ptr<const OpDesc> desc_;
  std::uint64_t gen_ = 0;  // the runtime's library generation when desc_ was taken
};

class Reduce {
 public:
  // axis not given: every axis (np.sum, np.max).
  Array operator()(const Array& a, const ReduceOptions& o = {}) const;
  // Over axes that include axis 0 of a sharded array: each device reduces its shard, and the
  // partials are combined on the host in device order (the same bits on every run); a host array.
  Array operator()(const ShardedArray& a, const ReduceOptions& o = {}) const;
  const OpDesc& desc() const { return *desc_; }

 private:
  friend class Runtime;
  std::shared_ptr<const Runtime> rt_;
  std::shared_ptr<const OpDesc> desc_;
  std::uint64_t gen_ = 0;
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
  std::shared_ptr<const Runtime> rt_;
  std::shared_ptr<const KernelDesc> desc_;
  std::uint64_t gen_ = 0;
};

// The runtime's state (libraries, backends, registry) is shared with the handles it returns
// (Ufunc, Reduce, Kernel), its device arrays and its streams: destroying the Runtime while they
// live keeps that state, and the plugins, until the last of them goes (docs/reliability.md,
// "Lifetimes").
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
  // Every target has them, so that one program runs on any target: to_device on a host target
  // ("cpu", "parallel") gives a host copy, as cuda does (a device array comes back to the host),
  // and to_host of a host array is the array itself; empty/zeros on a host target are host arrays.
  Array to_device(const Array& a, const std::string& target = "cuda", const Stream& s = {}) const;
  Array to_host(const Array& a, const Stream& s = {}) const;  // returns when the data is there
  // A host array on every device of a set (docs/multi-gpu.md): its rows split in blocks
  // (Sharding::split) or the whole array on each (Sharding::replicated); the copies run at once.
  ShardedArray to_devices(const Array& a, const std::string& set,
                          Sharding how = Sharding::split) const;
  Array to_host(const ShardedArray& a) const;  // the rows gathered (a replicated array: a copy)
  Array empty(Shape shape, DType dtype, const std::string& target, const Stream& s = {}) const;
  Array zeros(Shape shape, DType dtype, const std::string& target, const Stream& s = {}) const;
  // Host <-> device traffic of the device of `target` ("cuda:1"); zeros for a host target.
  TransferCounts transfer_counts(const std::string& target = "cuda") const;
  void reset_transfer_counts();          // every device
  TransferGuard transfer_guard() const;  // allow or disallow, after LOOM_TRANSFER_GUARD
  // LOOM_CHECKED=1 when the Runtime was made: every kernel launch and gufunc call is checked
  // (LaunchConfig::checked, CallOptions::checked; docs/kernels.md, "Checked launches").
  bool checked_launches() const;
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

  // Ops and kernels defined in the program itself, with the def:: tables a plugin uses: `fn`
  // fills a Registrar of `family` (host: the def/*.hpp tables, from a .cpp file; cuda: the
  // def/*.cuh tables, from a .cu file of the program), and its descriptors merge whole or not at
  // all by a plugin's rules (Registry::merge_program): `owner` ("myapp") owns what it defines
  // first, and may not add loops to a plugin's op (PluginError). TargetError, before `fn` runs,
  // when no loaded backend runs `family`'s loops; fn's own exceptions pass through. Handles taken
  // earlier keep the descriptor they hold (docs/plugins.md, "Ops defined in the program").
  void define(const std::string& owner, Family family, const std::function<void(Registrar&)>& fn);
  void define(const std::string& owner, const std::function<void(Registrar&)>& fn) {
    define(owner, Family::host, fn);
  }

  // Opens every library first (docs/plugins.md, "When libraries are opened"): the whole registry.
  const Registry& registry() const;
  std::vector<std::string> search_path() const { return search_path_; }
  std::vector<LoadedLibrary> libraries() const;      // opens every library first
  std::vector<SearchNotice> search_notices() const;  // what the search passed over, in order
  std::vector<TargetInfo> targets() const;           // opens every backend library first
  const std::string& default_target() const { return default_target_; }
  int num_threads() const;
  // n threads for the parallel backends; 0: all cores. ValueError for a negative n or one above
  // max_num_threads(), as for RuntimeOptions::num_threads and LOOM_NUM_THREADS.
  void set_num_threads(int n);
  // The most threads loom lets a backend start: 4 x the hardware threads, at least 256 (TBB's own
  // limit on its workers; docs/reliability.md, "Thread counts").
  static int max_num_threads();

  // The backend that runs `target` ("cpu", "parallel", "cuda:1") and the device index.
  // TargetError for an unknown target (listing the known ones) or an unavailable one (why).
  std::pair<Backend*, int> resolve_target(const std::string& target) const;
  // The single-device targets a device set names, in order: "cuda:all" gives "cuda:0", "cuda:1",
  // ... (every device the backend has), "cuda:0,1" those two, a plain target itself alone.
  // TargetError for an unknown or unavailable target, a device that does not exist, one listed
  // twice, or an empty list entry (docs/multi-gpu.md).
  std::vector<std::string> device_targets(const std::string& target) const;
  // The collectives library loaded for a backend target ("cuda": libloom_nccl.so), or null when
  // none is (docs/multi-gpu.md, "Combining on the devices").
  Collectives* collectives(const std::string& backend_target) const;

  struct Impl;  // internal (core/src/runtime/runtime_impl.hpp)

 private:
  friend class Ufunc;
  friend class Reduce;
  friend class Kernel;
  friend void detail::count_transfer(const Runtime&, int, CopyKind, std::int64_t);
  friend void detail::pin_on_reuse(const Runtime&, Backend&, const Array&);
  // Lazy opening (docs/plugins.md, "When libraries are opened"). The backend library of
  // `target` opened, without the mutex when it was resolved before; errors are left to the call.
  void prepare_target(const std::string& target) const;
  // The libraries listing `name` opened; returns the library generation to store in a handle.
  std::uint64_t open_named(const std::string& name, bool kernel) const;
  // A handle's descriptor for one call on `target`: `held`, or the registry's current one when a
  // library opened since `gen` added loops to it (kept alive in `keep`).
  const OpDesc& current_op(const std::shared_ptr<const OpDesc>& held, std::uint64_t gen,
                           const std::string& target, std::shared_ptr<const OpDesc>& keep) const;
  const KernelDesc& current_kernel(const std::shared_ptr<const KernelDesc>& held, std::uint64_t gen,
                                   const std::string& target,
                                   std::shared_ptr<const KernelDesc>& keep) const;
  // Appended to a failed lookup of `name`: which refused library would have defined it, and why.
  std::string refused_why(const std::string& name) const;

  explicit Runtime(std::shared_ptr<Impl> impl);   // another owner of the same state
  std::shared_ptr<const Runtime> shared() const;  // the owner that handles hold

  std::shared_ptr<Impl> impl_;
  // Members of *impl_, named here so that they read as members of the Runtime.
  Registry& registry_;
  std::vector<std::string>& search_path_;
  std::string& default_target_;
};

}  // namespace loom
