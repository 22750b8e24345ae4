// A backend-only plugin whose backend constructor throws: refused (E-PLUGIN-BACKEND-START).
#include <stdexcept>

#include "loom/plugin.hpp"

namespace {
loom::Backend* make_backend() { throw std::runtime_error("deliberate failure in make_backend"); }
}  // namespace

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "backend_throws", loom::Family::host, nullptr,
                              &make_backend}))
