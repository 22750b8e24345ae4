// Parallel ufunc.at: how an AtCall's updates are spread over threads so that the result has the
// cpu target's bits.
#pragma once
#include "executor.hpp"
#include "loom/exec.hpp"

namespace loom::backend::tbb_backend {

// Runs `c` on `ex`; the result equals run_at_serial's bit for bit.
void run_at_split(const AtCall& c, const Executor& ex);

}  // namespace loom::backend::tbb_backend
