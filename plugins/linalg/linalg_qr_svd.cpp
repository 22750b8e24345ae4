// The linalg plugin's host loops of the QR and SVD group: qr, svdvals (table.hpp), in their own
// translation unit: Eigen's decompositions over four dtypes take minutes to compile, so the groups
// build in parallel.
#include "host_ops.hpp"
#include "loom/def/gufunc.hpp"
#include "table.hpp"

namespace loom::linalg {

void register_qr_svd(Registrar& reg) {
  using namespace types;
  using loom::def::gufunc;
  gufunc<Qr, outs<f32, f32>(f32), outs<f64, f64>(f64), outs<c64, c64>(c64), outs<c128, c128>(c128)>(
      reg, "qr", "(m,n)->(m,k=min(m,n)),(k,n)", "reduced QR, k = min(m, n)");
  gufunc<Svdvals, f32(f32), f64(f64), f32(c64), f64(c128)>(
      reg, "svdvals", "(m,n)->(k=min(m,n))", "singular values, k = min(m, n)");
}

}  // namespace loom::linalg
