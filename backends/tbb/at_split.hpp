// Parallel ufunc.at: how an AtCall's updates are spread over threads (at_split.cpp says which
// calls keep the cpu target's bits), and the range check of its indices.
#pragma once
#include <utility>

#include "executor.hpp"
#include "loom/exec.hpp"

namespace loom::backend::tbb_backend {

// Runs `c` on `ex`: the same bits on every run and thread count.
void run_at_split(const AtCall& c, const Executor& ex);
// Backend::index_range over host memory, in chunks on `ex`.
std::pair<std::int64_t, std::int64_t> at_index_range(const std::int64_t* idx, std::int64_t m,
                                                     const Executor& ex);

}  // namespace loom::backend::tbb_backend
