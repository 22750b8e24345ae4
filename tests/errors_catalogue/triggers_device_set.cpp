// Catalogue triggers of device sets (docs/multi-gpu.md): on the test backend multidev (three host
// devices, tests/plugins/multidev) with the math plugin of this build, so no GPU is needed except
// for the stream entry.
#include "catalogue.hpp"
#include "loom/def/kernel.hpp"
#include "loom/runtime.hpp"
#include "trigger_helpers.hpp"

namespace loom {

using namespace catalogue;  // NOLINT: the helpers of this file

namespace {

// The runtime a user gets plus the multidev backend, and a kernel of the program's with two
// writable arguments.
struct TwoOutputs {
  void operator()(const ThreadCtx& t, View<double> a, View<double> b) const {
    const std::int64_t i = t.grid();
    if (i < a.size()) a(i) = 1;
    if (i < b.size()) b(i) = 2;
  }
};
Runtime& set_rt() {
  static Runtime r(RuntimeOptions{.plugin_path = {LOOM_CAT_MULTIDEV_DIR}});
  static const bool defined = [] {
    r.define("catalogue", [](Registrar& reg) { def::kernel<TwoOutputs>(reg, "cat_two_outputs"); });
    return true;
  }();
  (void)defined;
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
    {"E-SHARDED-EMPTY", [] { set_rt().to_host(ShardedArray()); }},
    {"E-SHARDED-SHARDS",
     [] { ShardedArray("multidev:all", {"multidev:0"}, {}, {3}, Sharding::split); }},
    {"E-SHARDED-SHARD-SHAPE",
     [] {
       ShardedArray("multidev:0,1", {"multidev:0", "multidev:1"}, {zeros({2}), zeros({2})}, {3},
                    Sharding::split);
     }},
    {"E-SHARDED-TO-DEVICES-HOST", [] { set_rt().to_devices(fake_device({4}), "multidev:all"); }},
    {"E-SHARDED-TO-DEVICES-0D", [] { set_rt().to_devices(zeros({}), "multidev:all"); }},
    {"E-SHARDED-OPTIONS",
     [] {
       const ShardedArray s = set_rt().to_devices(zeros({3, 2}), "multidev:all");
       set_rt().ufunc("add")(s, s, {.target = "cpu"});
     }},
    {"E-SHARDED-OUTPUTS",
     [] {
       const ShardedArray s = set_rt().to_devices(zeros({3, 2}), "multidev:all");
       set_rt().ufunc("divmod")(s, s);
     }},
    {"E-SHARDED-MIXED-DEVICES",
     [] {
       const Array x = zeros({3, 2});
       set_rt().ufunc("add")(set_rt().to_devices(x, "multidev:all"),
                             set_rt().to_devices(x, "multidev:0,1"));
     }},
    {"E-SHARDED-MIXED-ROWS",
     [] {
       set_rt().ufunc("add")(set_rt().to_devices(zeros({3, 2}), "multidev:all"),
                             set_rt().to_devices(zeros({4, 2}), "multidev:all"));
     }},
    {"E-SHARDED-NOT-LOOP-DIM",
     [] {
       set_rt().ufunc("add")(set_rt().to_devices(zeros({2}), "multidev:all"),
                             set_rt().to_devices(zeros({3, 2}), "multidev:all"));
     }},
    {"E-SHARDED-REDUCE-AXES",
     [] {
       set_rt().reduce("sum")(set_rt().to_devices(zeros({3, 2}), "multidev:all"), {.axis = 1});
     }},
    {"E-SHARDED-NOT-REORDERABLE",
     [] {
       set_rt().ufunc("subtract").reduce(set_rt().to_devices(zeros({3, 2}), "multidev:all"));
     }},
    {"E-SHARDED-COMBINE-COLLECTIVE",
     [] {
       set_rt().reduce("max")(set_rt().to_devices(zeros({3, 2}), "multidev:all"),
                              {.combine = Combine::collective});
     }},
    {"E-DEVICE-SET-COMBINE-COLLECTIVE",
     [] {
       set_rt().reduce("sum")(zeros({3, 2}),
                              {.target = "multidev:all", .combine = Combine::collective});
     }},
    {"E-NCCL-GROUP-ID",
     [] {
       need_gpu();
       Collectives* c = rt().collectives("cuda");
       if (!c) throw Skip{"libloom_nccl.so is not on the plugin path (built where nccl.h is)"};
       if (auto a = c->availability(); !a.ok) throw Skip{"NCCL unavailable: " + a.reason};
       c->join_group("abc", 2, 0, 0);
     }},
    {"E-NCCL-CALL",
     [] {
       need_gpu();
       Collectives* c = rt().collectives("cuda");
       if (!c) throw Skip{"libloom_nccl.so is not on the plugin path (built where nccl.h is)"};
       if (auto a = c->availability(); !a.ok) throw Skip{"NCCL unavailable: " + a.reason};
       // A rank outside the group: NCCL refuses it before any connection is tried.
       c->join_group(c->make_group_id(), 1, 5, 0);
     }},
    {"E-DEVICE-SET-KERNEL-DEVICE-ARRAY",
     [] {
       const Array d = fake_device({4});
       set_rt()
           .kernel("square_kernel")
           .launch({.blocks = 1, .threads = 4, .target = "multidev:all"}, d, d);
     }},
    {"E-DEVICE-SET-KERNEL-CHECKED",
     [] {
       const Array x = zeros({4});
       Array y = zeros({4});
       set_rt()
           .kernel("square_kernel")
           .launch({.blocks = 1, .threads = 4, .checked = true, .target = "multidev:all"}, x, y);
     }},
    {"E-DEVICE-SET-GUFUNC-CHECKED",
     [] {
       set_rt().gufunc("dot")(zeros({4, 3}), zeros({4, 3}),
                              {.target = "multidev:all", .checked = true});
     }},
    {"E-DEVICE-SET-KERNEL-OVERLAP",
     [] {
       const Array a = zeros({8});
       set_rt()
           .kernel("cat_two_outputs")
           .launch({.blocks = 2, .threads = 4, .target = "multidev:all"}, a, a.slice(0, 2, 6));
     }},
    {"E-DEVICE-SET-KERNEL-MERGE",
     [] {
       const Array x = arange(0, 100).astype(DType::float64);
       const Array hist = zeros({10}).astype(DType::int32);
       set_rt()
           .kernel("histogram")
           .launch({.blocks = 4, .threads = 32, .target = "multidev:all"}, x, 0.0, 100.0, hist);
     }},
    {"E-DEVICE-SET-NOT-REORDERABLE",
     [] { set_rt().ufunc("subtract").reduce(zeros({4}), {.target = "multidev:all"}); }},
};

}  // namespace
}  // namespace loom
