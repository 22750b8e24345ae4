// loom-info's readable report (loom/info.hpp): where loom looked, what it loaded or refused, which
// targets can run here (and why not), and every operation with its signatures. In libloom rather
// than in loom-info so that a program can list its own definitions (Runtime::define) the same way.
#include <algorithm>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "loom/error.hpp"
#include "loom/info.hpp"

namespace loom {

namespace {

template <class D>
std::vector<std::string> targets_of(const Runtime& rt, const D& d) {
  std::vector<std::string> out;
  for (const auto& t : rt.targets()) {
    if (!t.available) continue;
    try {
      if (d.has_family(rt.resolve_target(t.target).first->family())) out.push_back(t.target);
    } catch (const Error&) {
      // Listed as available but not resolvable: leave it out rather than fail the listing.
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> op_targets(const Runtime& rt, const OpDesc& op) {
  return targets_of(rt, op);
}
std::vector<std::string> kernel_targets(const Runtime& rt, const KernelDesc& k) {
  return targets_of(rt, k);
}

std::vector<std::string> hand_written_loops(const OpDesc& op) {
  std::vector<std::string> out;
  for (const auto& l : op.loops) {
    for (Family f : {Family::host, Family::cuda}) {
      const char* h = l.impl[static_cast<int>(f)].hand_written;
      if (h) out.push_back(l.sig.str() + " [" + name(f) + "]: " + h);
    }
  }
  return out;
}

namespace {

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) out += sep;
    out += v[i];
  }
  return out;
}

std::string arity(const OpDesc& op) {
  if (op.kind == OpKind::reduce) return "binary op";
  return std::to_string(op.nin) + " in, " + std::to_string(op.nout) + " out";
}

std::string extra(const OpDesc& op) {
  if (op.layout) return "layout " + op.layout->str();
  // Reductions and binary ufuncs (their reduce / accumulate / at methods): NumPy's declarations.
  if (op.kind == OpKind::reduce || (op.nin == 2 && op.nout == 1)) {
    std::ostringstream s;
    if (op.identity) {
      s << "identity " << *op.identity;
    } else {
      s << (op.reorderable ? "reorderable, no identity" : "in order, no identity");
    }
    return s.str();
  }
  return "";
}

void print_libraries(const Runtime& rt, std::ostream& os) {
  const auto libs = rt.libraries();
  os << "Libraries (" << libs.size() << ")\n";
  if (libs.empty()) os << "  none found: set LOOM_PLUGIN_PATH or install plugins beside libloom\n";
  std::size_t w = 6;
  for (const auto& l : libs) w = std::max(w, l.name.size());
  for (const auto& l : libs) {
    // A refused library's family is unknown (it was never asked), so none is shown.
    os << "  " << std::left << std::setw(8) << (l.ok ? "ok" : "REFUSED") << std::setw(6)
       << (l.ok ? name(l.family) : "-") << std::setw(static_cast<int>(w) + 2) << l.name
       << (l.program ? "(defined by the program) " : "") << l.path << "\n";
    if (!l.ok) os << "          error: " << l.error << "\n";
  }
}

void print_targets(const Runtime& rt, std::ostream& os) {
  os << "Targets (default: " << rt.default_target() << ")\n";
  for (const auto& t : rt.targets()) {
    os << "  " << std::left << std::setw(10) << t.target << std::setw(8)
       << (t.backend.empty() ? "-" : t.backend) << std::setw(13)
       << (t.available ? "available" : "unavailable");
    if (t.available) {
      os << t.details;
    } else {
      os << t.reason;
    }
    os << "\n";
    // The collectives that combine a device set's partials on its devices (docs/multi-gpu.md).
    if (Collectives* c = rt.collectives(t.target)) {
      const Availability a = c->availability();
      os << "  " << std::string(10, ' ') << "collectives " << c->name() << ": "
         << (a.ok ? "available" : "unavailable, " + a.reason) << "\n";
    }
  }
}

void print_ops(const Runtime& rt, std::ostream& os) {
  const auto ops = rt.registry().list();
  os << "Operations (" << ops.size() << ")\n";
  std::size_t w = 4, we = 0;
  for (const auto& op : ops) {
    w = std::max(w, op->name.size());
    we = std::max(we, extra(*op).size());
  }
  const std::string indent(4 + w + 2, ' ');
  for (const auto& op : ops) {
    std::vector<std::string> fams;
    for (Family f : {Family::host, Family::cuda}) {
      if (op->has_family(f)) fams.push_back(name(f));
    }
    const auto targets = op_targets(rt, *op);
    os << "  " << std::left << std::setw(static_cast<int>(w) + 2) << op->name << std::setw(8)
       << name(op->kind) << std::setw(12) << arity(*op) << std::setw(static_cast<int>(we) + 2)
       << extra(*op) << "loops: " << join(fams, "+")
       << "  targets: " << (targets.empty() ? "none available" : join(targets, ",")) << "  from "
       << op->plugins << "\n";
    if (!op->doc.empty()) os << indent << op->doc << "\n";
    std::vector<std::string> sigs;
    for (const auto& loop : op->loops) sigs.push_back(loop.sig.str());
    os << indent << join(sigs, "  ") << "\n";
    for (const auto& h : hand_written_loops(*op)) os << indent << "hand-written: " << h << "\n";
  }
}

void print_kernels(const Runtime& rt, std::ostream& os) {
  const auto ks = rt.registry().list_kernels();
  os << "Kernels (" << ks.size() << ")\n";
  for (const auto& k : ks) {
    std::vector<std::string> fams;
    for (Family f : {Family::host, Family::cuda}) {
      if (k->has_family(f)) fams.push_back(name(f));
    }
    bool sync = false;
    for (const auto& o : k->overloads) sync = sync || o.uses_syncthreads;
    const auto targets = kernel_targets(rt, *k);
    os << "  " << k->name << "  loops: " << join(fams, "+")
       << "  targets: " << (targets.empty() ? "none available" : join(targets, ","))
       << (sync ? "  uses syncthreads" : "") << "  from " << k->plugins << "\n";
    if (!k->doc.empty()) os << "      " << k->doc << "\n";
    for (const auto& o : k->overloads) os << "      " << k->name << o.signature() << "\n";
  }
}

}  // namespace

void print_info(const Runtime& rt, std::ostream& os) {
  os << "Search path (LOOM_PLUGIN_PATH, then beside libloom)\n";
  const auto path = rt.search_path();
  for (std::size_t i = 0; i < path.size(); ++i) os << "  " << i + 1 << ". " << path[i] << "\n";
  // What the search passed over: without these, a mistyped folder or a misnamed library only
  // shows as an op that is not there.
  if (const auto notices = rt.search_notices(); !notices.empty()) {
    os << "\nSearch path notices (" << notices.size() << ")\n";
    for (const auto& n : notices) os << "  " << n.message << "\n";
  }
  os << "\n";
  print_libraries(rt, os);
  os << "\n";
  print_targets(rt, os);
  os << "\n";
  print_ops(rt, os);
  os << "\n";
  print_kernels(rt, os);
}

}  // namespace loom
