// Registrar validation and the all-or-nothing merge of a plugin's descriptors.
#include "loom/registry.hpp"

#include <mutex>

#include "loom/error.hpp"

namespace loom {

void Registrar::add(OpDesc d) {
  auto fail = [&](const std::string& why) {
    throw PluginError("op '" + d.name + "' is malformed: " + why);
  };
  if (d.name.empty()) fail("empty name");
  if (d.loops.empty()) fail("no loops");
  if (d.kind == OpKind::gufunc && !d.layout) fail("a gufunc needs a layout");
  if (d.layout && (d.layout->nin != d.nin || d.layout->nout != d.nout)) {
    fail("layout " + d.layout->str() + " disagrees with nin=" + std::to_string(d.nin) +
         ", nout=" + std::to_string(d.nout));
  }
  const int fam = static_cast<int>(family_);
  for (const auto& l : d.loops) {
    const int want_in = d.kind == OpKind::reduce ? 1 : d.nin;
    if (static_cast<int>(l.sig.inputs.size()) != want_in ||
        static_cast<int>(l.sig.outputs.size()) != d.nout) {
      fail("signature " + l.sig.str() + " does not have " + std::to_string(want_in) +
           " inputs and " + std::to_string(d.nout) + " outputs");
    }
    const LoopImpl& impl = l.impl[fam];
    if (impl.takes_index && d.kind != OpKind::ufunc) {
      fail("signature " + l.sig.str() + " takes an element index, which only ufunc loops take");
    }
    const bool ok = family_ == Family::host
                        ? (impl.takes_index ? impl.host_index && !impl.host
                                            : impl.host && (d.kind != OpKind::reduce || impl.fold))
                        : (d.kind == OpKind::ufunc    ? impl.device_elementwise != nullptr
                           : d.kind == OpKind::gufunc ? impl.device_gufunc != nullptr
                                                      : impl.device_reduce != nullptr);
    if (!ok) fail("signature " + l.sig.str() + " has no " + name(family_) + " loop");
  }
  for (const auto& s : staged_) {
    if (s.name == d.name) fail("registered twice by the same plugin");
  }
  staged_.push_back(std::move(d));
}

void Registrar::add_kernel(KernelDesc d) {
  auto fail = [&](const std::string& why) {
    throw PluginError("kernel '" + d.name + "' is malformed: " + why);
  };
  if (d.name.empty()) fail("empty name");
  if (d.overloads.empty()) fail("no overloads");
  const int fam = static_cast<int>(family_);
  for (const auto& o : d.overloads) {
    for (const auto& p : o.params) {
      if (p.array && (p.ndim < 1 || p.ndim > 3)) {
        fail("parameter " + p.str() + " has " + std::to_string(p.ndim) +
             " dimensions; views have 1 to 3");
      }
    }
    const KernelImpl& impl = o.impl[fam];
    if (family_ == Family::host ? !impl.host : !impl.device) {
      fail("overload " + o.signature() + " has no " + name(family_) + " loop");
    }
  }
  for (const auto& k : kernels_) {
    if (k.name == d.name) fail("registered twice by the same plugin");
  }
  kernels_.push_back(std::move(d));
}

void Registrar::replace_loop(const std::string& op, const std::string& signature,
                             const LoopImpl& impl) {
  const int fam = static_cast<int>(family_);
  const Signature sig = Signature::parse(signature);
  for (auto& d : staged_) {
    if (d.name != op) continue;
    for (auto& l : d.loops) {
      if (!(l.sig == sig)) continue;
      const LoopImpl& old = l.impl[fam];
      const bool same_kind =
          (old.host != nullptr) == (impl.host != nullptr) &&
          (old.host_index != nullptr) == (impl.host_index != nullptr) &&
          old.takes_index == impl.takes_index && (old.fold != nullptr) == (impl.fold != nullptr) &&
          (old.device_elementwise != nullptr) == (impl.device_elementwise != nullptr) &&
          (old.device_gufunc != nullptr) == (impl.device_gufunc != nullptr) &&
          (old.device_reduce != nullptr) == (impl.device_reduce != nullptr);
      if (!impl.present() || !same_kind || !impl.hand_written) {
        throw PluginError("replace_loop('" + op + "', " + signature +
                          "): the new loop must fill the same " + name(family_) +
                          " entry points as the generic one and say what it is (hand_written)");
      }
      l.impl[fam] = impl;
      return;
    }
    throw PluginError("replace_loop('" + op + "', " + signature + "): op '" + op +
                      "' has no such signature (it has " + d.signatures() + ")");
  }
  throw PluginError("replace_loop('" + op + "', " + signature + "): this plugin added no op '" +
                    op + "' before");
}

// Who merges: a plugin library, or the program itself (Runtime::define). Messages name the first
// as "plugin libb.so" and end "the plugin is refused", the second as "Runtime::define('myapp')"
// ending "nothing was defined".
struct Registry::Source {
  std::string label;    // what OpDesc::plugins lists: the file name, or program_source()
  std::string owner;    // the ownership key: PluginInfo::name, or program_key(name)
  std::string program;  // the program's owner name; empty for a library
  std::string who() const {
    return program.empty() ? "plugin " + label : "Runtime::define('" + program + "')";
  }
  std::string verdict() const {
    return program.empty() ? "the plugin is refused" : "nothing was defined";
  }
};

namespace {

// A program's ownership key starts with a NUL byte, which no PluginInfo::name (a C string) can
// hold: no plugin can pass for the program's part or the program for a plugin.
const std::string kProgramKey("\0program ", 9);
std::string program_key(const std::string& owner) { return kProgramKey + owner; }

// ", which belongs to plugin 'a' (liba.so)" / ", which the program defined (...)".
std::string belongs(const std::string& first, const std::string& libs) {
  if (first.starts_with(kProgramKey)) {
    return "which the program defined (Runtime::define('" + first.substr(kProgramKey.size()) +
           "'))";
  }
  return "which belongs to plugin '" + first + "' (" + libs + ")";
}

// Adds `label` to a descriptor's list of sources, once (a program may define in several calls).
void add_source(std::string& list, const std::string& label) {
  for (std::size_t at = list.find(label); at != std::string::npos; at = list.find(label, at + 1)) {
    const std::size_t end = at + label.size();
    const bool starts = at == 0 || list.compare(at - 2, 2, ", ") == 0;
    const bool ends = end == list.size() || list.compare(end, 2, ", ") == 0;
    if (starts && ends) return;
  }
  list += ", " + label;
}

// "a ufunc of 2 inputs and 1 output", "a gufunc (n),(n)->()", "a reduction".
std::string shape_of(const OpDesc& d) {
  auto count = [](int n, const char* what) {
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
  };
  if (d.layout) return std::string("a ") + name(d.kind) + " " + d.layout->str();
  if (d.kind == OpKind::reduce) return "a reduction of " + count(d.nout, "output");
  return std::string("a ") + name(d.kind) + " of " + count(d.nin, "input") + " and " +
         count(d.nout, "output");
}

template <class Source>
std::string foreign_loops_message(const Source& src, const char* what, const std::string& name,
                                  const std::string& first, const std::string& libs,
                                  const std::string& loops) {
  if (!src.program.empty()) {
    return src.who() + " adds " + loops + " to " + what + " '" + name + "', " +
           belongs(first, libs) +
           "; only the plugin or program that defined an op or kernel may add loops to it: give "
           "yours another name; nothing was defined";
  }
  return "plugin " + src.label + " (plugin '" + src.owner + "') adds " + loops + " to " + what +
         " '" + name + "', " + belongs(first, libs) +
         "; only builds of the plugin that defined it may add loops; the plugin is refused";
}

// The registry's kernels after adding a plugin's: the same rules as ops.
template <class Source>
std::vector<std::shared_ptr<const KernelDesc>> merge_kernels(
    const std::map<std::string, std::shared_ptr<const KernelDesc>>& have,
    const std::map<std::string, std::string>& owners, Registrar& staged, const Source& src) {
  const std::string& plugin = src.label;
  const std::string& owner = src.owner;
  const int fam = static_cast<int>(staged.family());
  std::vector<std::shared_ptr<const KernelDesc>> merged;
  for (auto& d : staged.staged_kernels()) {
    auto it = have.find(d.name);
    if (it == have.end()) {
      d.plugins = plugin;
      merged.push_back(std::make_shared<const KernelDesc>(d));
      continue;
    }
    KernelDesc next = *it->second;
    add_source(next.plugins, plugin);
    const auto own = owners.find(d.name);
    const std::string& first = own == owners.end() ? it->second->plugins : own->second;
    std::string foreign;  // overloads this library adds to another plugin's kernel
    for (const auto& o : d.overloads) {
      KernelOverload* match = nullptr;
      for (auto& no : next.overloads) {
        if (no.signature() == o.signature()) match = &no;
      }
      if (match && match->impl[fam].present()) {
        throw PluginError(src.who() + " registers kernel '" + d.name + "' " + o.signature() +
                          " for family " + name(staged.family()) + ", already registered by " +
                          it->second->plugins + "; " + src.verdict());
      }
      if (match && match->uses_syncthreads != o.uses_syncthreads) {
        throw PluginError(src.who() + " registers kernel '" + d.name + "' " + o.signature() +
                          " with uses_syncthreads=" + (o.uses_syncthreads ? "true" : "false") +
                          ", unlike " + it->second->plugins + "; " + src.verdict());
      }
      if (first != owner) foreign += (foreign.empty() ? "" : ", ") + o.signature();
      if (match) {
        match->impl[fam] = o.impl[fam];
      } else {
        next.overloads.push_back(o);
      }
    }
    if (!foreign.empty()) {
      throw PluginError(
          foreign_loops_message(src, "kernel", d.name, first, it->second->plugins, foreign));
    }
    merged.push_back(std::make_shared<const KernelDesc>(std::move(next)));
  }
  return merged;
}

}  // namespace

void Registry::merge(Registrar& staged, const std::string& plugin, const std::string& owner) {
  merge_from(staged, Source{plugin, owner.empty() ? plugin : owner, {}});
}

void Registry::merge_program(Registrar& staged, const std::string& owner) {
  merge_from(staged, Source{program_source(owner, staged.family()), program_key(owner), owner});
}

std::string Registry::program_source(const std::string& owner, Family family) {
  return owner + " (defined by the program, " + name(family) + ")";
}

void Registry::merge_from(Registrar& staged, const Source& src) {
  const int fam = static_cast<int>(staged.family());
  const std::string& plugin = src.label;
  const std::string& owner = src.owner;
  std::unique_lock lock(mutex_);
  const auto merged_kernels = merge_kernels(kernels_, kernel_owners_, staged, src);
  std::vector<std::shared_ptr<const OpDesc>> merged;
  for (auto& d : staged.staged()) {
    auto it = ops_.find(d.name);
    if (it == ops_.end()) {
      d.plugins = plugin;
      d.cache = std::make_shared<OpDesc::Cache>();
      merged.push_back(std::make_shared<const OpDesc>(d));
      continue;
    }
    const OpDesc& old = *it->second;
    if (old.kind != d.kind || old.nin != d.nin || old.nout != d.nout ||
        (old.layout ? old.layout->str() : "") != (d.layout ? d.layout->str() : "")) {
      throw PluginError(src.who() + " registers op '" + d.name + "' as " + shape_of(d) +
                        ", unlike the one from " + old.plugins + " (" + shape_of(old) + "); " +
                        src.verdict());
    }
    // Both families must reduce the same way, or cpu and cuda would answer differently.
    if (old.identity != d.identity || old.reorderable != d.reorderable) {
      throw PluginError(src.who() + " declares op '" + d.name +
                        "' with another identity or reorderability than " + old.plugins +
                        " does; declare the same ReduceTraits in every build of the op" +
                        (src.program.empty() ? "" : "; " + src.verdict()));
    }
    OpDesc next = old;
    next.cache = std::make_shared<OpDesc::Cache>();
    add_source(next.plugins, plugin);
    const auto own = op_owners_.find(d.name);
    const std::string& first = own == op_owners_.end() ? old.plugins : own->second;
    std::string foreign;  // loops this library adds to another plugin's op
    for (const auto& l : d.loops) {
      Loop* match = nullptr;
      for (auto& nl : next.loops) {
        if (nl.sig == l.sig) match = &nl;
      }
      if (match && match->impl[fam].present()) {
        throw PluginError(src.who() + " registers op '" + d.name + "' " + l.sig.str() +
                          " for family " + name(staged.family()) + ", already registered by " +
                          old.plugins + "; " + src.verdict());
      }
      if (first != owner) foreign += (foreign.empty() ? "" : ", ") + l.sig.str();
      if (match) {
        match->impl[fam] = l.impl[fam];
      } else {
        next.loops.push_back(l);
      }
    }
    if (!foreign.empty()) {
      throw PluginError(foreign_loops_message(src,
                                              d.kind == OpKind::reduce ? "reduction" : name(d.kind),
                                              d.name, first, old.plugins, foreign));
    }
    merged.push_back(std::make_shared<const OpDesc>(std::move(next)));
  }
  for (auto& m : merged) {  // nothing threw: apply the whole plugin
    if (!ops_.count(m->name)) op_owners_[m->name] = owner;
    ops_[m->name] = m;
  }
  for (auto& k : merged_kernels) {
    if (!kernels_.count(k->name)) kernel_owners_[k->name] = owner;
    kernels_[k->name] = k;
  }
}

std::shared_ptr<const OpDesc> Registry::find(const std::string& name) const {
  std::shared_lock lock(mutex_);
  auto it = ops_.find(name);
  return it == ops_.end() ? nullptr : it->second;
}

std::vector<std::shared_ptr<const OpDesc>> Registry::list() const {
  std::shared_lock lock(mutex_);
  std::vector<std::shared_ptr<const OpDesc>> out;
  for (const auto& [n, d] : ops_) out.push_back(d);
  return out;
}

}  // namespace loom

namespace loom {

std::shared_ptr<const KernelDesc> Registry::find_kernel(const std::string& name) const {
  std::shared_lock lock(mutex_);
  auto it = kernels_.find(name);
  return it == kernels_.end() ? nullptr : it->second;
}

std::vector<std::shared_ptr<const KernelDesc>> Registry::list_kernels() const {
  std::shared_lock lock(mutex_);
  std::vector<std::shared_ptr<const KernelDesc>> out;
  for (const auto& [n, d] : kernels_) out.push_back(d);
  return out;
}

}  // namespace loom
