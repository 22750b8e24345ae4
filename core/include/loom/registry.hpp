// The registry of operations: immutable OpDesc snapshots behind a shared lock, so calls in flight
// keep the descriptor they resolved while a plugin adds loops.
#pragma once
#include <map>
#include <memory>
#include <shared_mutex>
#include <string>
#include <vector>

#include "loom/kernel.hpp"
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
  // Throws PluginError on a kernel without overloads or names, an overload without this
  // family's loop, a parameter that is not a 1-3 d array or a scalar, or a name added twice.
  void add_kernel(KernelDesc desc);
  // Replaces this family's loop of an op added earlier by the same plugin for one signature by
  // a hand-written one (impl.hand_written says what it is). PluginError if there is no such op
  // or signature, or impl is missing this family's loop.
  void replace_loop(const std::string& op, const std::string& signature, const LoopImpl& impl);
  std::vector<OpDesc>& staged() { return staged_; }
  std::vector<KernelDesc>& staged_kernels() { return kernels_; }

 private:
  Family family_;
  std::vector<OpDesc> staged_;
  std::vector<KernelDesc> kernels_;
};

class Registry {
 public:
  // Merges a plugin's descriptors: new ops are added; an op that exists in another family gains
  // this family's loops (matched by signature). Throws PluginError, changing nothing, if any
  // (op, signature) already has an implementation of this family or the ops' shapes disagree.
  // Kernels merge the same way, matched by parameter list. An op or kernel belongs to the
  // plugin `owner` (PluginInfo::name, "math") that first registered it: only libraries of that
  // plugin (its host and CUDA builds) may add loops to it; another library that would is refused
  // (docs/plugins.md, "Which library wins"). `owner` defaults to the file name `plugin`.
  void merge(Registrar& staged, const std::string& plugin, const std::string& owner = {});
  // Merges definitions the program made itself (Runtime::define) by the same rules: `owner`
  // ("myapp") owns what it defines first, for both families, and no plugin owner is the same.
  // Descriptors record program_source(owner, family) where a plugin's record its file name.
  // Throws PluginError, changing nothing, where merge would refuse a plugin.
  void merge_program(Registrar& staged, const std::string& owner);
  // "myapp (defined by the program, host)": what OpDesc::plugins / KernelDesc::plugins list for
  // a program's definitions of one family.
  static std::string program_source(const std::string& owner, Family family);
  std::shared_ptr<const OpDesc> find(const std::string& name) const;
  std::vector<std::shared_ptr<const OpDesc>> list() const;
  // Kernels live in their own namespace: a kernel and an op may share a name.
  std::shared_ptr<const KernelDesc> find_kernel(const std::string& name) const;
  std::vector<std::shared_ptr<const KernelDesc>> list_kernels() const;

 private:
  mutable std::shared_mutex mutex_;
  std::map<std::string, std::shared_ptr<const OpDesc>> ops_;
  std::map<std::string, std::shared_ptr<const KernelDesc>> kernels_;
  std::map<std::string, std::string> op_owners_, kernel_owners_;  // name -> owning plugin
  struct Source;  // who merges: a plugin library or the program (registry.cpp)
  void merge_from(Registrar& staged, const Source& src);
};

}  // namespace loom
