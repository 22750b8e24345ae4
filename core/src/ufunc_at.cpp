// Ufunc::at, NumPy's unbuffered in-place method: a[indices[j], ...] = op(a[indices[j], ...],
// b[j, ...]) once per j, on every target. Casting is NumPy's for at: b and the result are cast
// unsafely (np.add.at(int_array, i, 1.5) adds 1).
#include "loom/exec.hpp"
#include "methods_common.hpp"

namespace loom {

void Ufunc::at(const Array& a, const Array& indices, const Array& b, const AtOptions& o) const {
  const OpDesc& op = *desc_;
  detail::require_binary(op, "at");
  const std::string who = "ufunc '" + op.name + "'.at";
  const Array* all[] = {&a, &indices, &b};
  const detail::Target t = detail::pick_target(*rt_, o.target, op, all, o.stream);
  if (a.ndim() == 0) throw ValueError(who + ": the array must have at least one dimension");
  const Kind ik = kind(indices.dtype());
  if (ik != Kind::signed_int && ik != Kind::unsigned_int) {
    throw TypeError(who + ": indices must be an integer array, got " +
                    std::string(name(indices.dtype())) +
                    " (NumPy: arrays used as indices must be of integer type)");
  }
  if (indices.ndim() > 1) throw ValueError(who + ": indices must be 0-d or 1-d, got " + indices.str());
  // The indices as checked, non-negative int64 in one contiguous host array: the caller's own
  // array when it already is one (no copy), else a converted copy.
  const std::int64_t n0 = a.shape()[0];
  Array hidx = indices.device().is_host() ? indices : rt_->to_host(indices);
  if (ik == Kind::unsigned_int) {  // values from 2^63 up do not fit int64: out of bounds anyway
    for (std::uint64_t u : hidx.to_vector<std::uint64_t>()) {
      if (u > static_cast<std::uint64_t>(INT64_MAX)) {
        throw IndexError(who + ": index " + std::to_string(u) +
                         " is out of bounds for axis 0 with size " + std::to_string(a.shape()[0]));
      }
    }
  }
  if (hidx.dtype() != DType::int64 || !hidx.is_c_contiguous() || hidx.buffer() == a.buffer()) {
    hidx = hidx.astype(DType::int64);  // a copy: also when the updates could change the indices
  }
  bool negative = false;
  {
    const auto* p = reinterpret_cast<const std::int64_t*>(hidx.data());
    for (std::int64_t j = 0, m = hidx.size(); j < m; ++j) {
      const std::int64_t i = p[j];
      negative = negative || i < 0;
      if (i < -n0 || i >= n0) {
        throw IndexError(who + ": index " + std::to_string(i) +
                         " is out of bounds for axis 0 with size " + std::to_string(n0));
      }
    }
  }
  if (negative) {
    hidx = hidx.copy();
    auto* p = reinterpret_cast<std::int64_t*>(hidx.data());
    for (std::int64_t j = 0, m = hidx.size(); j < m; ++j) p[j] += p[j] < 0 ? n0 : 0;
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
  const Loop& loop = detail::pick_reduce_loop(op, t.family, a.dtype(), a.dtype(), who);
  const DType dt = loop.sig.outputs[0];
  // Work on `w`: a itself when it is in the loop's dtype and the call's memory, else a copy that
  // is cast back into a afterwards. b is read before any update (a copy when it shares a's memory).
  const bool here = a.device().is_host() != t.on_device();
  Array w = a;
  if (a.dtype() != dt || !here) {
    w = a.device().is_host() ? a.astype(dt) : t.cast(a, dt);
    if (t.on_device()) w = t.to_device(w);
  }
  Array bin = t.cast(bb, dt);
  if (bin.buffer() == a.buffer()) {
    const Array c = t.rt->empty_like(bin);
    t.copy(bin, c);
    bin = c;
  }
  if (t.on_device()) bin = t.to_device(bin);
  if (m > 0 && shape_size(rest) > 0) {
    Array didx = hidx;
    if (t.on_device()) didx = t.to_device(didx);
    // A 0-d index: one update with b of a's trailing shape.
    const bool one = indices.ndim() == 0;
    AtCall c;
    c.a = w.data();
    c.a_step = w.strides()[0];
    c.idx = reinterpret_cast<const std::int64_t*>(didx.data());
    c.m = m;
    c.b = bin.data();
    c.b_step = one ? 0 : bin.strides()[0];
    c.rest = rest;
    c.a_rest_strides = Shape(w.strides().begin() + 1, w.strides().end());
    c.b_rest_strides = Shape(bin.strides().begin() + (one ? 0 : 1), bin.strides().end());
    c.loop = &loop.impl[static_cast<int>(t.family)];
    c.dtype = dt;
    c.reorderable = op.reorderable;
    c.stream = t.stream.native();
    t.backend->run_at(c, t.device);
    if (t.on_device() && !t.device_mode) t.rt->synchronize(t.device_name());
  }
  if (w.buffer() != a.buffer()) t.copy(w, a);
}

}  // namespace loom
