// A kernel launched on a device set (docs/multi-gpu.md, "Kernels"): the grid is fixed once, split
// along its slowest axis of more than one block, and each device runs its blocks, on a thread of
// its own, against its own copy of every array argument. loom cannot know which elements a block
// writes, so the devices' copies of each writable argument come back and every element one device
// changed is written to the caller's array; an element two devices changed cannot be merged and
// is an error that leaves the caller's arrays as they were.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "calls/kernel_launch.hpp"
#include "loom/aliasing.hpp"
#include "loom/error.hpp"
#include "loom/strided.hpp"
#include "runtime/device_set.hpp"

namespace loom::detail {
namespace {

std::string index_str(const Shape& shape, std::int64_t flat) {
  std::vector<std::int64_t> ix(shape.size());
  for (std::size_t d = shape.size(); d-- > 0;) {
    ix[d] = flat % shape[d];
    flat /= shape[d];
  }
  std::string s = "(";
  for (std::size_t d = 0; d < ix.size(); ++d) s += (d ? ", " : "") + std::to_string(ix[d]);
  return s + (ix.size() == 1 ? ",)" : ")");
}

// The caller's array `orig` (C-contiguous) merged with the devices' copies: every element a device
// changed (bytewise: -0.0 and NaN payloads count) taken from that device; `orig` itself when no
// device changed any. Throws on an element two devices changed, naming it; `who` and `arg` name
// the launch and the argument.
Array merge_copies(const Array& orig, const std::vector<Array>& copies,
                   const std::vector<std::string>& targets, const std::string& who,
                   const std::string& arg) {
  if (copies.size() == 1) return copies[0];  // one device ran: nothing to merge
  const std::int64_t n = orig.size();
  const std::size_t item = itemsize(orig.dtype());
  const char* o = orig.data();
  Array out;
  char* m = nullptr;
  std::vector<signed char> owner;
  constexpr std::int64_t kChunk = 4096;  // elements compared at once before looking closer
  for (std::size_t d = 0; d < copies.size(); ++d) {
    const char* c = copies[d].data();
    for (std::int64_t lo = 0; lo < n; lo += kChunk) {
      const std::int64_t hi = std::min(n, lo + kChunk);
      if (std::memcmp(c + lo * item, o + lo * item, (hi - lo) * item) == 0) continue;
      if (!m) {
        out = orig.copy();
        m = out.data();
        owner.assign(static_cast<std::size_t>(n), -1);
      }
      for (std::int64_t j = lo; j < hi; ++j) {
        if (std::memcmp(c + j * item, o + j * item, item) == 0) continue;
        if (owner[j] >= 0) {
          throw ValueError(who + ": " + arg + " element " + index_str(orig.shape(), j) +
                           " was changed by blocks on " + targets[owner[j]] + " and on " +
                           targets[d] + "; each device runs its blocks on its own copy of the " +
                           "arguments and only elements one device changed can be written " +
                           "back, so blocks on several devices must not write one element (an " +
                           "atomic accumulation such as a histogram): give each block elements " +
                           "of its own (index them by blockIdx) and combine them afterwards, or " +
                           "run on one device (" + targets[0] + "); the arguments are unchanged");
        }
        owner[j] = static_cast<signed char>(d);
        std::memcpy(m + j * item, c + j * item, item);
      }
    }
  }
  return m ? out : orig;
}

}  // namespace

void launch_on_device_set(const Runtime& rt, const KernelDesc& k, const LaunchConfig& cfg,
                          std::span<const KernelArgIn> args) {
  const std::string set = cfg.target.empty() ? rt.default_target() : cfg.target;
  const std::string who = "kernel '" + k.name + "' on the device set '" + set + "'";
  const std::vector<std::string> targets = rt.device_targets(set);
  refuse_stream(cfg.stream, "kernel '" + k.name + "'", set);
  if (cfg.checked || rt.checked_launches()) {
    // Each device would need its own record and the merge its own rules; not built yet.
    throw LaunchError(who + ": checked launches (" +
                      (cfg.checked ? std::string("LaunchConfig::checked") : "LOOM_CHECKED=1") +
                      ") run on one target; launch on one device of the set (" + targets[0] +
                      ") to check this kernel");
  }
  SmallVec<const Array*, 8> arrays;
  std::vector<std::string> labels;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const Array* a = args[i].array();
    if (!a) continue;
    if (a->valid() && !a->device().is_host()) {
      throw DeviceError(who + ": argument " + std::to_string(i) + " is " + a->str() +
                        "; a kernel on a device set takes host arrays, of which every device " +
                        "gets a copy (move it with Runtime::to_host), or run on its one device");
    }
    arrays.push_back(a);
    labels.push_back("argument " + std::to_string(i));
  }
  std::vector<Target> ts;
  for (const std::string& t : targets) {
    ts.push_back(pick_target(rt, t, "kernel '" + k.name + "'",
                             std::span<const Array* const>(arrays.data(), arrays.size()), Stream(),
                             labels));
  }
  KernelCall base;
  if (!configure_launch(k, ts[0], cfg, args, base)) return;
  const KernelOverload& o = *base.kernel;

