// Kernel::launch: picks the target and the overload, checks the launch configuration, moves host
// arrays for a device target, and hands the grid to the backend (a device set's launch:
// device_set_kernel.cpp).
#include <algorithm>
#include <string>

#include "calls/kernel_launch.hpp"
#include "kernels/kernel_watchdog.hpp"
#include "kernels/shared_check.hpp"
#include "loom/aliasing.hpp"
#include "loom/error.hpp"
#include "loom/kernel_host.hpp"
#include "loom/launch_shape.hpp"
#include "loom/runtime.hpp"
#include "ops/kernel_check.hpp"
#include "ops/suggest.hpp"
#include "plugins/plugin_search.hpp"
#include "runtime/call_common.hpp"
#include "runtime/device_set.hpp"
#include "runtime/runtime_impl.hpp"

namespace loom {
namespace detail {
namespace {

// What the caller passed, in the notation of KernelParam::str().
std::string arg_str(const KernelArgIn& a) {
  if (!a.array()) return std::string(name(a.dtype()));
  KernelParam p{true, a.array()->dtype(), a.array()->ndim(), true};
  return p.ndim >= 1 ? p.str() : std::string(name(a.dtype())) + "[] (0-d)";
}

bool fits(const KernelParam& p, const KernelArgIn& a) {
  if (p.array != (a.array() != nullptr)) return false;
  if (p.array) return a.array()->dtype() == p.dtype && a.array()->ndim() == p.ndim;
  return can_cast(a.dtype(), p.dtype, Casting::same_kind);
}

const KernelOverload& pick_overload(const KernelDesc& k, const detail::Target& t,
                                    std::span<const KernelArgIn> args) {
  const int fam = static_cast<int>(t.family);
  if (!k.has_family(t.family)) {
    throw LookupError("kernel '" + k.name + "' has no " + name(t.family) + " implementation, so " +
                      "it cannot run on target '" + t.name + "' (registered by " + k.plugins + ")");
  }
  for (const auto& o : k.overloads) {
    if (!o.impl[fam].present() || o.params.size() != args.size()) continue;
    bool ok = true;
    for (std::size_t i = 0; i < args.size() && ok; ++i) ok = fits(o.params[i], args[i]);
    if (ok) return o;
  }
  std::string got = "(";
  for (std::size_t i = 0; i < args.size(); ++i) got += (i ? ", " : "") + arg_str(args[i]);
  got += ")";
  std::string sigs;
  for (const auto& o : k.overloads) {
    if (o.impl[fam].present()) sigs += "\n  " + k.name + o.signature();
  }
  throw TypeError("kernel '" + k.name + "' has no overload for arguments " + got + " on target '" +
                  t.name + "'; arrays must match a signature's dtype and rank exactly, scalars " +
                  "must cast to it with same_kind casting. Signatures:" + sigs);
}

std::string extent_str(const Extent& e) {
  return "(" + std::to_string(e.x) + ", " + std::to_string(e.y) + ", " + std::to_string(e.z) + ")";
}

Dim3 check_threads(const std::string& k, const Extent& e) {
  const std::int64_t v[3] = {e.x, e.y, e.z};
  for (int d = 0; d < 3; ++d) {
    if (v[d] < 1 || v[d] > kMaxBlockDim[d] || e.x * e.y * e.z > kMaxThreadsPerBlock) {
      throw LaunchError("kernel '" + k + "': threads=" + extent_str(e) + " is not a valid block: " +
                        "each extent must be at least 1, x and y at most 1024, z at most 64, and " +
                        "the product at most 1024 threads per block");
    }
  }
  return Dim3(static_cast<unsigned>(e.x), static_cast<unsigned>(e.y), static_cast<unsigned>(e.z));
}

Dim3 check_blocks(const std::string& k, const Extent& e) {
  const std::int64_t v[3] = {e.x, e.y, e.z};
  for (int d = 0; d < 3; ++d) {
    if (v[d] < 1 || v[d] > kMaxGridDim[d]) {
      throw LaunchError("kernel '" + k + "': blocks=" + extent_str(e) + " is not a valid grid: " +
                        "each extent must be at least 1, x at most 2^31-1, y and z at most 65535");
    }
  }
  return Dim3(static_cast<unsigned>(e.x), static_cast<unsigned>(e.y), static_cast<unsigned>(e.z));
}

// Host targets: as much dynamic shared memory as an sm_90 block can have, so that a launch that
// runs here also fits a GPU.
constexpr std::size_t kHostMaxShared = 227 * 1024;
constexpr std::int64_t kHostAutoThreads = 256;

// LaunchConfig::size into the call (extents past the given ones are 1); true when an extent is
// 0, so that blocks covering it would be none.
bool check_size(const std::string& k, const LaunchSize& s, KernelCall& call) {
  const std::int64_t v[3] = {s.x, s.y, s.z};
  for (int d = 0; d < 3; ++d) call.size[d] = d < s.ndim ? v[d] : (d == 0 ? 0 : 1);
  call.size_ndim = s.ndim;
  bool zero = false;
  for (int d = 0; d < s.ndim; ++d) {
    if (v[d] < 0) {
      throw ValueError("kernel '" + k + "': size=" + detail::size_str(call.size, s.ndim) +
                       " is negative" + (s.ndim > 1 ? std::string(" along ") + "xyz"[d] : ""));
    }
    zero = zero || v[d] == 0;
  }
  return zero;
}

// A writable View<T> parameter must not get an array whose elements repeat: a stride-0 axis of
// more than one element (a broadcast view made writeable, or the stride trick) would have
// several threads write one element, a race on every target but cpu. Read-only arrays are
// refused first (require_writeable).
void require_distinct(const std::string& k, std::size_t i, const KernelParam& p, const Array& a) {
  for (int d = 0; d < a.ndim(); ++d) {
    if (a.strides()[d] != 0 || a.shape()[d] <= 1) continue;
    throw ValueError("kernel '" + k + "': argument " + std::to_string(i) + " (" + p.str() +
                     ") repeats its elements: axis " + std::to_string(d) + " has stride 0 and " +
                     std::to_string(a.shape()[d]) + " elements (" + a.str() + ", strides " +
                     shape_str(a.strides()) + "), so threads writing different elements " +
                     "would write the same one; a writable parameter needs an array of its own, " +
                     "e.g. a copy()");
  }
}

// A scalar argument converted to the parameter's dtype.
void convert_scalar(const KernelArgIn& a, DType to, unsigned char* out) {
  visit_dtype(a.dtype(), [&](auto from) {
    using From = decltype(from);
    From v;
    std::memcpy(&v, a.value(), sizeof(From));
    visit_dtype(to, [&](auto t) {
      using To = decltype(t);
      if constexpr (std::is_arithmetic_v<From> && std::is_arithmetic_v<To>) {
        const To c = static_cast<To>(v);
        std::memcpy(out, &c, sizeof(To));
      } else {
        throw TypeError("kernel scalar parameters are bool, integer or float32/float64, not " +
                        std::string(name(to)));
      }
    });
  });
}

}  // namespace

bool configure_launch(const KernelDesc& k, const Target& t, const LaunchConfig& cfg,
                      std::span<const KernelArgIn> args, KernelCall& call) {
  const KernelOverload& o = pick_overload(k, t, args);
  const bool fibers = !t.on_device() && (cfg.host_fibers || o.host_path == HostPath::fibers);
  if (fibers) watchdog_configure();

  call.kernel = &o;
  call.impl = &o.impl[static_cast<int>(t.family)];
  call.name = k.name;
  call.device = t.device;
  call.stream = cfg.stream.native();
  call.shared_bytes = cfg.shared_bytes;
  // Checked on every target, used on the host (fiber stacks of syncthreads kernels).
  if (cfg.stack_bytes != 0 &&
      (cfg.stack_bytes < kMinFiberStack || cfg.stack_bytes > kMaxFiberStack)) {
    throw LaunchError("kernel '" + k.name + "': stack_bytes=" + std::to_string(cfg.stack_bytes) +
                      " is outside the fiber stacks host targets give a kernel thread (" +
                      std::to_string(kMinFiberStack) + " to " + std::to_string(kMaxFiberStack) +
                      " bytes; 0: the default, " + std::to_string(kDefaultFiberStack) + ")");
  }
  call.stack_bytes = cfg.stack_bytes ? cfg.stack_bytes : kDefaultFiberStack;
  call.fibers = fibers;
  const bool empty = check_size(k.name, cfg.size, call) && !cfg.blocks.given;
  call.auto_threads = !cfg.threads.given;
  call.auto_blocks = !cfg.blocks.given;
  if (cfg.threads.given) call.threads = check_threads(k.name, cfg.threads);
  if (cfg.blocks.given) call.blocks = check_blocks(k.name, cfg.blocks);
  if (!t.on_device()) {
    if (cfg.shared_bytes > kHostMaxShared) {
      throw LaunchError("kernel '" + k.name + "': shared_bytes=" +
                        std::to_string(cfg.shared_bytes) + " is more than a block may have (" +
                        std::to_string(kHostMaxShared) + " bytes, as on sm_90)");
    }
    // Automatic configuration on the host: blocks of 256 threads shaped by `size`, covering it,
    // or four blocks per worker thread.
    if (call.auto_threads) {
      call.threads = auto_threads(call.size, call.size_ndim, kHostAutoThreads, kMaxThreadsPerBlock);
    }
    if (empty) {
      // Nothing runs (below); a grid for the other extents is not asked for.
    } else if (call.auto_blocks && call.size_ndim > 0) {
      call.blocks =
          blocks_for_size("kernel '" + k.name + "'", call.size, call.size_ndim, call.threads);
    } else if (call.auto_blocks) {
      call.blocks = Dim3(static_cast<unsigned>(4 * std::max(1, t.backend->num_threads())));
    }
    call.auto_threads = call.auto_blocks = false;
  }

  // Arrays the kernel writes, checked before any goes to a device.
  for (std::size_t i = 0; i < args.size(); ++i) {
    const KernelParam& p = o.params[i];
    if (!p.array || !p.writable) continue;
    const std::string arg = "argument " + std::to_string(i) + " (" + p.str() + ")";
    require_writeable(*args[i].array(), "kernel '" + k.name + "'", arg);
    require_distinct(k.name, i, p, *args[i].array());
  }
  call.args.resize(args.size());
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (!o.params[i].array) convert_scalar(args[i], o.params[i].dtype, call.args[i].value);
  }
  // A size with a zero extent and automatic blocks: no block to run (Numba's forall(0)).
  return !empty;
}

void place_array_arg(const Array& a, int ndim, KernelArg& ka) {
  ka.data = a.data();
  for (int d = 0; d < ndim; ++d) {
    ka.shape[d] = a.shape()[d];
    ka.strides[d] = a.strides()[d];
  }
}

void run_kernel_on(const Target& t, KernelCall& call) {
  try {
    t.backend->run_kernel(call, t.device);
  } catch (const IndexError& e) {  // raised inside the kernel's code: say which kernel
    throw IndexError("kernel '" + call.name + "': " + e.what());
  } catch (const KernelError& e) {
    throw KernelError("kernel '" + call.name + "': " + e.what());
  } catch (const LaunchError& e) {
    const std::string m = e.what();
    if (m.rfind("kernel '", 0) == 0) throw;
    throw LaunchError("kernel '" + call.name + "': " + m);
  }
}

}  // namespace detail

