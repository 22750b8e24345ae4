// Kernel descriptor printing (Numba-style types in messages) and the errors the header-only
// kernel parts (View, ThreadCtx) raise on the host.
#include "loom/kernel.hpp"

#include "loom/error.hpp"

namespace loom {

std::string KernelParam::str() const {
  std::string s = std::string(name(dtype));
  if (!array) return s;
  s += "[:";
  for (int k = 1; k < ndim; ++k) s += ", :";
  s += "]";
  return writable ? s : "const " + s;
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

void view_index_error(int axis, std::int64_t index, std::int64_t extent, int ndim) {
  throw IndexError("index " + std::to_string(index) + " is out of bounds for axis " +
                   std::to_string(axis) + " with size " + std::to_string(extent) + " (a " +
                   std::to_string(ndim) + "-d View)");
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
