// The registry of operations: immutable OpDesc snapshots behind a shared lock, so calls in flight
// keep the descriptor they resolved while a plugin adds loops.
#pragma once
#include <map>
#include <memory>
#include <shared_mutex>
#include <string>
#include <vector>

#include "loom/op.hpp"

namespace loom {

// What a plugin's register function fills: descriptors of one family, staged so that a plugin
// is merged into the registry whole or not at all.
class Registrar {
 public:
  explicit Registrar(Family family) : family_(family) {}
  Family family() const { return family_; }
  // Throws PluginError on a malformed descriptor (no loops, arity disagreeing with a signature,
  // a loop without an implementation of this family, a name registered twice here).
  void add(OpDesc desc);
  std::vector<OpDesc>& staged() { return staged_; }

 private:
  Family family_;
  std::vector<OpDesc> staged_;
};

class Registry {
 public:
  // Merges a plugin's descriptors: new ops are added; an op that exists in another family gains
  // this family's loops (matched by signature). Throws PluginError, changing nothing, if any
  // (op, signature) already has an implementation of this family or the ops' shapes disagree.
  void merge(Registrar& staged, const std::string& plugin);
  std::shared_ptr<const OpDesc> find(const std::string& name) const;
  std::vector<std::shared_ptr<const OpDesc>> list() const;

 private:
  mutable std::shared_mutex mutex_;
  std::map<std::string, std::shared_ptr<const OpDesc>> ops_;
};

}  // namespace loom
