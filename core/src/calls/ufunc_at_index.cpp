// Ufunc::at with NumPy's full index (a tuple of index arrays and slices), reduced to the 1-d form
// of ufunc_at.cpp: the slices become a view of a, the indexed axes are moved to the front and
// merged into one, the index arrays become one flat index along it, and b is laid out to match.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "loom/aliasing.hpp"
#include "loom/error.hpp"
#include "loom/runtime.hpp"

namespace loom {

namespace {

// axes [0, q) of v merge into one (C order) without a copy.
bool mergeable(const Array& v, int q) {
  for (int i = 0; i + 1 < q; ++i) {
    if (v.shape()[i + 1] != 1 && v.strides()[i] != v.strides()[i + 1] * v.shape()[i + 1]) {
      return false;
    }
  }
  return true;
}

// v with axes [0, q) merged into one of `m` elements (mergeable(v, q), or q == 0: a new axis).
Array merged(const Array& v, int q, std::int64_t m) {
  Shape shape{m}, strides{q > 0 ? v.strides()[q - 1] : 0};
  for (int i = q; i < v.ndim(); ++i) {
    shape.push_back(v.shape()[i]);
    strides.push_back(v.strides()[i]);
  }
  return Array(v.buffer(), v.dtype(), shape, strides, v.offset());
}

}  // namespace

void Ufunc::at(const Array& a, std::span<const AtIndex> index, const Array& b,
               const AtOptions& o) const {
  const std::string who = "ufunc '" + desc_->name + "'.at";
  require_writeable(a, who, "the array a");
  const int nd = a.ndim(), k = static_cast<int>(index.size());
  if (k > nd) {
    throw IndexError(who + ": too many indices for array: array is " + std::to_string(nd) +
                     "-dimensional, but " + std::to_string(k) + " were indexed");
  }
  // The slices, applied: v is a's view, the index arrays' axes still in place.
  Array v = a;
  std::vector<int> adv, basic;
  std::vector<Array> idx;  // int64 host arrays, one per entry of adv
  for (int ax = 0; ax < k; ++ax) {
    if (const Slice* s = std::get_if<Slice>(&index[ax])) {
      if (s->step == 0) {
        throw ValueError(who + ": slice step cannot be zero (index entry " + std::to_string(ax) +
                         ")");
      }
      // A missing bound is the end in the step's direction (-n - 1: before the first element).
      const std::int64_t n = v.shape()[ax];
      v = v.slice(ax, s->start.value_or(s->step > 0 ? 0 : INT64_MAX),
                  s->stop.value_or(s->step > 0 ? INT64_MAX : -n - 1), s->step);
      basic.push_back(ax);
      continue;
    }
    Array i = std::get<Array>(index[ax]);
    if (!i.device().is_host()) i = rt_->to_host(i);
    if (i.dtype() == DType::bool_) {
      if (i.ndim() != 1) {
        throw IndexError(who + ": a boolean index must be 1-d here, got " + i.str() +
                         " (pass the index arrays of its nonzero positions instead)");
      }
      if (i.size() != v.shape()[ax]) {
        throw IndexError(who + ": boolean index did not match indexed array along axis " +
                         std::to_string(ax) + "; size of axis is " + std::to_string(v.shape()[ax]) +
                         " but size of corresponding boolean axis is " + std::to_string(i.size()));
      }
      std::vector<std::int64_t> pos;
      const auto mask = i.astype(DType::uint8).to_vector<std::uint8_t>();
      for (std::size_t j = 0; j < mask.size(); ++j) {
        if (mask[j]) pos.push_back(static_cast<std::int64_t>(j));
      }
      i = from_vector(pos);
    }
    const Kind ik = kind(i.dtype());
    if (ik != Kind::signed_int && ik != Kind::unsigned_int) {
      throw TypeError(who + ": indices must be an integer array, got " +
                      std::string(name(i.dtype())) + " in index entry " + std::to_string(ax) +
                      " (NumPy: arrays used as indices must be of integer type)");
    }
    adv.push_back(ax);
    idx.push_back(i);
  }
  for (int ax = k; ax < nd; ++ax) basic.push_back(ax);

  // The index arrays broadcast together (NumPy's message when they do not).
  std::vector<Shape> shapes;
  for (const auto& i : idx) shapes.push_back(i.shape());
  Shape bshape;
  try {
    bshape = broadcast_shapes(shapes);
  } catch (const ShapeError&) {
    std::string list;
    for (const auto& s : shapes) list += " " + shape_str(s);
    throw IndexError(who + ": shape mismatch: indexing arrays could not be broadcast together " +
                     "with shapes" + list);
  }
  const std::int64_t m = shape_size(bshape);

  // a[index]'s shape, NumPy's rule: the broadcast dims replace the indexed axes where those are
  // adjacent in the tuple, else they come first.
  const bool adjacent =
      !adv.empty() && adv.back() - adv.front() + 1 == static_cast<int>(adv.size());
  const int at_pos = adjacent ? adv.front() : 0;
  Shape res;
  std::vector<int> to_front;  // b's axes: the broadcast dims, then the others in order
  int before = 0;
  for (int ax : basic) {
    if (adjacent && ax < at_pos) ++before;
  }
  for (int j = 0; j < before; ++j) res.push_back(v.shape()[basic[j]]);
  for (auto d : bshape) res.push_back(d);
  for (std::size_t j = before; j < basic.size(); ++j) res.push_back(v.shape()[basic[j]]);
  const int nb = static_cast<int>(bshape.size());
  for (int j = 0; j < nb; ++j) to_front.push_back(before + j);
  for (int j = 0; j < before; ++j) to_front.push_back(j);
  for (int j = before + nb; j < static_cast<int>(res.size()); ++j) to_front.push_back(j);

  const Shape both[] = {b.shape(), res};
  try {
    if (broadcast_shapes(both) != res) throw ShapeError("");
  } catch (const ShapeError&) {
    throw ShapeError(who + ": b of shape " + shape_str(b.shape()) +
                     " does not broadcast to the indexed shape " + shape_str(res));
  }

  // One flat index over the indexed axes (C order), each checked against its own axis.
  std::vector<std::int64_t> flat(static_cast<std::size_t>(m), 0);
  for (std::size_t e = 0; e < idx.size(); ++e) {
    const int ax = adv[e];
    const std::int64_t n = v.shape()[ax];
    const Array ib = idx[e].broadcast_to(bshape);
    std::vector<std::int64_t> vals;
    if (kind(ib.dtype()) == Kind::unsigned_int) {
      for (std::uint64_t u : ib.to_vector<std::uint64_t>()) {
        if (u >= static_cast<std::uint64_t>(n)) {
          throw IndexError(who + ": index " + std::to_string(u) + " is out of bounds for axis " +
                           std::to_string(ax) + " with size " + std::to_string(n));
        }
        vals.push_back(static_cast<std::int64_t>(u));
      }
    } else {
      vals = ib.to_vector<std::int64_t>();
    }
    for (std::size_t j = 0; j < vals.size(); ++j) {
      std::int64_t x = vals[j];
      if (x < -n || x >= n) {
        throw IndexError(who + ": index " + std::to_string(x) + " is out of bounds for axis " +
                         std::to_string(ax) + " with size " + std::to_string(n));
      }
      flat[j] = flat[j] * n + (x < 0 ? x + n : x);
    }
  }

  // v with the indexed axes first, merged into one of their elements; b as (m, the others).
  std::vector<int> perm(adv.begin(), adv.end());
  perm.insert(perm.end(), basic.begin(), basic.end());
  const Array vt = v.transpose(perm);
  const int q = static_cast<int>(adv.size());
  std::int64_t mq = 1;
  for (int i = 0; i < q; ++i) mq *= vt.shape()[i];
  Shape bt_shape{m};
  for (int ax : basic) bt_shape.push_back(v.shape()[ax]);
  // A 0-d b goes as it is (the 1-d form broadcasts it, and keeps a weak scalar weak).
  Array bt = b;
  if (b.ndim() != 0) {
    Array t = b.broadcast_to(res).transpose(to_front);
    if (!t.device().is_host()) {  // reshape copies where a view cannot do: on the device here
      const Array c = rt_->empty(t.shape(), t.dtype(), t.device().str());
      rt_->copy_to(t, c);
      t = c;
    }
    bt = t.reshape(bt_shape);
  }
  const Array fi = from_vector(flat);
  if (mergeable(vt, q)) {
    Ufunc::at(merged(vt, q, mq), fi, bt, o);
    return;
  }
  // Axes that do not merge in place (a transposed or sliced a): through a contiguous copy of the
  // view, written back whole (the elements no index reaches are written back unchanged).
  Array tmp =
      vt.device().is_host() ? vt.copy() : rt_->empty(vt.shape(), vt.dtype(), vt.device().str());
  if (!vt.device().is_host()) rt_->copy_to(vt, tmp);
  Ufunc::at(merged(tmp, q, mq), fi, bt, o);
  rt_->copy_to(tmp, vt);
}

}  // namespace loom
