// Calls on sharded arrays (docs/multi-gpu.md): each device of the set runs the call on its own
// shards as an ordinary one-device call (device arrays: queued, not waited for); the operands must
// be sharded alike, which is checked on every operand before any device starts.
#include <optional>
#include <string>
#include <vector>

#include "calls/methods_common.hpp"
#include "loom/error.hpp"
#include "runtime/device_set.hpp"

namespace loom {
namespace detail {

namespace {

std::string devices_of(const ShardedArray& a) {
  std::string s;
  for (int i = 0; i < a.count(); ++i) s += (i ? "," : "") + a.target(i);
  return s;
}

bool is_float_kind(DType t) { return kind(t) == Kind::floating || kind(t) == Kind::complex; }

// Combines the partials into partial[0] on the devices when `how` and the op allow it (see
// Combine); false: the caller combines them on the host in device order.
// part_shard[i]: the shard partial[i] was made from.
bool combine_on_devices(const Runtime& rt, const OpDesc& op, const ShardedArray& x,
                        const std::vector<Array>& partial, const std::vector<int>& part_shard,
                        Combine how) {
  if (how == Combine::fixed_order) return false;
  const DType t = partial[0].dtype();
  Backend* backend = rt.resolve_target(x.target(0)).first;
  Collectives* coll = rt.collectives(backend->target());
  const auto cop = collective_op_for(op.name, t);
  std::string why;
  if (!coll) {
    why = "no collectives library is loaded for '" + backend->target() +
          "' (libloom_nccl.so, built where NCCL is found; Runtime::libraries() says if it was "
          "refused)";
  } else if (const Availability a = coll->availability(); !a.ok) {
    why = coll->name() + " is unavailable: " + a.reason;
  } else if (!cop) {
    why = "'" + op.name + "' has no collective counterpart (the devices combine sum, prod, max, " +
          "min, any and all, and the ufuncs add, multiply, maximum, minimum, logical_or, " +
          "logical_and)";
  } else if (is_float_kind(t) && (*cop == CollectiveOp::max || *cop == CollectiveOp::min)) {
    why = std::string(name(*cop)) + " of " + std::string(name(t)) +
          " on the devices would not keep NumPy's " +
          "NaN rule (the fixed order gives the same bits for max and min anyway)";
  } else if (std::string u = coll->unsupported(t, *cop); !u.empty()) {
    why = coll->name() + " cannot reduce these partials: " + u;
  }
  if (how == Combine::collective && !why.empty()) {
    throw ValueError("reduction '" + op.name + "' of " + x.str() + " with Combine::collective: " +
                     why + "; use Combine::fixed_order or Combine::automatic");
  }
  // automatic: only where every order gives the same bits (integers and bools).
  if (!why.empty() || (how == Combine::automatic && is_float_kind(t))) return false;
  std::vector<void*> bufs;
  std::vector<int> devices;
  for (std::size_t i = 0; i < partial.size(); ++i) {
    if (!partial[i].is_c_contiguous()) return false;  // a fresh result is; the host then combines
    bufs.push_back(partial[i].data());
    devices.push_back(rt.resolve_target(x.target(part_shard[i])).second);
  }
  coll->reduce(bufs, devices, partial[0].size(), t, *cop);
  return true;
}

}  // namespace

ShardedArray sharded_call(const OpDesc& op, std::span<const ShardArg> args, const CallOptions& o,
                          const OneDeviceCall& one) {
  const std::string who = std::string(name(op.kind)) + " '" + op.name + "'";
  if (!o.target.empty() || !o.out.empty() || o.where || o.stream.valid() || !o.axes.empty() ||
      o.axis) {
    throw ValueError(who + " on sharded arrays: target=, out=, where=, stream=, axes= and axis= " +
                     "are not taken (the shards' devices are the targets; results are new " +
                     "sharded arrays); dtype=, signature=, casting= and keepdims= are");
  }
  if (op.nout != 1) {
    throw ValueError(who + " has " + std::to_string(op.nout) + " outputs; a call on sharded " +
                     "arrays takes ops with one output (call each device's shards with .call)");
  }
  // The first sharded operand sets the devices; a split one, the rows.
  const ShardedArray* first = nullptr;
  const ShardedArray* split = nullptr;
  int split_arg = -1, rank = 0;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const int core = op.layout && static_cast<int>(i) < op.nin
                         ? op.layout->core_num_dims[static_cast<int>(i)]
                         : 0;
    const int nd = args[i].s ? args[i].s->ndim() : args[i].a->ndim();
    rank = std::max(rank, nd - core);
    if (!args[i].s) continue;
    if (!args[i].s->valid()) throw ValueError(who + " got an empty ShardedArray");
    if (!first) first = args[i].s;
    if (!split && args[i].s->sharding() == Sharding::split) split = args[i].s, split_arg = int(i);
  }
  for (std::size_t i = 0; i < args.size(); ++i) {
    const ShardedArray* s = args[i].s;
    if (!s) continue;
    const std::string arg = "argument " + std::to_string(i);
    if (devices_of(*s) != devices_of(*first)) {
      throw ValueError(who + ": mixed shardings: " + arg + " is on " + devices_of(*s) +
                       " but an earlier argument on " + devices_of(*first) +
                       "; put both on one device set with rt.to_devices(x, set)");
    }
    if (s->sharding() != Sharding::split) continue;
    const int core = op.layout && static_cast<int>(i) < op.nin
                         ? op.layout->core_num_dims[static_cast<int>(i)]
                         : 0;
    if (s->shape()[0] != split->shape()[0]) {
      throw ValueError(who + ": mixed shardings: " + arg + " has " + std::to_string(s->shape()[0]) +
                       " rows split over the devices, argument " + std::to_string(split_arg) + " " +
                       std::to_string(split->shape()[0]) +
                       "; their rows must match (or replicate the one that broadcasts: " +
                       "Sharding::replicated)");
    }
    if (s->ndim() - core != rank) {
      throw ValueError(who + ": " + arg + " (" + s->str() + ") is split along axis 0, which is " +
                       "not the call's first loop dim (the call has " + std::to_string(rank) +
                       " loop dims; it has " + std::to_string(s->ndim() - core) +
                       "); replicate it (Sharding::replicated)");
    }
  }
  const int k = first->count();
  std::vector<Array> outs(k);
  std::int64_t index_base = o.index_base;  // shard d's first element in the whole result
  for (int d = 0; d < k; ++d) {            // device arrays: each call queues its work and returns
    std::vector<Array> in;
    for (const auto& a : args) in.push_back(a.s ? a.s->shard(d) : *a.a);
    CallOptions od = o;
    od.target = first->target(d);
    od.index_base = index_base;
    try {
      outs[d] = one(in, od);
    } catch (const IndexError& e) {  // a checked gufunc's instance counts within the shard
      throw IndexError(who + " on shard " + std::to_string(d) + " (" + od.target +
                       "): " + e.what());
    }
    // Split shards are consecutive rows of the result; replicated ones each compute all of it.
    if (split) index_base += outs[d].size();
  }
  Shape shape = outs[0].shape();
  if (split) {
    shape[0] = 0;
    for (const auto& a : outs) shape[0] += a.shape()[0];
  }
  std::vector<std::string> targets;
  for (int d = 0; d < k; ++d) targets.push_back(first->target(d));
  return ShardedArray(first->set(), std::move(targets), std::move(outs), shape,
                      split ? Sharding::split : Sharding::replicated);
}

Array sharded_reduce(const Runtime& rt, const OpDesc& op, const ShardedArray& x,
                     const ReduceOptions& o, bool default_all) {
  const std::string who = "reduction '" + op.name + "'";
  if (!x.valid()) throw ValueError(who + " got an empty ShardedArray");
  if (!o.target.empty() || o.where || o.stream.valid() || (o.out && !o.out->device().is_host())) {
    throw ValueError(who + " on a sharded array: target=, where= and stream= are not taken, and " +
                     "out= must be a host array (the result is one)");
  }
  ReduceOptions first = o;
  first.target = x.target(0);
  if (x.sharding() == Sharding::replicated) {  // every device has it whole: reduce one copy
    first.out.reset();
    Array r = rt.to_host(run_reduction(rt, op, x.shard(0), first, default_all));
    if (!o.out) return r;
    rt.copy_to(r, *o.out);
    return *o.out;
  }
  const int nd = x.ndim();
  bool axis0 = !o.axis.given() || o.axis.all();
  for (int a : o.axis.given() && !o.axis.all() ? o.axis.list() : std::vector<int>{}) {
    axis0 = axis0 || a == 0 || a == -nd;
  }
  if (!axis0) {
    throw ValueError(who + " of " + x.str() + " over axes without axis 0: each shard's result " +
                     "is its own; reduce each shard (x.shard(i)) on its device (x.target(i))");
  }
  if (!op.reorderable) {
    throw ValueError(who + " is not reorderable, so the shards of " + x.str() +
                     " cannot be combined along axis 0; to_host the array and reduce it");
  }
  const int k = x.count();
  std::vector<Array> partial;
  std::vector<int> part_shard;
  for (int d = 0; d < k; ++d) {  // queued on every device first, then brought back
    if (x.shard(d).shape()[0] == 0) continue;
    ReduceOptions pd = o;
    pd.target = x.target(d);
    pd.keepdims = true;
    pd.out.reset();
    if (!pd.dtype && o.out) pd.dtype = o.out->dtype();
    if (op.identity) pd.initial = Initial{};
    partial.push_back(run_reduction(rt, op, x.shard(d), pd, default_all));
    part_shard.push_back(d);
  }
  if (partial.empty()) {  // no rows anywhere: the empty reduction of the first device's shard
    return rt.to_host(run_reduction(rt, op, x.shard(0), first, default_all));
  }
  ReduceOptions co = o;
  co.target = "cpu";
  co.dtype = partial[0].dtype();
  if (combine_on_devices(rt, op, x, partial, part_shard, o.combine)) {
    // partial[0] holds the devices' combination; the host adds initial= and applies out= as the
    // fixed-order combine would, over one row.
    return run_reduction(rt, op, rt.to_host(partial[0]), co, default_all);
  }
  Shape stacked_shape = partial[0].shape();
  stacked_shape[0] = static_cast<std::int64_t>(partial.size());
  Array stacked = empty(stacked_shape, partial[0].dtype());
  for (std::size_t d = 0; d < partial.size(); ++d) {
    const auto i = static_cast<std::int64_t>(d);
    rt.copy_to(rt.to_host(partial[d]), stacked.slice(0, i, i + 1));
  }
  return run_reduction(rt, op, stacked, co, default_all);
}

}  // namespace detail

