// Custom kernels (Numba's @cuda.jit): a functor taking a ThreadCtx, then View and scalar
// parameters, run over a grid of blocks of threads. Here: the descriptor a plugin registers and
// the call the core hands a backend once arguments and the launch configuration are checked.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "loom/dtype.hpp"
#include "loom/op.hpp"
#include "loom/small_vector.hpp"
#include "loom/thread_ctx.hpp"

namespace loom {

namespace detail {
struct SharedCheckRecord;  // core/src/kernels/shared_check.hpp
}  // namespace detail

// One parameter after the ThreadCtx: an N-d View of dtype (writable unless View<const T>), or
// a scalar of dtype.
struct KernelParam {
  bool array = false;
  DType dtype = DType::float32;
  int ndim = 0;
  bool writable = false;
  std::string str() const;  // "const float32[:]", "int32[:, :]", "float32"
};

// One argument as a backend sees it: an array's pointer, shape and byte strides (first ndim
// entries used), or a scalar's bytes converted to the parameter's dtype.
struct KernelArg {
  void* data = nullptr;
  std::int64_t shape[3] = {};
  std::int64_t strides[3] = {};
  alignas(16) unsigned char value[16] = {};
};

struct KernelCall;
// Host loop: runs blocks [begin, end) of the grid (linear block index, x fastest), each block's
// threads in order, or as fibers when the kernel uses syncthreads. Throws what the kernel threw.
using HostKernelLoop = void (*)(const KernelCall& call, std::int64_t begin, std::int64_t end,
                                const void* data);
// Device loop (CUDA): fills in an automatic configuration, checks it against the device and
// this kernel's limits (LaunchError), and launches asynchronously on call.stream.
using DeviceKernelLoop = void (*)(KernelCall& call, const void* data);

struct KernelImpl {
  HostKernelLoop host = nullptr;
  DeviceKernelLoop device = nullptr;
  const void* data = nullptr;  // the functor instance (host memory)
  bool present() const { return host || device; }
};

// How host targets run a block's threads (docs/kernels.md, "Host paths"): a ThreadCtx kernel
// without barriers as a loop over its threads; a block kernel (BlockCtx) once per block, each
// phase a loop over the threads; a ThreadCtx kernel with syncthreads as fibers. Any kernel runs as
// fibers when the launch asks (LaunchConfig::host_fibers), the general path the others must match.
enum class HostPath { thread_loop, block_phases, fibers };
const char* name(HostPath p);  // "thread loop", "block phases", "fibers"

struct KernelOverload {
  std::vector<KernelParam> params;
  bool uses_syncthreads = false;
  HostPath host_path = HostPath::thread_loop;
  KernelImpl impl[kNumFamilies];
  std::string signature() const;  // "(const float32[:], float32, float32, int32[:])"
};

struct KernelDesc {
  std::string name;
  std::string doc;
  std::vector<KernelOverload> overloads;  // tried in order; array dtypes must match exactly
  std::string plugins;
  bool has_family(Family f) const;
  std::string signatures() const;  // one per line, indented
};

// Threads per block and grid limits every target enforces (CUDA's, so that a launch that runs
// on the host also runs on the GPU).
inline constexpr std::int64_t kMaxThreadsPerBlock = 1024;
inline constexpr std::int64_t kMaxBlockDim[3] = {1024, 1024, 64};
inline constexpr std::int64_t kMaxGridDim[3] = {2147483647, 65535, 65535};

struct KernelCall {
  const KernelOverload* kernel = nullptr;
  const KernelImpl* impl = nullptr;
  std::string name;  // for messages
  Dim3 blocks;
  Dim3 threads;
  bool auto_blocks = false;   // device loop: pick from `size` or from occupancy
  bool auto_threads = false;  // device loop: pick from occupancy, shaped by `size`
  // LaunchConfig::size (elements to cover, x fastest; extents past size_ndim are 1), checked by
  // the core; size_ndim is 0 when it was not given.
  std::int64_t size[3] = {0, 1, 1};
  int size_ndim = 0;
  std::size_t shared_bytes = 0;
  std::size_t stack_bytes = 0;  // host, syncthreads kernels: each fiber's stack (core-checked)
  bool fibers = false;          // host: run every block's threads as fibers (LaunchConfig)
  SmallVec<KernelArg, 8> args;
  void* stream = nullptr;
  int device = 0;
  // A device set (docs/multi-gpu.md, "Kernels"): this device runs only the blocks
  // [part_begin, part_end) along axis part_axis (0 x, 1 y, 2 z: the grid's slowest axis of more
  // than one block); `blocks` stays the whole grid, which the kernel sees (gridDim, blockIdx).
  // part_end == 0: every block.
  int part_axis = 0;
  unsigned part_begin = 0, part_end = 0;
  // Device loop: fill in and check the automatic configuration for `device`, launch nothing (a
  // device set's grid is fixed once, then split).
  bool configure_only = false;
  // A checked launch (LaunchConfig::checked, LOOM_CHECKED=1): the loops run their checked
  // instantiation and record the first out-of-bounds View access here (host memory on host
  // targets, device memory on cuda); null for the fast instantiation.
  detail::CheckRecord* check = nullptr;
  // A checked launch on a host target: the record of the first shared-memory race or read of
  // shared memory nothing wrote (core/src/kernels/shared_check.hpp); null otherwise.
  detail::SharedCheckRecord* shared_check = nullptr;
};

// The blocks a host backend runs for `c`, as linear indices (x fastest): every block, or a
// device's part (blocks slower than part_axis are one, so a slab along it is one range).
struct BlockRange {
  std::int64_t begin, end;
};
inline BlockRange block_range(const KernelCall& c) {
  if (c.part_end == 0) return {0, c.blocks.count()};
  std::int64_t inner = 1;
  if (c.part_axis >= 1) inner *= c.blocks.x;
  if (c.part_axis >= 2) inner *= c.blocks.y;
  return {c.part_begin * inner, c.part_end * inner};
}

}  // namespace loom
