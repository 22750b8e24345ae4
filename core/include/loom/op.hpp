// Operation descriptors: a ufunc, gufunc or reduction is a name, its arity, its loops in
// declaration order (least to most inclusive) and, per loop, one implementation per backend family.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "loom/layout.hpp"
#include "loom/signature.hpp"

namespace loom {

namespace detail {
struct CheckRecord;  // view.hpp
}

// NumPy's inner-loop ABI. dims[0] is the number of elements (instances for a gufunc), followed by
// a gufunc's core dimension sizes; steps[0..nargs) are the byte steps between elements, followed
// by a gufunc's core strides.
using HostLoop = void (*)(char** args, const std::int64_t* dims, const std::int64_t* steps,
                          const void* data);
// The host loop of a ufunc whose functor takes loom::ElementIndex: NumPy's ABI and `first`, the
// index of the run's first element (ElementwiseCall::index_base plus the run's flat position in
// the call); element k of the run has index first + k.
using HostIndexLoop = void (*)(char** args, const std::int64_t* dims, const std::int64_t* steps,
                               std::int64_t first, const void* data);
// A gufunc's checked host loop (CallOptions::checked): NumPy's ABI, `first` (the flat index in the
// call's loop space of the run's first instance) and the call's error record, which every View
// the functor gets points at (view.hpp, ViewCheck).
using HostCheckedLoop = void (*)(char** args, const std::int64_t* dims, const std::int64_t* steps,
                                 std::int64_t first, detail::CheckRecord* check, const void* data);
// acc = op(acc, x[0]) ... op(..., x[n-1]) in a fixed association order (a reduction's inner loop).
using FoldLoop = void (*)(char* acc, const char* x, std::int64_t n, std::int64_t stride,
                          const void* data);
// Device loops (CUDA) take the whole call (exec.hpp) — device pointers, the strided iteration
// space, the stream — and launch asynchronously; the launcher is compiled by nvcc in the plugin.
struct ElementwiseCall;
struct GufuncCall;
struct ReduceCall;
using DeviceElementwiseLoop = void (*)(const ElementwiseCall& call, const void* data);
using DeviceGufuncLoop = void (*)(const GufuncCall& call, const void* data);
using DeviceReduceLoop = void (*)(const ReduceCall& call, const void* data);
// Ufunc methods of a binary op T(T,T) (accumulate, at); host loops run one line of the call,
// device loops the whole call (exec.hpp).
struct ScanCall;
struct AtCall;
// out[0] = carry ? f(*carry, x[0]) : x[0]; out[i] = f(out[i-1], x[i]), strictly in order.
using ScanLoop = void (*)(char* out, const char* x, std::int64_t n, std::int64_t out_step,
                          std::int64_t x_step, const char* carry, const void* data);
// a[idx[j] * a_step] = f(a[idx[j] * a_step], b[j * b_step]) for j in [0, m), in order (idx is
// checked and non-negative).
using AtLoop = void (*)(char* a, std::int64_t a_step, const std::int64_t* idx, std::int64_t m,
                        const char* b, std::int64_t b_step, const void* data);
using DeviceScanLoop = void (*)(const ScanCall& call, const void* data);
using DeviceAtLoop = void (*)(const AtCall& call, const void* data);

// Backends that share loops: cpu and parallel run host loops, cuda runs device loops.
enum class Family : std::uint8_t { host, cuda };
inline constexpr int kNumFamilies = 2;
const char* name(Family f);

enum class OpKind : std::uint8_t { ufunc, gufunc, reduce };
const char* name(OpKind k);

struct LoopImpl {
  HostLoop host = nullptr;  // elementwise / gufunc / reduce's binary op (family host)
  // Binary T(T,T) loops of ufuncs and reductions (family host): the fold in the op's order
  // (pairwise when reorderable, strictly left to right otherwise), accumulate's scan and at's
  // in-order update; `at_atomic` does at's updates with atomics (integer dtypes of reorderable
  // ops, whose result does not depend on the order).
  FoldLoop fold = nullptr;
  ScanLoop scan = nullptr;
  AtLoop at = nullptr;
  AtLoop at_atomic = nullptr;
  DeviceElementwiseLoop device_elementwise = nullptr;  // family cuda: one of these three
  DeviceGufuncLoop device_gufunc = nullptr;
  DeviceReduceLoop device_reduce = nullptr;  // reductions, and binary ufuncs' reduce method
  DeviceScanLoop device_scan = nullptr;      // binary ufuncs: accumulate
  DeviceAtLoop device_at = nullptr;          // binary ufuncs: at
  const void* data = nullptr;                // the functor instance the loop calls (host memory)
  // Set when a plugin replaced the generic loop by a hand-written one (Registrar::replace_loop):
  // what it is, for loom-info (the math plugin's one-pass CUDA sum of whole float arrays).
  const char* hand_written = nullptr;
  // A reduction loop that takes the start value from ReduceCall (has_start) instead of a
  // pre-filled output, saving the device a fill kernel and the loop a join.
  bool takes_start = false;
  // A ufunc whose functor takes loom::ElementIndex (either family). Its host loop is host_index,
  // never `host`: the paths that call a binary op (reduce, accumulate, at) have no element index
  // to give and refuse such ops, and a null `host` keeps them from reaching it. Its cuda loop is
  // device_elementwise, which reads ElementwiseCall::index_base.
  HostIndexLoop host_index = nullptr;
  bool takes_index = false;
  // gufuncs: the checked instantiation of the loop (def::gufunc makes both): host_checked on the
  // host, and on cuda `device_checks`, set when device_gufunc honours GufuncCall::check. A
  // hand-written loop (replace_loop, a toolkit's) has neither unless it says so: a call asking
  // for a check (CallOptions::checked) is refused, and LOOM_CHECKED=1 leaves it unchecked.
  HostCheckedLoop host_checked = nullptr;
  bool device_checks = false;
  bool present() const {
    return host || host_index || device_elementwise || device_gufunc || device_reduce;
  }
};

struct Loop {
  Signature sig;
  LoopImpl impl[kNumFamilies];
};

// NumPy's identity and reorderability of a binary op (PyUFunc_Zero, PyUFunc_ReorderableNone,
// PyUFunc_None; Numba's @vectorize(identity=...)). Reorderable: the op may be regrouped and
// reordered (associative and commutative), so a reduction may run as a tree over any axes. An
// identity implies reorderable, as in NumPy. Declaring nothing means neither: folds run strictly
// left to right along one axis.
struct ReduceTraits {
  std::optional<double> identity{};
  bool reorderable = false;
  constexpr ReduceTraits() = default;
  constexpr ReduceTraits(double id) : identity(id), reorderable(true) {}  // NOLINT: 0.0 = identity
  constexpr ReduceTraits(std::nullopt_t) {}                               // NOLINT: no identity
  constexpr ReduceTraits(std::optional<double> id, bool r) : identity(id), reorderable(r) {}
};

struct OpDesc {
  std::string name;
  std::string doc;
  OpKind kind = OpKind::ufunc;
  int nin = 0;
  int nout = 0;
  std::optional<Layout> layout;  // gufunc only
  // Reductions and binary ufuncs: value for empty input (none for max/min), and whether the
  // op may be reordered (ReduceTraits).
  std::optional<double> identity;
  bool reorderable = false;
  std::vector<Loop> loops;
  std::string plugins;  // which libraries gave it loops, for messages

  bool has_family(Family f) const;
  bool takes_index() const;        // some loop, of either family, takes an element index
  std::string signatures() const;  // "float32(float32,float32), float64(float64,float64)"

  // Type-resolution cache, per (family, input dtypes, weak flags, override): loop index. A
  // descriptor is immutable once registered; a merge makes a new one with a fresh cache.
  struct Cache {
    std::shared_mutex mutex;
    std::unordered_map<std::uint64_t, int> plain;  // no dtype=/signature= override
    std::unordered_map<std::string, int> map;      // with an override
    // The last plain key resolved and its loop, (key << 24) | loop, read without the lock: a
    // call that repeats its dtypes takes neither lock nor hash (0: none yet).
    std::atomic<std::uint64_t> last{0};
  };
  std::shared_ptr<Cache> cache = std::make_shared<Cache>();
};

}  // namespace loom
