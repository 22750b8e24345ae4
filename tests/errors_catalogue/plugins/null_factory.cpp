// A plugin whose loom_plugin factory returns null: refused (docs/errors.md, E-PLUGIN-NULL-FACTORY).
#include <boost/dll/alias.hpp>

#include "loom/plugin.hpp"

namespace {
const loom::PluginInfo* null_entry() { return nullptr; }
}  // namespace
BOOST_DLL_ALIAS(null_entry, loom_plugin)
