// The CUDA half of the same plugin: the same table with the .cuh headers. -DTABLE_ONLY leaves
// LOOM_PLUGIN (and Boost.DLL) to a .cpp file of the CUDA library, which then calls
// register_sumsq_cuda (docs/plugins.md, "What a definition costs to compile").
#include "loom/def/ufunc.cuh"
#ifndef TABLE_ONLY
#include "loom/plugin.hpp"
#endif
#include "sumsq.hpp"

#ifdef TABLE_ONLY
void register_sumsq_cuda(loom::Registrar& reg) { sumsq::register_ops(reg); }
#else
LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "sumsq", loom::Family::cuda, &sumsq::register_ops,
                              nullptr}))
#endif
