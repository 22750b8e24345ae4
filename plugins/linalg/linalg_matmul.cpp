// The linalg plugin's host loop of matmul (table.hpp), np.matmul with NumPy's optional core dims:
// matrix @ matrix, matrix @ vector, vector @ matrix and vector @ vector in one gufunc.
#include "host_ops.hpp"
#include "loom/def/gufunc.hpp"
#include "table.hpp"

namespace loom::linalg {

void register_matmul(Registrar& reg) {
  using namespace types;
  using loom::def::gufunc;
  gufunc<Matmul, LOOM_LINALG_SAME(LOOM_LINALG_B)>(reg, "matmul", "(m?,n),(n,p?)->(m?,p?)",
                                                  "matrix product (np.matmul)");
}

}  // namespace loom::linalg
