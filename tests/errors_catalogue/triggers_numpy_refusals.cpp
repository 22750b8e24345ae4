// Catalogue triggers for the calls loom refuses because NumPy does (issue 28): a resolver's
// refusal where a loop would take the inputs, and a Python int its loop's dtype cannot hold.
#include "catalogue.hpp"
#include "loom/runtime.hpp"
#include "trigger_helpers.hpp"

namespace loom {
namespace {

using catalogue::rt;

const TriggerSet numpy_refusals = {
    {"E-TYPE-BOOL-INPUTS",
     [] {
       rt().ufunc("subtract")(array({true, false}), array({true, true}));
     }},
    {"E-TYPE-WEAK-EQUIV",
     [] {
       rt().ufunc("add")(array<std::int32_t>({1, 2}), 3, {.casting = Casting::equiv});
     }},
    {"E-VALUE-WEAK-INT-RANGE",
     [] {
       rt().ufunc("add")(array<std::int8_t>({1, 2}), 300);
     }},
};

}  // namespace
}  // namespace loom
