// svdvals of float32: one dtype a translation unit (host_ops.hpp says why svdvals has files of
// its own; Eigen's BDCSVD of one dtype compiles for about a minute, more under ASan).
#include <complex>

#include "svdvals.hpp"

namespace loom::linalg {

template void svdvals_one<float>(View<const float, 2>, View<real_t<float>, 1>);

}  // namespace loom::linalg
