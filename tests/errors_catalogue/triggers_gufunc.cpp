// Catalogue triggers of the gufunc keywords (docs/errors.md, docs/methods.md "gufunc calls"):
// axes=, axis= and keepdims= where NumPy refuses them, bad axes, and out= of the wrong shape
// under keepdims=, on the math plugin's dot (n),(n)->(), linalg's matmul (m?,n),(n,p?)->(m?,p?)
// and add.
#include "catalogue.hpp"
#include "trigger_helpers.hpp"

namespace loom {

using namespace catalogue;  // NOLINT: the helpers of this file

namespace {

const TriggerSet gufunc_options = {
    {"E-TYPE-GUFUNC-OPTION", [] { rt().ufunc("add")(zeros({3}), zeros({3}), {.keepdims = true}); }},
    {"E-TYPE-GUFUNC-AXES-AXIS",
     [] {
       rt().gufunc("dot")(zeros({3}), zeros({3}), {.axes = {{0}, {0}}, .axis = 0});
     }},
    {"E-TYPE-GUFUNC-AXIS",
     [] {
       rt().gufunc("matmul")(zeros({3, 3}), zeros({3, 3}), {.axis = 0});
     }},
    {"E-TYPE-GUFUNC-KEEPDIMS",
     [] {
       rt().gufunc("matmul")(zeros({3, 3}), zeros({3, 3}), {.keepdims = false});
     }},
    {"E-VALUE-GUFUNC-AXES-COUNT",
     [] {
       rt().gufunc("dot")(zeros({3, 4}), zeros({3, 4}), {.axes = {{0}}});
     }},
    {"E-VALUE-GUFUNC-AXES-ENTRY",
     [] {
       rt().gufunc("dot")(zeros({3, 4}), zeros({3, 4}), {.axes = {{0, 1}, {0}}});
     }},
    {"E-VALUE-GUFUNC-AXIS",
     [] {
       rt().gufunc("dot")(zeros({3, 4}), zeros({3, 4}), {.axes = {{0}, {2}}});
     }},
    {"E-VALUE-GUFUNC-AXIS-TWICE",
     [] {
       rt().gufunc("matmul")(zeros({3, 3}), zeros({3, 3}), {.axes = {{0, -2}, {0, 1}, {0, 1}}});
     }},
    {"E-SHAPE-GUFUNC-KEEPDIMS-OUT",
     [] {
       rt().gufunc("dot")(zeros({3, 3}), zeros({3, 3}), {.out = {zeros({3, 2})}, .keepdims = true});
     }},
};

}  // namespace
}  // namespace loom
