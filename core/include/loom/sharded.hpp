// Arrays kept on every device of a device set (docs/multi-gpu.md): rt.to_devices(x, "cuda:all")
// splits x by rows over the devices (or copies it whole to each), calls on such arrays run on
// every device at once and return sharded arrays, and rt.to_host gathers one.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "loom/array.hpp"

namespace loom {

enum class Sharding : std::uint8_t {
  split,       // rows over the devices, in blocks: n / k each, the first n % k one more
  replicated,  // the whole array on every device
};

class ShardedArray {
 public:
  ShardedArray() = default;
  // Shards made elsewhere, one a device of `set` in its order (targets[i] holds shards[i]);
  // split shards' rows must follow the block split of `shape`'s axis 0 (row_begin says how).
  ShardedArray(std::string set, std::vector<std::string> targets, std::vector<Array> shards,
               Shape shape, Sharding how);

  const Shape& shape() const { return shape_; }  // the whole array's
  DType dtype() const { return shards_.empty() ? DType::float64 : shards_[0].dtype(); }
  int ndim() const { return static_cast<int>(shape_.size()); }
  Sharding sharding() const { return how_; }
  const std::string& set() const { return set_; }  // "cuda:all" as given
  int count() const { return static_cast<int>(shards_.size()); }
  const Array& shard(int i) const { return shards_.at(i); }
  const std::string& target(int i) const { return targets_.at(i); }  // "cuda:1"
  std::int64_t row_begin(int i) const;  // the first row of shard i (0 when replicated)
  bool valid() const { return !shards_.empty(); }
  std::string str() const;  // "float32 array of shape (8, 4) split over cuda:0, cuda:1"

  // The rows shard i of k holds when n rows are split: [first, second).
  static std::pair<std::int64_t, std::int64_t> block(std::int64_t n, int k, int i);

 private:
  std::string set_;
  std::vector<std::string> targets_;
  std::vector<Array> shards_;
  Shape shape_;
  Sharding how_ = Sharding::split;
};

}  // namespace loom
