// The linalg plugin's host loops of the LU group: det, slogdet, inv, solve, solve1 (table.hpp), in
// their own translation unit: Eigen's decompositions over four dtypes take minutes to compile, so
// the groups build in parallel.
#include "host_ops.hpp"
#include "loom/def/gufunc.hpp"
#include "table.hpp"

namespace loom::linalg {

void register_lu(Registrar& reg) {
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
}

}  // namespace loom::linalg
