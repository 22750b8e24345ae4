// Kernel descriptor printing (Numba-style types in messages) and the errors the header-only
// kernel parts (View, ThreadCtx) raise on the host.
#include "loom/kernel.hpp"

#include <atomic>
#include <cstdint>

#include "loom/block_ctx.hpp"
#include "loom/error.hpp"
#include "ops/kernel_check.hpp"

namespace loom {

std::string KernelParam::str() const {
  std::string s = std::string(name(dtype));
  if (!array) return s;
  s += "[:";
  for (int k = 1; k < ndim; ++k) s += ", :";
  s += "]";
  return writable ? s : "const " + s;
}

const char* name(HostPath p) {
  switch (p) {
    case HostPath::thread_loop:
      return "thread loop";
    case HostPath::block_phases:
      return "block phases";
    case HostPath::fibers:
      return "fibers";
  }
  return "?";
}

std::string KernelOverload::signature() const {
  std::string s = "(";
  for (std::size_t i = 0; i < params.size(); ++i) s += (i ? ", " : "") + params[i].str();
  return s + ")";
}

bool KernelDesc::has_family(Family f) const {
  for (const auto& o : overloads) {
    if (o.impl[static_cast<int>(f)].present()) return true;
  }
  return false;
}

std::string KernelDesc::signatures() const {
  std::string s;
  for (const auto& o : overloads) s += "\n  " + name + o.signature();
  return s;
}

namespace detail {

namespace {

// The data pointer of the View whose index was out of bounds, for kernel_thread_failed on the same
// OS thread (a block's threads, fibers included, all run on one).
thread_local const void* failed_view = nullptr;

// An IndexError that already names its argument, block and thread (block kernels run their
// phases inside the block loop, which also catches).
class NamedIndexError : public IndexError {
 public:
  using IndexError::IndexError;
};

// Which argument's memory holds byte address p: [lowest, highest element + item) over its strides.
std::string owner_of(const KernelCall& c, const void* p) {
  // Integer addresses: base + lo may lie before the allocation's start in pointer terms.
  const auto q = reinterpret_cast<std::uintptr_t>(p);
  for (std::size_t i = 0; i < c.args.size(); ++i) {
    const KernelParam& prm = c.kernel->params[i];
    const KernelArg& a = c.args[i];
    if (!prm.array || !a.data) continue;
    const auto base = reinterpret_cast<std::uintptr_t>(a.data);
    std::int64_t lo = 0, hi = 0;
    bool empty = false;
    for (int d = 0; d < prm.ndim; ++d) {
      if (a.shape[d] == 0) empty = true;
      const std::int64_t span = (a.shape[d] - 1) * a.strides[d];
      (span < 0 ? lo : hi) += span;
    }
    const std::uintptr_t first = base + static_cast<std::uintptr_t>(lo),
                         past = base + static_cast<std::uintptr_t>(hi) + itemsize(prm.dtype);
    if (!empty && q >= first && q < past)
      return "argument " + std::to_string(i) + " (" + prm.str() + ")";
  }
  return "a View of no argument (local memory, or made in the kernel)";
}

std::string dim_str(const Dim3& d) {
  // A std::string first: `"(" + std::string&&` trips GCC 12's -Wrestrict (PR 105329).
  return std::string("(") + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " +
         std::to_string(d.z) + ")";
}

}  // namespace

void kernel_thread_failed(const void* call, const ThreadCtx& t) {
  const void* view = failed_view;
  failed_view = nullptr;
  try {
    throw;
  } catch (const NamedIndexError&) {
    throw;
  } catch (const IndexError& e) {
    const auto& c = *static_cast<const KernelCall*>(call);
    const auto v = reinterpret_cast<std::uintptr_t>(view),
               sh = reinterpret_cast<std::uintptr_t>(t.shared_mem);
    const std::string owner = !view ? "a View"
                              : t.shared_mem && v >= sh && v < sh + t.shared_bytes
                                  ? "a View of the block's shared memory"
                                  : owner_of(c, view);
    throw NamedIndexError(owner + " in block " + dim_str(t.blockIdx) + ", thread " +
                          dim_str(t.threadIdx) + ": " + e.what());
  }
}

namespace {
std::string index_message(std::int64_t index, int axis, std::int64_t extent, int ndim) {
  return "index " + std::to_string(index) + " is out of bounds for axis " + std::to_string(axis) +
         " with size " + std::to_string(extent) + " (a " + std::to_string(ndim) + "-d View)";
}
}  // namespace

void view_index_error(const void* base, int axis, std::int64_t index, std::int64_t extent,
                      int ndim) {
  failed_view = base;
  throw IndexError(index_message(index, axis, extent, ndim));
}

void* view_check_host(ViewCheck* c, const void* view, int axis, std::int64_t index,
                      std::int64_t size, int ndim) {
  for (auto& b : c->scratch) b = 0;
  CheckRecord* r = c->record;
  // parallel runs blocks on several OS threads: the first failing access claims the record, and
  // the launch reads it only after every block has finished.
  unsigned expected = 0;
  if (!std::atomic_ref<unsigned>(r->flag).compare_exchange_strong(expected, 1u)) return c->scratch;
  r->axis = axis;
  r->ndim = ndim;
  const auto v = reinterpret_cast<std::uintptr_t>(view),
             sh = reinterpret_cast<std::uintptr_t>(c->shared_mem);
  r->shared = c->shared_mem && v >= sh && v < sh + c->shared_bytes;
  r->index = index;
  r->size = size;
  r->view = view;
  for (int k = 0; k < 3; ++k) {
    r->block[k] = c->block[k];
    r->thread[k] = c->thread[k];
  }
  r->arg = c->arg;
  r->instance = c->instance;
  return c->scratch;
}

std::string checked_access_error(const KernelCall& c, const CheckRecord& r) {
  const Dim3 b(r.block[0], r.block[1], r.block[2]), t(r.thread[0], r.thread[1], r.thread[2]);
  const std::string owner = r.shared ? "a View of the block's shared memory" : owner_of(c, r.view);
  return owner + " in block " + dim_str(b) + ", thread " + dim_str(t) + ": " +
         index_message(r.index, r.axis, r.size, r.ndim);
}

void sync_undeclared() {
  throw KernelError(
      "syncthreads() called by a kernel that does not declare `static constexpr bool "
      "uses_syncthreads = true;`: on host targets only such kernels run their threads as fibers "
      "that can wait at a barrier");
}

void shared_overflow(std::size_t want, std::size_t have) {
  throw LaunchError("the kernel uses " + std::to_string(want) +
                    " bytes of shared memory but the launch gave " + std::to_string(have) +
                    "; set LaunchConfig::shared_bytes");
}

void shared_size_invalid(std::int64_t n, std::size_t item, std::size_t byte_offset,
                         std::size_t have) {
  throw LaunchError("the kernel asks shared_array for " + std::to_string(n) + " elements of " +
                    std::to_string(item) + " bytes at byte offset " + std::to_string(byte_offset) +
                    ": " +
                    (n < 0 ? std::string("a negative count")
                           : "more bytes than a size_t holds (" + std::to_string(SIZE_MAX) + ")") +
                    "; the launch gave " + std::to_string(have) + " bytes of shared memory");
}

void shared_shape_invalid(const std::int64_t* shape, int ndim, std::size_t item,
                          std::size_t byte_offset, std::size_t have) {
  std::string dims;
  bool negative = false;
  for (int k = 0; k < ndim; ++k) {
    dims += (k ? ", " : "") + std::to_string(shape[k]);
    negative = negative || shape[k] < 0;
  }
  throw LaunchError(
      "the kernel asks shared_array for a (" + dims + ") array of " + std::to_string(item) +
      "-byte elements at byte offset " + std::to_string(byte_offset) + ": " +
      (negative ? std::string("a negative extent")
                : "more bytes than a size_t holds (" + std::to_string(SIZE_MAX) + ")") +
      "; the launch gave " + std::to_string(have) + " bytes of shared memory");
}

}  // namespace detail
}  // namespace loom
