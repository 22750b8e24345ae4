// LOOM_HD marks functions compiled for both host and CUDA device code (empty under g++).
#pragma once
#include <type_traits>
#if defined(__CUDACC__)
#define LOOM_HD __host__ __device__
#else
#define LOOM_HD
#endif
