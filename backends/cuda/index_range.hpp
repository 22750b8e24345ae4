// ufunc.at's index checks on the current device. index_range: the smallest and largest of m
// device int64 indices (Backend::index_range); waits for the stream.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <utility>

namespace loom::backend::cuda_backend {

std::pair<std::int64_t, std::int64_t> index_range(const std::int64_t* idx, std::int64_t m,
                                                  cudaStream_t stream);
// Backend::begin_index_gate / end_index_gate: the check queued on the stream, its verdict (0: all
// of the m indices in [0, rows)) in device memory; end waits for the stream and frees it.
unsigned* begin_index_gate(const std::int64_t* idx, std::int64_t m, std::int64_t rows,
                           cudaStream_t stream);
bool end_index_gate(unsigned* gate, cudaStream_t stream);

}  // namespace loom::backend::cuda_backend
