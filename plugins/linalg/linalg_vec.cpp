// The linalg plugin's host loops of the vector group: norm, vecdot, cross (table.hpp), in their own
// translation unit: Eigen's decompositions over four dtypes take minutes to compile, so the groups
// build in parallel.
#include "host_ops.hpp"
#include "loom/def/gufunc.hpp"
#include "table.hpp"

namespace loom::linalg {

void register_vec(Registrar& reg) {
  using namespace types;
  using loom::def::gufunc;
  gufunc<Norm, f32(f32), f64(f64), f32(c64), f64(c128)>(reg, "norm", "(n)->()", "2-norm");
  gufunc<Vecdot, LOOM_LINALG_SAME(LOOM_LINALG_B)>(reg, "vecdot", "(n),(n)->()",
                                                  "sum of conj(x) * y");
  gufunc<Cross, LOOM_LINALG_SAME(LOOM_LINALG_B)>(reg, "cross", "(3),(3)->(3)", "cross product");
}

}  // namespace loom::linalg
