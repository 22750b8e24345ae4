// Catalogue triggers of checked gufunc calls (CallOptions::checked, LOOM_CHECKED=1;
// docs/kernels.md, "Checked gufunc calls"): a bad core-dimension index and a hand-written loop that
// cannot be checked (the device set's refusal is in triggers_device_set.cpp). The gufuncs are
// defined by the trigger itself (Runtime::define) on a runtime of its own.
#include "catalogue.hpp"
#include "loom/def/gufunc.hpp"
#include "loom/registry.hpp"
#include "trigger_helpers.hpp"

namespace loom {
namespace {

using namespace catalogue;  // NOLINT: the helpers of this file

// out = x[n]: the classic off-by-one, one past every row.
struct LastPlusOne {
  void operator()(View<const double, 1> x, double& out) const { out = x(x.size()); }
};

void hand_loop(char**, const std::int64_t*, const std::int64_t*, const void*) {}

const TriggerSet gufunc_checked = {
    {"E-INDEX-GUFUNC-CHECKED",
     [] {
       Runtime r;
       r.define("cat", [](Registrar& reg) {
         def::gufunc<LastPlusOne, double(double)>(reg, "cat_last_plus_one", "(n)->()", "x[n]");
       });
       r.gufunc("cat_last_plus_one")(zeros({2, 3}), {.target = "cpu", .checked = true});
     }},
    {"E-TYPE-GUFUNC-UNCHECKED",
     [] {
       Runtime r;
       r.define("cat", [](Registrar& reg) {
         def::gufunc<LastPlusOne, double(double)>(reg, "cat_hand", "(n)->()", "hand-written");
         LoopImpl impl;
         impl.host = &hand_loop;
         impl.hand_written = "a hand-written loop";
         reg.replace_loop("cat_hand", "float64(float64)", impl);
       });
       r.gufunc("cat_hand")(zeros({2, 3}), {.target = "cpu", .checked = true});
     }},
};

}  // namespace
}  // namespace loom
