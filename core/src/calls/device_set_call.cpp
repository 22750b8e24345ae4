// Calls on a device set (docs/multi-gpu.md): host arrays split by rows along the call's first loop
// dim, each device's rows run as an ordinary single-device call on a thread of its own (so each
// device streams its rows through its own pinned staging while the others do the same), results
// written in place into the caller's outputs. Reductions over axis 0 combine the devices'
// partials on the host in device order: the same bits on every run with the same device set.
#include <optional>
#include <string>
#include <vector>

#include "calls/methods_common.hpp"
#include "loom/aliasing.hpp"
#include "loom/error.hpp"
#include "runtime/device_set.hpp"

namespace loom::detail {
namespace {

struct Rows {
  std::int64_t lo, hi;
};

// n rows over k parts: ShardedArray::block's split (n / k each, the first n % k one more).
std::vector<Rows> row_blocks(std::int64_t n, int k) {
  std::vector<Rows> r;
  for (int i = 0; i < k; ++i) {
    const auto [lo, hi] = ShardedArray::block(n, k, i);
    r.push_back({lo, hi});
  }
  return r;
}

void require_host(const Array& a, const std::string& who, const std::string& set,
                  const std::string& label) {
  if (!a.valid() || a.device().is_host()) return;  // an empty Array: the part call says so
  throw DeviceError(who + " on the device set '" + set + "': " + label + " is " + a.str() +
                    "; a device set splits host arrays by rows (move it with Runtime::to_host), " +
                    "or run on its one device");
}

// Which operands are split by rows: those whose loop dims reach the call's full loop rank with
// more than one row; the others (fewer loop dims, or one row) broadcast and go whole to every
// device. n: the rows, 0 when there is nothing to split (no loop dim, disagreeing extents).
struct SplitPlan {
  std::int64_t n = 0;
  std::vector<bool> split;
};

SplitPlan plan_split(std::span<const Array* const> ops, std::span<const int> core) {
  SplitPlan p;
  int rank = 0;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    if (!ops[i]->valid()) return p;
    rank = std::max(rank, ops[i]->ndim() - core[i]);
  }
  std::int64_t n = 1;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const bool full = rank > 0 && ops[i]->ndim() - core[i] == rank;
    const std::int64_t rows = full ? ops[i]->shape()[0] : 1;
    if (rows != 1) {
      if (n != 1 && n != rows) return p;  // not broadcastable: the whole call reports it
      n = rows;
    }
  }
  p.n = n;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    p.split.push_back(n > 1 && ops[i]->ndim() - core[i] == rank && ops[i]->shape()[0] == n);
  }
  return p;
}

Array rows_of(const Array& a, bool split, Rows r) { return split ? a.slice(0, r.lo, r.hi) : a; }

}  // namespace

void refuse_stream(const Stream& s, const std::string& who, const std::string& set) {
  if (!s.valid()) return;
  throw ValueError(who + " on the device set '" + set + "': a Stream belongs to one device (this " +
                   "one to device " + std::to_string(s.device()) +
                   "); a device-set call uses each device's default stream");
}

