// The one symbol a plugin or backend library exports: LOOM_PLUGIN(info) publishes a PluginInfo
// whose first field is the ABI version, checked before anything else in it is used.
#pragma once
#include <boost/dll/alias.hpp>
#include <cstdint>

#include "loom/backend.hpp"
#include "loom/collective.hpp"
#include "loom/registry.hpp"

namespace loom {

// Bump whenever PluginInfo, Backend, the call structs, OpDesc, KernelDesc or the loop ABIs
// change.
// 9: element indices (LoopImpl::host_index, index_base); 10: checked launches (KernelCall::check,
// View::check, ThreadCtx::check); 11: checked gufunc calls (LoopImpl::host_checked,
// device_checks, GufuncCall::check, CheckRecord::arg and instance, ViewCheck::arg and instance).
inline constexpr std::uint32_t kAbiVersion = 12;

struct PluginInfo {
  std::uint32_t abi_version;  // must stay first
  const char* name;           // "math", "serial"
  Family family;              // which loop slot its ops fill / which loops its backend runs
  void (*register_ops)(Registrar& reg);  // null for a backend-only library
  Backend* (*make_backend)();            // null for an ops-only library
};

}  // namespace loom

// Exports `loom_plugin`, returning the library's PluginInfo.
#define LOOM_PLUGIN(info_expr)                        \
  namespace {                                         \
  const ::loom::PluginInfo* loom_plugin_entry() {     \
    static const ::loom::PluginInfo info = info_expr; \
    return &info;                                     \
  }                                                   \
  }                                                   \
  BOOST_DLL_ALIAS(loom_plugin_entry, loom_plugin)

// A library may also export `loom_collectives` (beside LOOM_PLUGIN): a factory of the collectives
// of one backend's devices (loom/collective.hpp; libloom_nccl.so for cuda). The loader makes one
// when it loads the library; one library a backend target.
#define LOOM_COLLECTIVES(factory)                                     \
  namespace {                                                         \
  ::loom::Collectives* loom_collectives_entry() { return factory(); } \
  }                                                                   \
  BOOST_DLL_ALIAS(loom_collectives_entry, loom_collectives)
