// Operation descriptors: a ufunc, gufunc or reduction is a name, its arity, its loops in
// declaration order (least to most inclusive) and, per loop, one implementation per backend family.
#pragma once
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

// NumPy's inner-loop ABI. dims[0] is the number of elements (instances for a gufunc), followed by
// a gufunc's core dimension sizes; steps[0..nargs) are the byte steps between elements, followed
// by a gufunc's core strides.
using HostLoop = void (*)(char** args, const std::int64_t* dims, const std::int64_t* steps,
                          const void* data);
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

// Backends that share loops: cpu and parallel run host loops, cuda runs device loops.
enum class Family : std::uint8_t { host, cuda };
inline constexpr int kNumFamilies = 2;
const char* name(Family f);

enum class OpKind : std::uint8_t { ufunc, gufunc, reduce };
const char* name(OpKind k);

struct LoopImpl {
  HostLoop host = nullptr;  // elementwise / gufunc / reduce's binary op (family host)
  FoldLoop fold = nullptr;  // reduce only (family host)
  DeviceElementwiseLoop device_elementwise = nullptr;  // family cuda: one of these three
  DeviceGufuncLoop device_gufunc = nullptr;
  DeviceReduceLoop device_reduce = nullptr;
  const void* data = nullptr;  // the functor instance the loop calls (host memory)
  // Set when a plugin replaced the generic loop by a hand-written one (Registrar::replace_loop):
  // what it is, for loom-info ("cub::DeviceReduce::Sum").
  const char* hand_written = nullptr;
  // A reduction loop that takes the start value from ReduceCall (has_start) instead of a
  // pre-filled output, saving the device a fill kernel and the loop a join.
  bool takes_start = false;
  bool present() const { return host || device_elementwise || device_gufunc || device_reduce; }
};

struct Loop {
  Signature sig;
  LoopImpl impl[kNumFamilies];
};

struct OpDesc {
  std::string name;
  std::string doc;
  OpKind kind = OpKind::ufunc;
  int nin = 0;
  int nout = 0;
  std::optional<Layout> layout;    // gufunc only
  std::optional<double> identity;  // reduce: value for empty input (none for max/min)
  std::vector<Loop> loops;
  std::string plugins;  // which libraries gave it loops, for messages

  bool has_family(Family f) const;
  std::string signatures() const;  // "float32(float32,float32), float64(float64,float64)"

  // Type-resolution cache, per (family, input dtypes, weak flags, override): loop index. A
  // descriptor is immutable once registered; a merge makes a new one with a fresh cache.
  struct Cache {
    std::shared_mutex mutex;
    std::unordered_map<std::uint64_t, int> plain;  // no dtype=/signature= override
    std::unordered_map<std::string, int> map;      // with an override
  };
  std::shared_ptr<Cache> cache = std::make_shared<Cache>();
};

}  // namespace loom
