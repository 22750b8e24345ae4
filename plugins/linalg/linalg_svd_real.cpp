// svdvals over the real dtypes (host_ops.hpp says why in a file of its own).
#include <complex>

#include "svdvals.hpp"

namespace loom::linalg {

template void svdvals_one<float>(View<const float, 2>, View<real_t<float>, 1>);
template void svdvals_one<double>(View<const double, 2>, View<real_t<double>, 1>);

}  // namespace loom::linalg
