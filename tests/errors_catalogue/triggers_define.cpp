// Catalogue triggers for ops the program defines itself (Runtime::define, issue 13): the same
// registry rules as plugins, worded for the program, and the checks before anything is defined.
#include "catalogue.hpp"
#include "loom/def/gufunc.hpp"
#include "loom/def/ufunc.hpp"
#include "loom/registry.hpp"
#include "trigger_helpers.hpp"

namespace loom {
namespace {

using namespace catalogue;

// x + y of an int8 and a float64: a loop no build of math's add has.
struct MixedAdd {
  double operator()(std::int8_t x, double y) const { return x + y; }
};

void host_kernel(const KernelCall&, std::int64_t, std::int64_t, const void*) {}
void device_kernel(KernelCall&, const void*) {}

// One kernel "k(float32[:])" with this family's loop, as the def tables would stage it.
KernelDesc one_kernel(Family family, bool sync) {
  KernelDesc k;
  k.name = std::string("k");  // a move: assigning the literal trips GCC 12's -Wrestrict
  KernelOverload o;
  o.params.push_back(KernelParam{true, DType::float32, 1, true});
  o.uses_syncthreads = sync;
  if (family == Family::host) {
    o.impl[static_cast<int>(family)].host = &host_kernel;
  } else {
    o.impl[static_cast<int>(family)].device = &device_kernel;
  }
  k.overloads.push_back(o);
  return k;
}

const TriggerSet define = {
    {"E-VALUE-DEFINE-ARGS", [] { rt().define("", [](Registrar&) {}); }},
    {"E-TARGET-DEFINE-NO-BACKEND",
     [] {
       // The test plugins' folder holds no backend: neither cpu nor cuda runs here.
       Runtime r(RuntimeOptions{.plugin_path = {kGoodDir}, .use_default_path = false});
       r.define("app", Family::cuda, [](Registrar&) {});
     }},
    {"E-PLUGIN-DEFINE-DUPLICATE",
     [] {
       Runtime r;
       auto twice = [](Registrar& reg) { def::ufunc<Plus, double(double, double)>(reg, "op", ""); };
       r.define("app", twice);
       r.define("app", twice);
     }},
    {"E-PLUGIN-DEFINE-FOREIGN-LOOPS",
     [] {
       // A loop the math plugin's add lacks (and NumPy's): refused all the same.
       Runtime r;
       r.define("app", [](Registrar& reg) {
         def::ufunc<MixedAdd, double(std::int8_t, double)>(reg, "add", "", def::identity(0));
       });
     }},
    {"E-PLUGIN-DEFINE-KIND-MISMATCH",
     [] {
       Runtime r;
       r.define("app", [](Registrar& reg) {
         def::gufunc<Dot2, double(double, double)>(reg, "hypot", "(n),(n)->(n)", "");
       });
     }},
    {"E-PLUGIN-DEFINE-TRAITS-MISMATCH",
     [] {
       Runtime r;
       r.define("app", [](Registrar& reg) {
         def::ufunc<Plus, double(double, double)>(reg, "op", "", def::identity(0));
       });
       r.define("app", [](Registrar& reg) {
         def::ufunc<Plus, float(float, float)>(reg, "op", "", def::reorderable);
       });
     }},
    {"E-PLUGIN-DEFINE-KERNEL-SYNC-MISMATCH",
     [] {
       // The program's host and CUDA halves of one kernel disagree; merged as Runtime::define
       // does, with a stand-in CUDA loop (no cuda backend needed to reach the check).
       Registry registry;
       Registrar host(Family::host), cuda(Family::cuda);
       host.add_kernel(one_kernel(Family::host, true));
       cuda.add_kernel(one_kernel(Family::cuda, false));
       registry.merge_program(host, "app");
       registry.merge_program(cuda, "app");
     }},
};

}  // namespace
}  // namespace loom
