// Strided iteration setup (coalescing) and the host copy/cast used for casting inputs and outputs.
#include "loom/strided.hpp"

#include <algorithm>

#include "loom/aliasing.hpp"

namespace loom {

StridedIter StridedIter::make(std::span<char* const> base, std::span<const Shape> strides,
                              const Shape& shape) {
  StridedIter it;
  it.base = SmallVec<char*, 4>(base.begin(), base.end());
  const int na = static_cast<int>(base.size());
  it.strides.assign(na, Shape{});
  // Drop size-1 dims, then merge dim k into k+1 when every operand steps through them as one.
  for (std::size_t k = 0; k < shape.size(); ++k) {
    if (shape[k] == 1) continue;
    bool merge = !it.shape.empty() && shape[k] != 0 && it.shape.back() != 0;
    for (int a = 0; merge && a < na; ++a) {
      merge = it.strides[a].back() == strides[a][k] * shape[k];
    }
    if (merge) {
      it.shape.back() *= shape[k];
      for (int a = 0; a < na; ++a) it.strides[a].back() = strides[a][k];
    } else {
      it.shape.push_back(shape[k]);
      for (int a = 0; a < na; ++a) it.strides[a].push_back(strides[a][k]);
    }
  }
  if (it.shape.empty()) {
    it.shape.push_back(1);
    for (int a = 0; a < na; ++a) it.strides[a].push_back(0);
  }
  return it;
}

StridedIter StridedIter::make(std::span<const Array> operands, const Shape& shape) {
  SmallVec<char*, 4> base;
  SmallVec<Shape, 4> strides;
  for (const auto& op : operands) {
    if (op.shape() != shape) {
      throw ShapeError("internal: operand " + op.str() + " not broadcast to " + shape_str(shape));
    }
    base.push_back(op.data());
    strides.push_back(op.strides());
  }
  return make(base, strides, shape);
}

void copy_cast(const Array& src, const Array& dst) {
  if (!src.device().is_host() || !dst.device().is_host()) {
    throw DeviceError("copy_cast on the host got " + src.str() + " and " + dst.str());
  }
  require_writeable(dst, "copy_cast", "the destination");
  // src is read whole before dst is written (NumPy's copyto): a copy where their bytes may meet.
  const bool apart = !may_share_memory(src, dst) || same_elements(src, dst);
  const Array s = (apart ? src : src.copy()).broadcast_to(dst.shape());
  const Array ops[] = {s, dst};
  const StridedIter it = StridedIter::make(ops, dst.shape());
  const DType from = src.dtype(), to = dst.dtype();
  it.for_each_run(0, it.size(), [&](char** p, std::int64_t n, const std::int64_t* st) {
    cast_strided(p[0], st[0], from, p[1], st[1], to, n);
  });
}

void copy_where(const Array& src, const Array& dst, const Array& mask) {
  require_writeable(dst, "copy_where", "the destination");
  const bool apart = !may_share_memory(src, dst) || same_elements(src, dst);
  const Array s = (apart ? src : src.copy()).broadcast_to(dst.shape());
  const Array m = mask.astype(DType::bool_).broadcast_to(dst.shape());
  const Array ops[] = {s, dst, m};
  const StridedIter it = StridedIter::make(ops, dst.shape());
  const DType from = src.dtype(), to = dst.dtype();
  const std::size_t isz = itemsize(to);
  it.for_each_run(0, it.size(), [&](char** p, std::int64_t n, const std::int64_t* st) {
    alignas(16) char tmp[16];
    for (std::int64_t i = 0; i < n; ++i) {
      if (!*reinterpret_cast<const bool*>(p[2] + i * st[2])) continue;
      cast_strided(p[0] + i * st[0], 0, from, tmp, 0, to, 1);
      std::memcpy(p[1] + i * st[1], tmp, isz);
    }
  });
}

}  // namespace loom