namespace {
ShardedArray sharded(const Ufunc& u, std::initializer_list<detail::ShardArg> args,
                     const CallOptions& o, const detail::OneDeviceCall& one) {
  return detail::sharded_call(u.desc(),
                              std::span<const detail::ShardArg>(args.begin(), args.size()), o, one);
}
}  // namespace

ShardedArray Ufunc::operator()(const ShardedArray& a, const CallOptions& o) const {
  return sharded(*this, {{&a, nullptr}}, o,
                 [this](auto in, const auto& od) { return run(in, od)[0]; });
}
ShardedArray Ufunc::operator()(const ShardedArray& a, const ShardedArray& b,
                               const CallOptions& o) const {
  return sharded(*this, {{&a, nullptr}, {&b, nullptr}}, o,
                 [this](auto in, const auto& od) { return run(in, od)[0]; });
}
ShardedArray Ufunc::operator()(const ShardedArray& a, const Array& b, const CallOptions& o) const {
  return sharded(*this, {{&a, nullptr}, {nullptr, &b}}, o,
                 [this](auto in, const auto& od) { return run(in, od)[0]; });
}
ShardedArray Ufunc::operator()(const ShardedArray& a, const ShardedArray& b, const ShardedArray& c,
                               const CallOptions& o) const {
  return sharded(*this, {{&a, nullptr}, {&b, nullptr}, {&c, nullptr}}, o,
                 [this](auto in, const auto& od) { return run(in, od)[0]; });
}

Array Reduce::operator()(const ShardedArray& a, const ReduceOptions& o) const {
  std::shared_ptr<const OpDesc> keep;
  return detail::sharded_reduce(*rt_, rt_->current_op(desc_, gen_, o.target, keep), a, o,
                                /*default_all=*/true);
}

Array Ufunc::reduce(const ShardedArray& x, const ReduceOptions& o) const {
  std::shared_ptr<const OpDesc> keep;
  const OpDesc& op = rt_->current_op(desc_, gen_, o.target, keep);
  detail::require_binary(op, "reduce");
  return detail::sharded_reduce(*rt_, op, x, o, /*default_all=*/false);
}

}  // namespace loom
