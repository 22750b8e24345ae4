// Internal: a reduction's per-rank partials all-reduced on the GPUs by an NCCL group (through the
// cuda collectives, libloom_nccl.so) instead of through MPI and the host (docs/scale-out.md,
// "GPU ranks and NCCL").
#pragma once
#include <optional>
#include <string>

#include "loom/collective.hpp"
#include "loom/dist/comm.hpp"
#include "loom/runtime.hpp"

namespace loom::dist::detail {

struct DeviceCombine {
  CollectiveGroup* group;  // owned by the communicator (an MPI attribute), made on first use
  CollectiveOp op;
};

// Whether every rank can all-reduce its partial (of dtype `partial`, for the reduction `op`) on
// its GPU: each rank on a "cuda:N" target with rows, the cuda collectives loaded and available, an
// op and dtype they reduce, and no GPU shared by two ranks (NCCL refuses that). Decided alike on
// every rank (collective); `why_not` gets the first rank that cannot and why, alike on every rank.
std::optional<DeviceCombine> device_combine(const Runtime& rt, const Comm& comm,
                                            const std::string& op, const std::string& target,
                                            DType partial, bool has_rows, const std::string& what,
                                            std::string* why_not);

}  // namespace loom::dist::detail