SmallVec<Array, 4> device_set_call(const Runtime& rt, const OpDesc& op,
                                   std::span<const Array> inputs, const CallOptions& o,
                                   PartCall part) {
  const std::string who = std::string(name(op.kind)) + " '" + op.name + "'";
  const std::vector<std::string> targets = rt.device_targets(o.target);
  refuse_stream(o.stream, who, o.target);
  if (op.kind == OpKind::gufunc && (o.checked || rt.checked_launches())) {
    // Each device's part would report instances of its own rows (and need a record of its own).
    throw ValueError(who + " on the device set '" + o.target + "': checked gufunc calls (" +
                     (o.checked ? std::string("CallOptions::checked") : "LOOM_CHECKED=1") +
                     ") run on one target; call it on one device of the set (" + targets.at(0) +
                     ") to check it");
  }
  if (op.kind == OpKind::gufunc && (!o.axes.empty() || o.axis)) {
    throw ValueError(who + " on the device set '" + o.target + "': axes= and axis= are not " +
                     "supported with a device set, which splits axis 0 (move the core dims last " +
                     "with transpose, or run on one device)");
  }
  std::vector<Array> in(inputs.begin(), inputs.end());
  for (std::size_t i = 0; i < in.size(); ++i) {
    require_host(in[i], who, o.target, "argument " + std::to_string(i));
  }
  for (std::size_t k = 0; k < o.out.size(); ++k) {
    require_host(o.out[k], who, o.target, "out= array " + std::to_string(k));
  }
  if (o.where) require_host(*o.where, who, o.target, "where=");

  // An out= that overlaps an input other than element for element would be read by one device
  // after another wrote it: such inputs are copied first (the single-device call's own rule).
  for (auto& a : in) {
    for (const auto& out : o.out) {
      if (a.valid() && out.valid() && may_share_memory(a, out) && !same_elements(a, out)) {
        a = a.copy();
        break;
      }
    }
  }
  std::vector<const Array*> ops;
  std::vector<int> core;
  const int nops = op.nin + op.nout;
  for (int i = 0; i < static_cast<int>(in.size()); ++i) {
    ops.push_back(&in[i]);
    core.push_back(op.layout && i < nops ? op.layout->core_num_dims[i] : 0);
  }
  for (int k = 0; k < static_cast<int>(o.out.size()); ++k) {
    ops.push_back(&o.out[k]);
    core.push_back(op.layout && op.nin + k < nops ? op.layout->core_num_dims[op.nin + k] : 0);
  }
  if (o.where) ops.push_back(&*o.where), core.push_back(0);
  const SplitPlan plan = plan_split(ops, core);
  const int k = static_cast<int>(std::min<std::int64_t>(targets.size(), plan.n));

  CallOptions po = o;
  if (k <= 1) {  // nothing to split: the whole call on the set's first device
    po.target = targets[0];
    return part(rt, op, in, po);
  }
  const std::size_t nin = in.size(), nout = o.out.size();
  auto split_of = [&](std::size_t i) { return static_cast<bool>(plan.split[i]); };

  // The outputs: the caller's, or allocated from a call on no rows, which checks the call (types,
  // casting, core dims) on the first device and gives the outputs' dtypes and trailing dims.
  std::vector<Array> probe_in;
  const Rows none{0, 0};
  for (std::size_t i = 0; i < nin; ++i) probe_in.push_back(rows_of(in[i], split_of(i), none));
  po.target = targets[0];
  for (std::size_t j = 0; j < nout; ++j) po.out[j] = rows_of(o.out[j], split_of(nin + j), none);
  if (o.where) po.where = rows_of(*o.where, split_of(nin + nout), none);
  const SmallVec<Array, 4> probe = part(rt, op, probe_in, po);
  std::vector<Array> outs;
  for (std::size_t j = 0; j < probe.size(); ++j) {
    Shape full = probe[j].shape();
    if (full.empty()) {  // an output without the split loop dim: nothing to split after all
      po = o;
      po.target = targets[0];
      return part(rt, op, in, po);
    }
    full[0] = plan.n;
    if (j < nout) {  // its rows are n (the plan counted it) and the call on none took the rest
      outs.push_back(o.out[j]);
    } else {
      outs.push_back(empty(full, probe[j].dtype()));
    }
  }

  const std::vector<Rows> rows = row_blocks(plan.n, k);
  // A part's first element is row lo of the whole result: indexed ufuncs (loom::ElementIndex)
  // draw what one call on one device would.
  std::int64_t row_size = 1;
  for (std::size_t j = 1; j < outs[0].shape().size(); ++j) row_size *= outs[0].shape()[j];
  for_each_device(k, [&](int d) {
    CallOptions pd = o;
    pd.target = targets[d];
    pd.index_base = o.index_base + rows[d].lo * row_size;
    std::vector<Array> pin;
    for (std::size_t i = 0; i < nin; ++i) pin.push_back(rows_of(in[i], split_of(i), rows[d]));
    pd.out.clear();
    for (const auto& a : outs) pd.out.push_back(a.slice(0, rows[d].lo, rows[d].hi));
    if (o.where) pd.where = rows_of(*o.where, split_of(nin + nout), rows[d]);
    part(rt, op, pin, pd);
  });
  SmallVec<Array, 4> res;
  for (auto& a : outs) res.push_back(std::move(a));
  return res;
}

