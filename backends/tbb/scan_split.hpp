// Parallel accumulate (ufunc.accumulate): how a ScanCall is cut so that its result has the same
// bits on every run and with any number of threads.
#pragma once
#include "executor.hpp"
#include "loom/exec.hpp"

namespace loom::backend::tbb_backend {

// Runs `c` with its pieces on `ex`. Whether a line is scanned in blocks, and where the blocks
// fall, depends on the call's shape only.
void run_scan_split(const ScanCall& c, const Executor& ex);

}  // namespace loom::backend::tbb_backend
