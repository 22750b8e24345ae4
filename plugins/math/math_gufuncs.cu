// The math plugin's CUDA gufunc loops (table_gufuncs.hpp), in their own translation unit.
#include "device_traits.cuh"
#include "loom/def/gufunc.cuh"
#include "table_gufuncs.hpp"
