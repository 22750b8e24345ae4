#include "heat.hpp"

#include <utility>

namespace loom::dist_demo {

DistArray heat_grid(const Runtime& rt, const dist::Comm& comm, std::int64_t n, std::int64_t m,
                    const std::string& target) {
  DistArray u = dist::zeros(rt, comm, {n, m}, DType::float64, target);
  if (u.rows().begin == 0 && u.rows().size() > 0) {
    rt.copy_to(Array(100.0), u.local().slice(0, 0, 1));  // the hot edge: global row 0
  }
  return u;
}

DistArray jacobi(const Runtime& rt, DistArray u, int steps) {
  const std::int64_t n = u.shape()[0], m = u.shape()[1];
  // The second buffer starts as a copy, so that its fixed edges hold the same values.
  DistArray v = dist::Ufunc(rt, "positive")(u);
  dist::exchange_halo(rt, v, 1);  // room for halos in both buffers
  const loom::Ufunc add = rt.ufunc("add"), multiply = rt.ufunc("multiply");
  for (int s = 0; s < steps; ++s) {
    dist::exchange_halo(rt, u, 1);
    // Local rows i0 <= i < i1 are inside the grid (global rows 1 to n - 2).
    const dist::Rows r = u.rows();
    const std::int64_t i0 = r.begin == 0 ? 1 : 0, i1 = r.end == n ? r.size() - 1 : r.size();
    if (i0 < i1 && m > 2) {
      const Array h = u.with_halo();  // row i of h is local row i - 1
      const Array centre = h.slice(0, i0 + 1, i1 + 1);
      const Array up = h.slice(0, i0, i1).slice(1, 1, m - 1);
      const Array down = h.slice(0, i0 + 2, i1 + 2).slice(1, 1, m - 1);
      const Array vertical = add(up, down, {.target = u.target()});
      const Array horizontal =
          add(centre.slice(1, 0, m - 2), centre.slice(1, 2, m), {.target = u.target()});
      multiply(add(vertical, horizontal, {.target = u.target()}), 0.25,
               {.target = u.target(), .out = {v.local().slice(0, i0, i1).slice(1, 1, m - 1)}});
    }
    std::swap(u, v);
  }
  return u;
}

}  // namespace loom::dist_demo
