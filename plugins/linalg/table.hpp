// The linalg plugin's table: NumPy's np.linalg gufuncs over float32, float64, complex64 and
// complex128 (docs/linalg.md). Defines register_linalg; include it in one file per library.
#pragma once
#include <complex>

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

inline void register_linalg(Registrar& reg) {
  using namespace types;
  using loom::def::gufunc;
  gufunc<Det, LOOM_LINALG_SAME(LOOM_LINALG_U)>(reg, "det", "(n,n)->()", "determinant");
  gufunc<Slogdet, outs<f32, f32>(f32), outs<f64, f64>(f64), outs<c64, f32>(c64),
         outs<c128, f64>(c128)>(reg, "slogdet", "(n,n)->(),()", "sign and log|det|");
  gufunc<Inv, LOOM_LINALG_SAME(LOOM_LINALG_U)>(reg, "inv", "(n,n)->(n,n)",
                                               "inverse (NaN where singular)");
  gufunc<Solve, LOOM_LINALG_SAME(LOOM_LINALG_B)>(reg, "solve", "(n,n),(n,k)->(n,k)",
                                                 "x with a @ x = b (NaN where a is singular)");
  gufunc<Solve1, LOOM_LINALG_SAME(LOOM_LINALG_B)>(reg, "solve1", "(n,n),(n)->(n)",
                                                  "x with a @ x = b for a vector b");
  gufunc<Cholesky, LOOM_LINALG_SAME(LOOM_LINALG_U)>(
      reg, "cholesky", "(n,n)->(n,n)", "lower Cholesky factor (NaN where not positive definite)");
  gufunc<Eigh, outs<f32, f32>(f32), outs<f64, f64>(f64), outs<f32, c64>(c64),
         outs<f64, c128>(c128)>(reg, "eigh", "(n,n)->(n),(n,n)",
                                "eigenvalues and eigenvectors of a Hermitian matrix");
  gufunc<Eigvalsh, f32(f32), f64(f64), f32(c64), f64(c128)>(reg, "eigvalsh", "(n,n)->(n)",
                                                            "eigenvalues of a Hermitian matrix");
  gufunc<Qr, outs<f32, f32>(f32), outs<f64, f64>(f64), outs<c64, c64>(c64), outs<c128, c128>(c128)>(
      reg, "qr", "(m,n)->(m,k),(k,n)", "reduced QR, k = min(m, n) from out=");
  gufunc<Svdvals, f32(f32), f64(f64), f32(c64), f64(c128)>(
      reg, "svdvals", "(m,n)->(k)", "singular values, k = min(m, n) from out=");
  gufunc<Norm, f32(f32), f64(f64), f32(c64), f64(c128)>(reg, "norm", "(n)->()", "2-norm");
  gufunc<Vecdot, LOOM_LINALG_SAME(LOOM_LINALG_B)>(reg, "vecdot", "(n),(n)->()",
                                                  "sum of conj(x) * y");
  gufunc<Cross, LOOM_LINALG_SAME(LOOM_LINALG_B)>(reg, "cross", "(3),(3)->(3)", "cross product");
}

#undef LOOM_LINALG_SAME
#undef LOOM_LINALG_U
#undef LOOM_LINALG_B

}  // namespace loom::linalg
