// dist::Ufunc: a loom ufunc or gufunc run on every rank's rows (loom/dist/ufunc.hpp).
#include "loom/dist/ufunc.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "agree.hpp"
#include "loom/dist/error.hpp"
#include "state.hpp"

namespace loom::dist {

Ufunc::Ufunc(const Runtime& rt, const std::string& name) : rt_(&rt), u_(rt.ufunc(name)) {}

DistArray Ufunc::one(const std::vector<Operand>& inputs, const CallOptions& o) const {
  if (u_.desc().nout != 1) {
    throw ValueError("loom::dist::Ufunc('" + u_.desc().name + "') has " +
                     std::to_string(u_.desc().nout) + " outputs; call(...) returns them all");
  }
  return call(inputs, o)[0];
}

namespace {

// The core dims of argument i (0 for a ufunc).
int core_dims(const OpDesc& d, int i) {
  return d.layout ? d.layout->core_num_dims[static_cast<std::size_t>(i)] : 0;
}

// The operands as the ranks compare them: with `rt`, replicated ones with what they hold, so that a
// scalar that differs between ranks is a disagreement rather than each rank's own answer.
std::string list_str(const std::vector<Operand>& in, const Runtime* rt = nullptr) {
  std::string s;
  for (const auto& op : in) {
    if (!s.empty()) s += ", ";
    if (op.distributed()) {
      s += "distributed " + detail::describe(op.dist());
      continue;
    }
    s += "replicated " + detail::describe(op.replicated().dtype(), op.replicated().shape());
    if (rt && op.replicated().valid()) s += detail::describe_values(*rt, op.replicated());
  }
  return s;
}

}  // namespace

std::vector<DistArray> Ufunc::call(const std::vector<Operand>& inputs, const CallOptions& o) const {
  const OpDesc& d = u_.desc();
  const std::string what = "loom::dist::Ufunc('" + d.name + "')";
  // The communicator and this rank's target come from the first distributed operand.
  const DistArray* first = nullptr;
  for (const auto& op : inputs) {
    if (op.distributed()) {
      first = &op.dist();
      break;
    }
  }
  if (!first) {
    // No communicator to agree on: every rank sees this alike if it calls alike.
    throw ValueError(what + " got no distributed operand (" + list_str(inputs) +
                     "); call the loom::Ufunc itself on replicated arrays");
  }
  const Comm& comm = first->comm();
  detail::agree_on_call(
      comm, what,
      [&] {
        if (static_cast<int>(inputs.size()) != d.nin) {
          throw ValueError(what + " takes " + std::to_string(d.nin) + " inputs, got " +
                           std::to_string(inputs.size()));
        }
        std::vector<const DistArray*> dists;
        for (const auto& op : inputs) {
          if (op.distributed()) dists.push_back(&op.dist());
        }
        for (const auto& a : o.out) dists.push_back(&a);
        if (o.where) dists.push_back(&*o.where);
        for (const DistArray* a : dists) {
          if (!(a->comm() == comm)) {
            throw DistributionError(what +
                                    ": the operands live on different communicators; "
                                    "make them from one loom::dist::Comm");
          }
          if (a->target() != first->target()) {
            throw DistributionError(what + ": this rank's operands are on targets '" +
                                    first->target() + "' and '" + a->target() +
                                    "'; move them to one (scatter or from_local with the same "
                                    "target)");
          }
        }
        // Loop dims: axis 0 of every distributed input must be the call's first loop dim.
        int loop = 0;
        for (int i = 0; i < d.nin; ++i) {
          const int nd =
              inputs[i].distributed() ? inputs[i].dist().ndim() : inputs[i].replicated().ndim();
          loop = std::max(loop, nd - core_dims(d, i));
        }
        for (int i = 0; i < d.nin; ++i) {
          const auto& op = inputs[i];
          if (op.distributed()) {
            const int l = op.dist().ndim() - core_dims(d, i);
            if (l != loop || l < 1) {
              throw DistributionError(
                  what + ": input " + std::to_string(i) + " is distributed (" +
                  detail::describe(op.dist()) +
                  ") but its axis 0 is not the call's first loop "
                  "dim (the inputs are " +
                  list_str(inputs) + "); give every distributed input " +
                  "the call's full number of loop dims, and core dims only after them");
            }
            if (op.dist().shape()[0] != first->shape()[0]) {
              throw DistributionError(what + ": the distributed inputs have " +
                                      std::to_string(first->shape()[0]) + " and " +
                                      std::to_string(op.dist().shape()[0]) +
                                      " rows along axis 0 (" + list_str(inputs) +
                                      "), so the ranks hold different rows of them; give them the "
                                      "same length along axis 0");
            }
          } else if (!op.replicated().valid()) {
            throw ValueError(what + ": input " + std::to_string(i) +
                             " is empty (default-constructed)");
          } else if (op.replicated().ndim() - core_dims(d, i) == loop &&
                     op.replicated().shape()[0] != 1) {
            throw DistributionError(
                what + ": input " + std::to_string(i) + " is a replicated array of shape " +
                shape_str(op.replicated().shape()) +
                " that spans the distributed axis 0 (the "
                "inputs are " +
                list_str(inputs) +
                "); distribute it (loom::dist::scatter or "
                "from_local) or give it fewer dims so that it broadcasts along the rows");
          }
        }
        for (const auto& a : o.out) {
          if (a.shape()[0] != first->shape()[0]) {
            throw DistributionError(what + ": out= has " + std::to_string(a.shape()[0]) +
                                    " rows, the inputs " + std::to_string(first->shape()[0]) +
                                    "; give an out= distributed as the inputs");
          }
        }
        std::string s = d.name + "(" + list_str(inputs, rt_) + ")";
        for (const auto& a : o.out) s += " out " + detail::describe(a);
        if (o.where) s += " where " + detail::describe(*o.where);
        if (o.dtype) s += " dtype " + std::string(name(*o.dtype));
        if (!o.signature.empty()) s += " signature " + o.signature;
        if (o.casting != Casting::same_kind) s += " casting " + std::string(name(o.casting));
        if (o.index_base != 0) s += " index_base " + std::to_string(o.index_base);
        return s;
      },
      "make the same call on every rank, with operands distributed over one communicator with the "
      "same global shapes (scatter or from_local them alike) and replicated operands equal on "
      "every rank");

  std::vector<loom::Array> results;
  detail::agree(comm, what, [&] {
    std::vector<loom::Array> local;
    for (const auto& op : inputs) {
      local.push_back(op.distributed() ? op.dist().local() : op.replicated());
    }
    loom::CallOptions lo{.target = first->target(),
                         .dtype = o.dtype,
                         .signature = o.signature,
                         .casting = o.casting};
    for (const auto& a : o.out) lo.out.push_back(a.local());
    if (o.where) lo.where = o.where->local();
    if (d.kind == OpKind::ufunc && d.takes_index()) {
      // A ufunc that draws (loom::ElementIndex): this rank's rows start at its first global row
      // of the result, so every rank count draws what one process draws.
      std::vector<Shape> shapes;
      for (const auto& a : local) shapes.push_back(a.shape());
      for (const auto& a : lo.out) shapes.push_back(a.shape());
      if (lo.where) shapes.push_back(lo.where->shape());
      const Shape shape = broadcast_shapes(shapes);
      std::int64_t row = 1;
      for (std::size_t k = 1; k < shape.size(); ++k) row *= shape[k];
      lo.index_base = o.index_base + first->rows().begin * row;
    } else {
      lo.index_base = o.index_base;
    }
    results = u_.call(local, lo);
    for (auto& r : results) {
      if (r.ndim() == 0 || r.shape()[0] != first->rows().size()) {
        throw DistributionError(what + ": this rank's output " + r.str() + " does not keep the " +
                                std::to_string(first->rows().size()) + " rows of its inputs");
      }
    }
  });
  std::vector<DistArray> out;
  for (std::size_t k = 0; k < results.size(); ++k) {
    if (k < o.out.size()) {
      out.push_back(o.out[k]);
      continue;
    }
    Shape global = results[k].shape();
    global[0] = first->shape()[0];
    out.push_back(detail::make(comm, global, results[k].dtype(), first->target(),
                               detail::contiguous(*rt_, results[k])));
  }
  return out;
}

}  // namespace loom::dist
