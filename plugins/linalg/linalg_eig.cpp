// The linalg plugin's host loops of the Cholesky and Hermitian eigen group: cholesky, eigh,
// eigvalsh (table.hpp), in their own translation unit: Eigen's decompositions over four dtypes take
// minutes to compile, so the groups build in parallel.
#include "host_ops.hpp"
#include "loom/def/gufunc.hpp"
#include "table.hpp"

namespace loom::linalg {

void register_eig(Registrar& reg) {
  using namespace types;
  using loom::def::gufunc;
  gufunc<Cholesky, LOOM_LINALG_SAME(LOOM_LINALG_U)>(
      reg, "cholesky", "(n,n)->(n,n)", "lower Cholesky factor (NaN where not positive definite)");
  gufunc<Eigh, outs<f32, f32>(f32), outs<f64, f64>(f64), outs<f32, c64>(c64),
         outs<f64, c128>(c128)>(reg, "eigh", "(n,n)->(n),(n,n)",
                                "eigenvalues and eigenvectors of a Hermitian matrix");
  gufunc<Eigvalsh, f32(f32), f64(f64), f32(c64), f64(c128)>(reg, "eigvalsh", "(n,n)->(n)",
                                                            "eigenvalues of a Hermitian matrix");
}

}  // namespace loom::linalg
