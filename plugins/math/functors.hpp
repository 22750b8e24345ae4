// The math plugin's operations as functors, one per op, in one header per group: compiled by g++
// for the host loops (and, where `vectorize` is set, for xsimd::batch<T>) and by nvcc for the
// CUDA loops. Reductions reuse the binary ones (sum is Add); the gufuncs are in gufuncs.hpp.
#pragma once
#include "arith.hpp"
#include "bitwise.hpp"
#include "compare.hpp"
#include "exp_log.hpp"
#include "floating.hpp"
#include "trigonometric.hpp"
