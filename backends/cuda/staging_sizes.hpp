// Sizes of the host-transfer pipeline (staging.hpp), apart so that tests can use them without the
// CUDA headers.
#pragma once
#include <cstddef>

namespace loom::backend::cuda_backend {

inline constexpr std::size_t kChunkBytes = std::size_t{8} << 20;  // per operand and slot
inline constexpr int kSlots = 3;                                   // buffers and streams

}  // namespace loom::backend::cuda_backend
