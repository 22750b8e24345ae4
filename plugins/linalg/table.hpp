// The linalg plugin's table: NumPy's np.linalg gufuncs over float32, float64, complex64 and
// complex128 (docs/linalg.md), one group per translation unit (linalg_<group>.cpp).
#pragma once
#include <complex>

#include "loom/def/gufunc.hpp"
#include "loom/registry.hpp"

namespace loom::linalg {

namespace types {
using f32 = float;
using f64 = double;
using c64 = std::complex<float>;
using c128 = std::complex<double>;
using loom::def::outs;
}  // namespace types

#define LOOM_LINALG_SAME(M) M(f32), M(f64), M(c64), M(c128)
#define LOOM_LINALG_U(T) T(T)
#define LOOM_LINALG_B(T) T(T, T)

void register_lu(Registrar& reg);      // det, slogdet, inv, solve, solve1
void register_eig(Registrar& reg);     // cholesky, eigh, eigvalsh
void register_qr_svd(Registrar& reg);  // qr, svdvals
void register_vec(Registrar& reg);     // norm, vecdot, cross
void register_matmul(Registrar& reg);  // matmul

inline void register_linalg(Registrar& reg) {
  register_lu(reg);
  register_eig(reg);
  register_qr_svd(reg);
  register_vec(reg);
  register_matmul(reg);
}

}  // namespace loom::linalg
