// The stats plugin's kernels (docs/stats.md): block reductions of the rows of a C-contiguous
// (rows, n) array and the histogram counts. One functor per kernel serves cpu,
// parallel (def/kernel.hpp) and cuda (def/kernel.cuh). loom::stats (core/src/calls/stats.cpp)
// lays the input out as rows and launches these.
//
// Determinism: each block folds a fixed chunk of a row (its length depends on n and the launch's
// block size, which the caller derives from n alone) in a fixed order, and its threads' results
// by a fixed tree; partials are folded the same way. No floating-point atomics: the bits depend
// on the input and the target only. Integer counts use atomics (exact in any order).
#pragma once
#include "arg_kernels.hpp"
#include "count_kernels.hpp"
#include "sum_kernels.hpp"
