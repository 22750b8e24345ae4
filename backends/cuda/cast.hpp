// The device half of Backend::cast: a strided copy with dtype conversion, launched on the call's
// stream, with the host's conversion rules (dtype.cpp) bit for bit.
#pragma once
#include "loom/backend.hpp"

namespace loom::backend::cuda_backend {

void launch_cast(const CastCall& c);  // on the current device

}  // namespace loom::backend::cuda_backend
