// The math plugin's CUDA loops of one op group (table_unary.hpp), in their own translation unit.
#include "device_traits.cuh"
#include "loom/def/methods.cuh"
#include "loom/def/reduce.cuh"
#include "loom/def/ufunc.cuh"
#include "table_unary.hpp"
