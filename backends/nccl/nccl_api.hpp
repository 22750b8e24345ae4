// NCCL's entry points, loaded with dlopen when first needed rather than linked: libloom_nccl.so
// then loads on a machine without NCCL (or without a GPU) and says why it is unavailable, and
// finds the library where a Python install puts it (LOOM_NCCL_LIBRARY, docs/multi-gpu.md).
#pragma once
#include <nccl.h>

#include <string>

namespace loom::nccl {

struct Api {
  decltype(&ncclGetVersion) get_version = nullptr;
  decltype(&ncclGetUniqueId) get_unique_id = nullptr;
  decltype(&ncclCommInitAll) comm_init_all = nullptr;
  decltype(&ncclCommInitRank) comm_init_rank = nullptr;
  decltype(&ncclCommDestroy) comm_destroy = nullptr;
  decltype(&ncclReduce) reduce = nullptr;
  decltype(&ncclAllReduce) all_reduce = nullptr;
  decltype(&ncclGroupStart) group_start = nullptr;
  decltype(&ncclGroupEnd) group_end = nullptr;
  decltype(&ncclGetErrorString) error_string = nullptr;
  std::string path;   // the file loaded
  std::string error;  // why it could not be loaded (empty when it was)
  int version = 0;    // NCCL_VERSION_CODE of the library, e.g. 22805
};

// Loaded once (thread-safe); check error before use.
const Api& api();
// Throws DeviceError "what: <NCCL's message>" unless r is ncclSuccess.
void check(ncclResult_t r, const std::string& what);

}  // namespace loom::nccl
