// Deterministic parallel reductions: how a ReduceCall is cut so that its result has the same bits
// on every run and with any number of threads.
#pragma once
#include "executor.hpp"
#include "loom/exec.hpp"

namespace loom::backend::tbb_backend {

// Runs `c` with its chunks on `ex`. The chunking depends on the call's shape only.
void run_reduce_split(const ReduceCall& c, const Executor& ex);

}  // namespace loom::backend::tbb_backend
