// The smallest and largest of m device int64 indices (Backend::index_range), on the current
// device; waits for the stream.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <utility>

namespace loom::backend::cuda_backend {

std::pair<std::int64_t, std::int64_t> index_range(const std::int64_t* idx, std::int64_t m,
                                                  cudaStream_t stream);

}  // namespace loom::backend::cuda_backend
