// The linalg plugin's CUDA library (libloom_linalg_cuda.so, for target cuda): its entry point.
// The loops are instantiated group by group in linalg_<group>.cu (cuda_table.hpp): device loops
// for small matrices, cuBLAS and cuSOLVER for large and batched ones (docs/linalg.md).
#include "cuda_table.hpp"
#include "loom/plugin.hpp"

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "linalg", loom::Family::cuda,
                              &loom::linalg::register_linalg_cuda, nullptr}))
