// The host half of a one-op plugin (docs/plugins.md, "Writing an op plugin").
#include "loom/def/ufunc.hpp"
#include "loom/plugin.hpp"
#include "sumsq.hpp"
LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "sumsq", loom::Family::host, &sumsq::register_ops,
                              nullptr}))
