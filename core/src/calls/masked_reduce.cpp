// where= on a reduction whose op has no identity (np.subtract.reduce(x, axis=1, initial=0,
// where=m), np.maximum.reduce(x, initial=0, where=m)): no value can stand in for the masked-out
// elements, so each output's selected elements are gathered, in C order, and folded into its
// start value. One call an output: correct on every target, not fast (docs/methods.md).
#include <cstring>
#include <numeric>

#include "calls/methods_common.hpp"
#include "loom/exec.hpp"
#include "loom/strided.hpp"

namespace loom::detail {

void masked_fold(const Target& t, const LoopImpl& impl, DType dt, const Array& xin,
                 const Array& mask, const std::vector<bool>& reduced, bool reorderable,
                 const Array& res) {
  const int nd = xin.ndim();
  // The reduced axes last, in order, on the host.
  std::vector<int> perm;
  for (int k = 0; k < nd; ++k) {
    if (!reduced[k]) perm.push_back(k);
  }
  std::int64_t n = 1;
  int nred = 0;
  for (int k = 0; k < nd; ++k) {
    if (reduced[k]) perm.push_back(k), n *= xin.shape()[k], ++nred;
  }
  const Array xh =
      (xin.device().is_host() ? xin : t.rt->to_host(xin, t.stream)).transpose(perm).copy();
  const Array mh = mask.broadcast_to(xin.shape()).transpose(perm).copy();
  const Array rt_view = res.transpose(perm);  // the reduced axes (size 1) last
  std::int64_t rows = 1;
  for (int d = 0; d < nd - nred; ++d) rows *= xh.shape()[d];
  const std::size_t isz = itemsize(dt);
  // Selected values of every row, packed, with each row's [begin, end).
  Array vals = empty({xh.size()}, dt);
  std::vector<std::int64_t> begin(rows + 1, 0);
  const char* xp = xh.data();
  const bool* mp = reinterpret_cast<const bool*>(mh.data());
  std::int64_t k = 0;
  for (std::int64_t r = 0; r < rows; ++r) {
    begin[r] = k;
    for (std::int64_t j = 0; j < n; ++j) {
      if (!mp[r * n + j]) continue;
      std::memcpy(vals.data() + k * isz, xp + (r * n + j) * isz, isz);
      ++k;
    }
  }
  begin[rows] = k;
  if (k == 0) return;
  if (t.on_device()) vals = t.to_device(vals);
  // Row r's output element: rt_view's elements in C order.
  const Shape& rs = rt_view.shape();
  std::vector<std::int64_t> idx(rs.size(), 0);
  for (std::int64_t r = 0; r < rows; ++r) {
    std::int64_t off = rt_view.offset();
    for (std::size_t d = 0; d < rs.size(); ++d) off += idx[d] * rt_view.strides()[d];
    for (int d = static_cast<int>(rs.size()) - 1; d >= 0; --d) {  // odometer to the next row
      if (++idx[d] < rs[d]) break;
      idx[d] = 0;
    }
    const std::int64_t c = begin[r + 1] - begin[r];
    if (c == 0) continue;
    const Array into(res.buffer(), dt, {c}, {0}, off);
    const Array part = vals.slice(0, begin[r], begin[r + 1]);
    const Array ops[] = {into, part};
    ReduceCall call{StridedIter::make(ops, part.shape()), &impl, dt, t.stream.native()};
    call.ordered = !reorderable;
    t.backend->run_reduce(call, t.device);
  }
}

}  // namespace loom::detail
