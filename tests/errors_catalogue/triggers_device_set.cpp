// Catalogue triggers of device sets (docs/multi-gpu.md): on the test backend multidev (three host
// devices, tests/plugins/multidev) with the math plugin of this build, so no GPU is needed except
// for the stream entry.
#include "catalogue.hpp"
#include "loom/runtime.hpp"
#include "trigger_helpers.hpp"

namespace loom {

using namespace catalogue;  // NOLINT: the helpers of this file

namespace {

// The runtime a user gets plus the multidev backend.
Runtime& set_rt() {
  static Runtime r(RuntimeOptions{.plugin_path = {LOOM_CAT_MULTIDEV_DIR}});
  return r;
}

const TriggerSet device_sets = {
    {"E-TARGET-SET-REPEAT", [] { set_rt().device_targets("multidev:0,0"); }},
    {"E-TARGET-SET-EMPTY-ENTRY", [] { set_rt().device_targets("multidev:0,"); }},
    {"E-TARGET-SET-ONE-DEVICE",
     [] { set_rt().ufunc("add").accumulate(arange(4), {.target = "multidev:all"}); }},
    {"E-DEVICE-SET-DEVICE-ARRAY",
     [] {
       const Array d = fake_device({4});
       set_rt().ufunc("add")(d, d, {.target = "multidev:all"});
     }},
    {"E-DEVICE-SET-STREAM",
     [] {
       need_gpu();
       const Array x = zeros({4});
       rt().ufunc("add")(x, x, {.target = "cuda:all", .stream = rt().stream("cuda:0")});
     }},
    {"E-DEVICE-SET-GUFUNC-AXES",
     [] {
       const Array a = zeros({2, 2});
       set_rt().ufunc("matmul")(a, a, {.target = "multidev:all", .axes = {{0, 1}, {0, 1}, {0, 1}}});
     }},
    {"E-DEVICE-SET-NOT-REORDERABLE",
     [] { set_rt().ufunc("subtract").reduce(zeros({4}), {.target = "multidev:all"}); }},
};

}  // namespace
}  // namespace loom
