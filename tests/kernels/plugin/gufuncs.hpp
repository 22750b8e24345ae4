// Gufuncs with indexing mistakes, for checked gufunc calls (tests/kernels/test_gufunc_checked.cpp;
// docs/kernels.md, "Checked gufunc calls"). Each mistake depends on a scalar operand, so that one
// instance of the loop goes wrong and the error names the same instance on every target.
// test_kernels.cpp includes this after def/gufunc.hpp, test_kernels.cu after def/gufunc.cuh.
#pragma once
#include <cstdint>

#include "loom/registry.hpp"
#include "loom/view.hpp"

namespace loom::test_kernels {

// out = x[k] with k unchecked: np.take without its bounds check.
struct GuTake {
  LOOM_HD void operator()(View<const float, 1> x, std::int64_t k, float& out) const { out = x(k); }
};

// x shifted right by s, zero-filled: out[i + s] = x[i] for i in [0, n), without stopping at the
// end, so s = 1 writes out[n].
struct GuShift {
  LOOM_HD void operator()(View<const float, 1> x, std::int64_t s, View<float, 1> out) const {
    for (std::int64_t i = 0; i < out.size(); ++i) out(i) = 0;
    for (std::int64_t i = 0; i < x.size(); ++i) out(i + s) = x(i);
  }
};

// out[i] = x[i][c] through row views: c = n reads one column too far.
struct GuColumn {
  LOOM_HD void operator()(View<const float, 2> x, std::int64_t c, View<float, 1> out) const {
    for (std::int64_t i = 0; i < x.size(0); ++i) out(i) = x[i](c);
  }
};

inline void register_gufuncs(loom::Registrar& reg) {
  using f32 = float;
  using i64 = std::int64_t;
  loom::def::gufunc<GuTake, f32(f32, i64)>(reg, "t_gu_take", "(n),()->()",
                                           "out = x[k] without a bounds check");
  loom::def::gufunc<GuShift, f32(f32, i64)>(reg, "t_gu_shift", "(n),()->(n)",
                                            "out[i + s] = x[i]: s = 1 writes out[n]");
  loom::def::gufunc<GuColumn, f32(f32, i64)>(reg, "t_gu_column", "(m,n),()->(m)",
                                             "out[i] = x[i][c] through a row view");
}

}  // namespace loom::test_kernels