void Kernel::launch_args(const LaunchConfig& cfg, std::span<const KernelArgIn> args) const {
  std::shared_ptr<const KernelDesc> keep;
  const KernelDesc& k = rt_->current_kernel(desc_, gen_, cfg.target, keep);
  if (detail::names_device_set(cfg.target.empty() ? rt_->default_target() : cfg.target)) {
    return detail::launch_on_device_set(*rt_, k, cfg, args);
  }
  SmallVec<const Array*, 8> arrays;
  std::vector<std::string> labels;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (!args[i].array()) continue;
    arrays.push_back(args[i].array());
    labels.push_back("argument " + std::to_string(i));
  }
  const detail::Target t = detail::pick_target(
      *rt_, cfg.target, "kernel '" + k.name + "'",
      std::span<const Array* const>(arrays.data(), arrays.size()), cfg.stream, labels);
  KernelCall call;
  if (!detail::configure_launch(k, t, cfg, args, call)) return;
  const KernelOverload& o = *call.kernel;

  // Arrays; host arrays on a device target go over first and writable ones come back after.
  SmallVec<std::pair<Array, const Array*>, 4> copy_back;  // (device copy, caller's host array)
  // Every device copy lives until the kernel is queued: a buffer freed earlier could be handed
  // to the next argument (frees are stream-ordered after the kernel on the legacy stream).
  SmallVec<Array, 8> copies;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const KernelParam& p = o.params[i];
    if (!p.array) continue;
    Array a = *args[i].array();
    if (t.on_device() && a.device().is_host()) {
      Array d = t.to_device(a);
      copies.push_back(d);
      if (p.writable) copy_back.push_back({d, args[i].array()});
      a = d;
    }
    detail::place_array_arg(a, p.ndim, call.args[i]);
  }
  // A checked launch's error record: a local on host targets; on a device a zeroed buffer of
  // its own, read back after the launch, which makes a checked launch synchronous there.
  const bool checked = cfg.checked || rt_->checked_launches();
  detail::CheckRecord record;
  detail::SharedCheckRecord shared_record;  // host targets: the race checker's
  Array device_record;
  if (checked && t.on_device()) {
    device_record =
        rt_->zeros({static_cast<std::int64_t>(sizeof record)}, DType::uint8, t.name, cfg.stream);
    call.check = reinterpret_cast<detail::CheckRecord*>(device_record.data());
  } else if (checked) {
    call.check = &record;
    call.shared_check = &shared_record;
  }
  detail::run_kernel_on(t, call);
  for (auto& [d, host] : copy_back) rt_->copy_to(d, *host, cfg.stream);
  if (checked && t.on_device()) {
    Array host = loom::empty({static_cast<std::int64_t>(sizeof record)}, DType::uint8);
    rt_->copy_to(device_record, host, cfg.stream);
    t.backend->synchronize(t.device, call.stream);
    std::memcpy(&record, host.data(), sizeof record);
  } else if (t.on_device() && !t.device_mode) {
    t.backend->synchronize(t.device, call.stream);
  }
  if (record.flag != 0) {
    throw IndexError("kernel '" + call.name + "': " + detail::checked_access_error(call, record));
  }
  // After an out-of-bounds access, whose IndexError comes first: a race is the rarer finding.
  if (shared_record.flag.load() != 0) {
    throw KernelError(detail::shared_check_error(call, shared_record));
  }
}

Kernel Runtime::kernel(const std::string& name) const {
  const std::uint64_t gen = open_named(name, true);
  auto d = registry_.find_kernel(name);
  if (!d) {
    // The refused library that would have defined it, else the closest registered kernel name.
    std::string hint = refused_why(name);
    if (hint.empty()) {
      std::vector<std::string> names;
      for (const auto& k : registry_.list_kernels()) names.push_back(k->name);
      for (auto& k : unopened_kernels(*impl_)) names.push_back(std::move(k));
      hint = detail::did_you_mean(name, names);
    }
    throw LookupError("no kernel named '" + name + "' is registered" +
                      ((open_named(name, false), registry_.find(name))
                           ? " (there is an op of that name: use ufunc/reduce)"
                           : "") +
                      "; loom-info lists the registered kernels" + hint +
                      detail::notices_note(impl_->notices, !hint.empty()));
  }
  Kernel k;
  k.rt_ = shared();
  k.desc_ = std::move(d);
  k.gen_ = gen;
  return k;
}

}  // namespace loom
