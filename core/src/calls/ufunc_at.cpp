// Ufunc::at, NumPy's unbuffered in-place method: a[indices[j], ...] = op(a[indices[j], ...],
// b[j, ...]) once per j, on every target. Casting is NumPy's for at: b and the result are cast
// unsafely (np.add.at(int_array, i, 1.5) adds 1).
#include <algorithm>
#include <cstring>

#include "calls/methods_common.hpp"
#include "loom/aliasing.hpp"
#include "loom/exec.hpp"
#include "ops/pick_loop.hpp"

namespace loom {

namespace {

// Whether every value of `from` survives a trip through `to` and back: then a whole array can go
// through `to` and back unchanged (not uint8 through bool, nor int64 above 2^53 through float64).
bool round_trip_exact(DType from, DType to) {
  if (from == to || kind(from) == Kind::boolean) return true;
  if (!can_cast(from, to, Casting::safe)) return false;
  const Kind f = kind(from), t = kind(to);
  if ((f == Kind::signed_int || f == Kind::unsigned_int) &&
      (t == Kind::floating || t == Kind::complex)) {
    const std::size_t part = t == Kind::complex ? itemsize(to) / 2 : itemsize(to);
    const std::size_t digits = part == 2 ? 11 : part == 4 ? 24 : 53;  // significand bits
    return itemsize(from) * 8 <= digits;
  }
  return true;
}

}  // namespace

void Ufunc::at(const Array& a, const Array& indices, const Array& b, const AtOptions& o) const {
  std::shared_ptr<const OpDesc> keep;
  const OpDesc& op = rt_->current_op(desc_, gen_, o.target, keep);
  detail::require_binary(op, "at");
  const std::string who = "ufunc '" + op.name + "'.at";
  require_writeable(a, who, "the array a");
  require_no_self_overlap(a, who, "the array a");
  const Array* all[] = {&a, &indices, &b};
  const detail::Target t = detail::pick_target(*rt_, o.target, op, all, o.stream);
  if (a.ndim() == 0) throw ValueError(who + ": the array must have at least one dimension");
  const Kind ik = kind(indices.dtype());
  if (ik != Kind::signed_int && ik != Kind::unsigned_int) {
    throw TypeError(who + ": indices must be an integer array, got " +
                    std::string(name(indices.dtype())) +
                    " (NumPy: arrays used as indices must be of integer type)");
  }
  if (indices.ndim() > 1)
    throw ValueError(who + ": indices must be 0-d or 1-d, got " + indices.str());
  const std::int64_t n0 = a.shape()[0];
  auto out_of_bounds = [&](const std::string& i) {
    return IndexError(who + ": index " + i + " is out of bounds for axis 0 with size " +
                      std::to_string(n0));
  };
  // Device int64 indices that the updates can read where they are (contiguous, not sharing a's
  // memory). Where the updates go straight into a (the loop's dtype is a's, a in the call's
  // memory), the backend's index gate checks them on the device in front of the updates, which
  // run only if every index is in [0, rows): one wait, after both, instead of one between them.
  // Otherwise, or when the gate finds an index outside (negative ones included; nothing was
  // written), prepare() checks them.
  const bool dev_idx = t.on_device() && !indices.device().is_host() &&
                       indices.dtype() == DType::int64 && indices.is_c_contiguous() &&
                       !may_share_memory(indices, a);
  Array hidx;
  bool on_dev = false;
  auto prepare = [&] {
    // Device int64 indices of a device call stay there: the backend finds their range (16 bytes
    // read back instead of every index copied out and in); negative ones are fixed on the host.
    on_dev = dev_idx;
    if (on_dev) {
      const auto [lo, hi] =
          t.backend->index_range(reinterpret_cast<const std::int64_t*>(indices.data()),
                                 indices.size(), t.device, t.stream.native());
      if (indices.size() > 0 && (lo < -n0 || hi >= n0)) {  // name the first bad one, as NumPy
        const Array h = rt_->to_host(indices);
        const auto* p = reinterpret_cast<const std::int64_t*>(h.data());
        for (std::int64_t j = 0; j < h.size(); ++j) {
          if (p[j] < -n0 || p[j] >= n0) throw out_of_bounds(std::to_string(p[j]));
        }
      }
      on_dev = lo >= 0;
    }
    // Otherwise the indices as checked, non-negative int64 in one contiguous host array: the
    // caller's own array when it already is one (no copy), else a converted copy.
    hidx = on_dev ? indices : indices.device().is_host() ? indices : rt_->to_host(indices);
    if (!on_dev && ik == Kind::unsigned_int) {  // from 2^63 up they do not fit int64: out of bounds
      for (std::uint64_t u : hidx.to_vector<std::uint64_t>()) {
        if (u > static_cast<std::uint64_t>(INT64_MAX)) throw out_of_bounds(std::to_string(u));
      }
    }
    if (!on_dev &&
        (hidx.dtype() != DType::int64 || !hidx.is_c_contiguous() || may_share_memory(hidx, a))) {
      hidx = hidx.astype(DType::int64);  // a copy: also when the updates could change the indices
    }
    bool negative = false;
    if (!on_dev) {
      // The range first (split over a host backend's threads; a device backend's host-mode call
      // scans here); only when it is out of bounds, the first bad index in order, as NumPy names.
      const auto* p = reinterpret_cast<const std::int64_t*>(hidx.data());
      const std::int64_t m = hidx.size();
      const auto [lo, hi] =
          t.on_device() ? host_index_range(p, m) : t.backend->index_range(p, m, t.device, nullptr);
      if (m > 0 && (lo < -n0 || hi >= n0)) {
        for (std::int64_t j = 0; j < m; ++j) {
          if (p[j] < -n0 || p[j] >= n0) throw out_of_bounds(std::to_string(p[j]));
        }
      }
      negative = m > 0 && lo < 0;
    }
    if (negative) {
      hidx = hidx.copy();
      auto* p = reinterpret_cast<std::int64_t*>(hidx.data());
      for (std::int64_t j = 0, m = hidx.size(); j < m; ++j) p[j] += p[j] < 0 ? n0 : 0;
    }
  };
  // NumPy resolves the loop from a's and b's dtypes and casts each update's result back into a.
  // Its at takes b through np.asarray, so a Python scalar is a strong int64 or float64 there, not
  // a weak one: np.add.at(uint64 [2^63 + 3], [0], 4) runs the float64 loop and stores 2^63.
  auto resolve = [&]() -> const Loop& {
    const DType bt = b.weak() && kind(b.dtype()) != Kind::floating ? DType::int64 : b.dtype();
    const Array probes[2] = {empty({}, a.dtype()), empty({}, bt)};
    const DType resolved =
        detail::pick_loop(op, t.family, probes, std::nullopt, "", Casting::same_kind)
            .sig.outputs[0];
    return detail::pick_reduce_loop(op, t.family, a.dtype(), resolved, who);
  };
  // a is in the call's memory, and the loop's dtype is a's (tried here without raising: a
  // refusal is raised below, after the index checks, as without the gate).
  const bool here = a.device().is_host() != t.on_device();
  const Loop* early = nullptr;  // the loop when tried here, not resolved twice
  auto straight_into_a = [&] {
    try {
      early = &resolve();
      return here && early->sig.outputs[0] == a.dtype();
    } catch (const Error&) {
      return false;
    }
  };
  const bool gate = dev_idx && a.size() > 0 && straight_into_a();
  if (gate) {
    hidx = indices;
  } else {
    prepare();
  }
  const std::int64_t m = hidx.size();
  Shape rest(a.shape().begin() + 1, a.shape().end());
  Shape bshape = rest;
  if (indices.ndim() == 1) bshape.insert(bshape.begin(), m);
  Array bb;
  try {
    bb = b.broadcast_to(bshape);
  } catch (const ShapeError&) {
    throw ShapeError(who + ": b of shape " + shape_str(b.shape()) +
                     " does not broadcast to the indexed shape " + shape_str(bshape));
  }
  const Loop& loop = early ? *early : resolve();
  const DType dt = loop.sig.outputs[0];
  const bool one = indices.ndim() == 0;  // a 0-d index: one update with b of a's trailing shape
  if (m == 0 || shape_size(rest) == 0) return;
  // Work on `w`: a itself when it is in the loop's dtype and the call's memory, else a copy that
  // is cast back into a afterwards. b is read before any update (a copy when it shares a's memory).
  Array w = a;
  if (a.dtype() != dt || !here) {
    w = a.device().is_host() ? a.astype(dt) : t.cast(a, dt);
    if (t.on_device()) w = t.to_device(w);
  }
  // The identity for host backends that start bins of their own from it.
  const bool has_identity = op.identity && op.reorderable && !t.on_device();
  const Array identity = has_identity ? detail::identity_value(op, dt, who) : Array();
  auto run = [&](const Array& idx, const Array& bin, std::int64_t count, bool scalar_index,
                 const unsigned* gate_verdict = nullptr) {
    Array didx = idx, db = bin;
    if (t.on_device()) didx = t.to_device(didx), db = t.to_device(db);
    AtCall c;
    c.a = w.data();
    c.a_step = w.strides()[0];
    c.idx = reinterpret_cast<const std::int64_t*>(didx.data());
    c.m = count;
    c.b = db.data();
    c.b_step = scalar_index ? 0 : db.strides()[0];
    c.rest = rest;
    c.a_rest_strides = Shape(w.strides().begin() + 1, w.strides().end());
    c.b_rest_strides = Shape(db.strides().begin() + (scalar_index ? 0 : 1), db.strides().end());
    c.loop = &loop.impl[static_cast<int>(t.family)];
    c.dtype = dt;
    c.reorderable = op.reorderable;
    c.rows = n0;
    c.identity = has_identity ? identity.data() : nullptr;
    c.gate = gate_verdict;
    c.stream = t.stream.native();
    t.backend->run_at(c, t.device);
  };
  if (dt == a.dtype()) {
    Array bin = t.cast(bb, dt);
    if (may_share_memory(bin, a)) {
      const Array c = t.rt->empty_like(bin);
      t.copy(bin, c);
      bin = c;
    }
    if (gate) {
      // The updates queued behind the device check of their indices: one wait for both.
      unsigned* verdict = t.backend->begin_index_gate(
          reinterpret_cast<const std::int64_t*>(hidx.data()), m, n0, t.device, t.stream.native());
      try {
        run(hidx, bin, m, one, verdict);
      } catch (...) {
        (void)t.backend->end_index_gate(verdict, t.device, t.stream.native());
        throw;
      }
      if (t.backend->end_index_gate(verdict, t.device, t.stream.native())) return;
      prepare();  // an index outside [0, rows), nothing written: raise, or fix negative ones
    }
    run(hidx, bin, m, one);
  } else {
    // Each update's result goes back through a's dtype (np.add.at(int8 [-3], [0], 1.5) is -1):
    // the updates run in rounds in which every index occurs once (the r-th occurrence of each),
    // and a's dtype truncates w between rounds; each element still sees its updates in order.
    Shape full = rest;
    full.insert(full.begin(), one ? 1 : m);
    const Array bh = (bb.device().is_host() ? bb : t.rt->to_host(bb)).astype(dt).reshape(full);
    const Array host_idx = on_dev ? rt_->to_host(hidx) : hidx;
    const auto* ip = reinterpret_cast<const std::int64_t*>(host_idx.data());
    std::vector<std::int64_t> seen(static_cast<std::size_t>(n0), 0), round(m);
    std::int64_t rounds = 0;
    for (std::int64_t j = 0; j < m; ++j) rounds = std::max(rounds, (round[j] = seen[ip[j]]++) + 1);
    const std::size_t row = static_cast<std::size_t>(shape_size(rest)) * itemsize(dt);
    // The updates grouped by round with one counting sort (in order within a round).
    std::vector<std::int64_t> start(static_cast<std::size_t>(rounds) + 1, 0), order(m);
    for (std::int64_t j = 0; j < m; ++j) ++start[round[j] + 1];
    for (std::int64_t r = 0; r < rounds; ++r) start[r + 1] += start[r];
    {
      std::vector<std::int64_t> fill(start.begin(), start.end() - 1);
      for (std::int64_t j = 0; j < m; ++j) order[fill[round[j]]++] = j;
    }
    // Only the updated rows go back through a's dtype: a row the updates never reach keeps its
    // value, also where a's dtype does not survive the trip through the loop's (logical_or.at of
    // a uint8 a runs the bool loop). Whole arrays where the trip is exact (the fast way).
    const bool whole = round_trip_exact(a.dtype(), dt);
    for (std::int64_t r = 0; r < rounds; ++r) {
      const std::vector<std::int64_t> js(order.begin() + start[r], order.begin() + start[r + 1]);
      const auto k = static_cast<std::int64_t>(js.size());
      Array idx = empty({k}, DType::int64);
      Shape bs = rest;
      bs.insert(bs.begin(), k);
      Array br = empty(bs, dt);
      for (std::int64_t q = 0; q < k; ++q) {
        reinterpret_cast<std::int64_t*>(idx.data())[q] = ip[js[q]];
        std::memcpy(br.data() + q * row, bh.data() + (one ? 0 : js[q]) * row, row);
      }
      run(idx, br, k, false);
      if (whole) {
        t.copy(w, a);  // through a's dtype
        if (r + 1 < rounds) t.copy(a, w);
        continue;
      }
      for (std::int64_t q = 0; q < k; ++q) {
        const std::int64_t row = ip[js[q]];
        const Array wr = w.slice(0, row, row + 1), ar = a.slice(0, row, row + 1);
        t.copy(wr, ar);  // through a's dtype
        if (r + 1 < rounds) t.copy(ar, wr);
      }
    }
    if (t.on_device() && !t.device_mode) t.rt->synchronize(t.device_name());
    return;
  }
  if (t.on_device() && !t.device_mode) t.rt->synchronize(t.device_name());
  if (w.buffer() != a.buffer()) t.copy(w, a);
}

}  // namespace loom
