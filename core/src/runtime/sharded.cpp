// Sharded arrays (docs/multi-gpu.md): to_devices splits a host array's rows over the devices of a
// set (or copies it to each), to_host gathers them back; each device's copy runs on its own thread
// so that the transfers overlap.
#include "loom/sharded.hpp"

#include <utility>

#include "loom/error.hpp"
#include "loom/runtime.hpp"
#include "runtime/device_set.hpp"

namespace loom {

std::pair<std::int64_t, std::int64_t> ShardedArray::block(std::int64_t n, int k, int i) {
  const std::int64_t base = n / k, extra = n % k;
  const std::int64_t lo = i * base + std::min<std::int64_t>(i, extra);
  return {lo, lo + base + (i < extra ? 1 : 0)};
}

ShardedArray::ShardedArray(std::string set, std::vector<std::string> targets,
                           std::vector<Array> shards, Shape shape, Sharding how)
    : set_(std::move(set)),
      targets_(std::move(targets)),
      shards_(std::move(shards)),
      shape_(std::move(shape)),
      how_(how) {
  const int k = static_cast<int>(shards_.size());
  if (k == 0 || targets_.size() != shards_.size()) {
    throw ValueError("ShardedArray: " + std::to_string(k) + " shards for " +
                     std::to_string(targets_.size()) + " devices; give one shard a device");
  }
  for (int i = 0; i < k; ++i) {
    Shape want = shape_;
    if (how_ == Sharding::split) {
      if (want.empty()) throw ValueError("ShardedArray: a 0-d array cannot be split by rows");
      const auto [lo, hi] = block(shape_[0], k, i);
      want[0] = hi - lo;
    }
    if (shards_[i].shape() != want || shards_[i].dtype() != shards_[0].dtype()) {
      throw ShapeError("ShardedArray: shard " + std::to_string(i) + " (" + targets_[i] + ") is " +
                       shards_[i].str() + " but the " +
                       (how_ == Sharding::split ? "split" : "replicated") + " array of shape " +
                       shape_str(shape_) + " needs a " + std::string(name(shards_[0].dtype())) +
                       " shard of shape " + shape_str(want) + " there");
    }
  }
}

std::int64_t ShardedArray::row_begin(int i) const {
  if (how_ == Sharding::replicated) return 0;
  return block(shape_[0], count(), i).first;
}

std::string ShardedArray::str() const {
  std::string s = std::string(std::string(name(dtype()))) + " array of shape " + shape_str(shape_) +
                  (how_ == Sharding::split ? " split over " : " replicated on ");
  for (int i = 0; i < count(); ++i) s += (i ? ", " : "") + targets_[i];
  return s;
}

ShardedArray Runtime::to_devices(const Array& a, const std::string& set, Sharding how) const {
  const std::vector<std::string> targets = device_targets(set);
  if (!a.valid()) throw ValueError("to_devices got an empty (default-constructed) Array");
  if (!a.device().is_host()) {
    throw DeviceError("to_devices: " + a.str() + " is not a host array; to_host it first");
  }
  if (how == Sharding::split && a.ndim() == 0) {
    throw ValueError("to_devices: a 0-d array has no rows to split over '" + set +
                     "'; replicate it (Sharding::replicated) or pass it as a scalar");
  }
  const int k = static_cast<int>(targets.size());
  std::vector<Array> shards(k);
  detail::for_each_device(k, [&](int i) {
    Array part = a;
    if (how == Sharding::split) {
      const auto [lo, hi] = ShardedArray::block(a.shape()[0], k, i);
      part = a.slice(0, lo, hi);
    }
    shards[i] = to_device(part, targets[i]);
  });
  return ShardedArray(set, targets, std::move(shards), a.shape(), how);
}

Array Runtime::to_host(const ShardedArray& a) const {
  if (!a.valid()) throw ValueError("to_host got an empty (default-constructed) ShardedArray");
  if (a.sharding() == Sharding::replicated) return to_host(a.shard(0)).copy();
  Array out = loom::empty(a.shape(), a.dtype());
  detail::for_each_device(a.count(), [&](int i) {
    const std::int64_t lo = a.row_begin(i), n = a.shard(i).shape()[0];
    if (n > 0) copy_to(to_host(a.shard(i)), out.slice(0, lo, lo + n));
  });
  return out;
}

}  // namespace loom
