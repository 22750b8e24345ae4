// svdvals over the complex dtypes (host_ops.hpp says why in a file of its own).
#include <complex>

#include "svdvals.hpp"

namespace loom::linalg {

template void svdvals_one<std::complex<float>>(View<const std::complex<float>, 2>,
                                               View<real_t<std::complex<float>>, 1>);
template void svdvals_one<std::complex<double>>(View<const std::complex<double>, 2>,
                                                View<real_t<std::complex<double>>, 1>);

}  // namespace loom::linalg