Array device_set_reduce(const Runtime& rt, const OpDesc& op, const Array& x, const ReduceOptions& o,
                        bool default_all) {
  const std::string who = "reduction '" + op.name + "'";
  const std::vector<std::string> targets = rt.device_targets(o.target);
  refuse_stream(o.stream, who, o.target);
  require_host(x, who, o.target, "the input");
  if (o.out) require_host(*o.out, who, o.target, "out=");
  if (o.where) require_host(*o.where, who, o.target, "where=");
  if (o.combine == Combine::collective) {
    throw ValueError(who + " on '" + o.target + "' with Combine::collective: a device set's " +
                     "reduction of a host array brings its partials to the host, which combines " +
                     "them; to combine them on the devices, reduce a sharded array " +
                     "(rt.to_devices(x, \"" + o.target + "\"))");
  }
  const int nd = x.valid() ? x.ndim() : 0;
  const std::int64_t n = nd > 0 ? x.shape()[0] : 0;
  const int k = static_cast<int>(std::min<std::int64_t>(targets.size(), n));
  ReduceOptions po = o;
  po.target = targets[0];
  // Nothing to split, an out= that the reduction reads, or one whose rows are not the input's
  // (its own error, from the whole call): the whole call on the set's first device.
  if (k <= 1 || (o.out && may_share_memory(x, *o.out)))
    return run_reduction(rt, op, x, po, default_all);
  bool axis0 = !o.axis.given() || o.axis.all();  // not given: every axis, or axis 0 (reduce)
  for (int a : o.axis.given() && !o.axis.all() ? o.axis.list() : std::vector<int>{}) {
    axis0 = axis0 || a == 0 || a == -nd;
  }
  const bool split_where =
      o.where && o.where->valid() && o.where->ndim() == nd && o.where->shape()[0] == n;
  const std::vector<Rows> rows = row_blocks(n, k);
  auto where_of = [&](Rows r) -> std::optional<Array> {
    if (!o.where) return std::nullopt;
    return split_where ? o.where->slice(0, r.lo, r.hi) : *o.where;
  };

  if (!axis0) {  // the rows stay apart: each device writes its rows of the result
    if (o.out && (o.out->ndim() == 0 || o.out->shape()[0] != n)) {
      return run_reduction(rt, op, x, po, default_all);
    }
    po.where = where_of({0, 0});
    if (o.out) po.out = o.out->slice(0, 0, 0);
    const Array probe = run_reduction(rt, op, x.slice(0, 0, 0), po, default_all);
    Shape full = probe.shape();
    full[0] = n;
    Array out = o.out ? *o.out : empty(full, probe.dtype());
    for_each_device(k, [&](int d) {
      ReduceOptions pd = o;
      pd.target = targets[d];
      pd.where = where_of(rows[d]);
      pd.out = out.slice(0, rows[d].lo, rows[d].hi);
      run_reduction(rt, op, x.slice(0, rows[d].lo, rows[d].hi), pd, default_all);
    });
    return out;
  }

  if (!op.reorderable) {
    throw ValueError(who + " is not reorderable, so it cannot be split over the devices of '" +
                     o.target + "' along axis 0; reduce on one device (" + targets[0] +
                     "), or over other axes");
  }
  // Each device's partial keeps its dims; initial= is counted once, in the combine (ops without an
  // identity, such as maximum, take it in every partial too, which repeats are harmless to).
  // The partials use the loop the whole call would: out='s dtype selects it where dtype= is not
  // given.
  std::vector<Array> partial(k);
  for_each_device(k, [&](int d) {
    ReduceOptions pd = o;
    pd.target = targets[d];
    pd.keepdims = true;
    pd.out.reset();
    pd.where = where_of(rows[d]);
    if (!pd.dtype && o.out) pd.dtype = o.out->dtype();
    if (op.identity) pd.initial = Initial{};
    partial[d] = run_reduction(rt, op, x.slice(0, rows[d].lo, rows[d].hi), pd, default_all);
  });
  Shape stacked_shape = partial[0].shape();
  stacked_shape[0] = k;
  Array stacked = empty(stacked_shape, partial[0].dtype());
  for (int d = 0; d < k; ++d) rt.copy_to(partial[d], stacked.slice(0, d, d + 1));
  ReduceOptions co = o;
  co.target = "cpu";
  co.where.reset();
  co.dtype = partial[0].dtype();
  return run_reduction(rt, op, stacked, co, default_all);
}

}  // namespace loom::detail