  // Two writable arguments that overlap would each come back from their own copy, and the
  // merge could not tell which write was last.
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (!o.params[i].array || !o.params[i].writable) continue;
    for (std::size_t j = 0; j < i; ++j) {
      if (!o.params[j].array || !o.params[j].writable) continue;
      if (!may_share_memory(*args[i].array(), *args[j].array())) continue;
      throw ValueError(who + ": arguments " + std::to_string(j) + " (" + args[j].array()->str() +
                       ") and " + std::to_string(i) + " (" + args[i].array()->str() +
                       ") are writable and may share memory; each device writes copies of them, " +
                       "which could not be merged: pass arrays of their own, or run on one " +
                       "device (" + targets[0] + ")");
    }
  }

  // One grid for every device: a device target fills in an automatic configuration on the first
  // device (occupancy); then automatic blocks without a size (a grid-stride kernel, which fills
  // one device) become a grid for each device.
  if (ts[0].on_device()) {
    KernelCall c = base;
    c.configure_only = true;
    run_kernel_on(ts[0], c);
    base.blocks = c.blocks;
    base.threads = c.threads;
    base.auto_blocks = base.auto_threads = false;
  }
  const int k_dev = static_cast<int>(ts.size());
  if (!cfg.blocks.given && cfg.size.ndim == 0) {
    base.blocks.x = static_cast<unsigned>(
        std::min<std::int64_t>(std::int64_t{base.blocks.x} * k_dev, kMaxGridDim[0]));
  }
  const int axis = base.blocks.z > 1 ? 2 : (base.blocks.y > 1 ? 1 : 0);
  const std::int64_t n = axis == 2 ? base.blocks.z : (axis == 1 ? base.blocks.y : base.blocks.x);
  const int parts = static_cast<int>(std::min<std::int64_t>(n, k_dev));

  // C-contiguous host arrays, gathered once however many devices copy them.
  std::vector<Array> src(args.size());
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (!o.params[i].array) continue;
    const Array& a = *args[i].array();
    src[i] = a.is_c_contiguous() ? a : a.copy();
  }
  // back[i][d]: device d's copy of writable argument i, on the host.
  std::vector<std::vector<Array>> back(args.size(), std::vector<Array>(parts));
  for_each_device(parts, [&](int d) {
    const Target& t = ts[d];
    KernelCall c = base;
    c.device = t.device;
    c.stream = nullptr;
    const auto [lo, hi] = ShardedArray::block(n, parts, d);
    c.part_axis = axis;
    c.part_begin = static_cast<unsigned>(lo);
    c.part_end = static_cast<unsigned>(hi);
    std::vector<Array> placed(args.size());
    for (std::size_t i = 0; i < args.size(); ++i) {
      const KernelParam& p = o.params[i];
      if (!p.array) continue;
      if (t.on_device()) {
        placed[i] = t.to_device(src[i]);
      } else {
        placed[i] = p.writable ? src[i].copy() : src[i];
      }
      place_array_arg(placed[i], p.ndim, c.args[i]);
    }
    run_kernel_on(t, c);
    for (std::size_t i = 0; i < args.size(); ++i) {
      if (!o.params[i].array || !o.params[i].writable) continue;
      back[i][d] = t.on_device() ? rt.to_host(placed[i]) : placed[i];
    }
    if (t.on_device()) t.backend->synchronize(t.device, nullptr);
  });

  // Every writable argument merged before any is written, so that a conflict changes nothing.
  std::vector<std::pair<std::size_t, Array>> merged;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (!o.params[i].array || !o.params[i].writable) continue;
    merged.emplace_back(
        i, merge_copies(src[i], back[i], targets, who,
                        "argument " + std::to_string(i) + " (" + o.params[i].str() + ")"));
  }
  for (const auto& [i, m] : merged) {
    if (m.data() != src[i].data()) copy_cast(m, *args[i].array());  // else no device changed it
  }
}

}  // namespace loom::detail
