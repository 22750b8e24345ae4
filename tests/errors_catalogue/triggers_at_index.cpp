// Catalogue triggers of Ufunc::at with a tuple index (docs/errors.md, docs/methods.md "The
// methods"): too many entries, index arrays that do not broadcast, a zero slice step, and boolean
// indices of the wrong length or rank.
#include <cstdint>
#include <vector>

#include "catalogue.hpp"
#include "trigger_helpers.hpp"

namespace loom {

using namespace catalogue;  // NOLINT: the helpers of this file

namespace {

Array i64(std::vector<std::int64_t> v) { return from_vector(v); }

const TriggerSet at_index_triggers = {
    {"E-INDEX-UFUNC-AT-TOO-MANY",
     [] {
       rt().ufunc("add").at(zeros({2, 3}), {i64({0}), i64({0}), i64({0})}, 1.0);
     }},
    {"E-INDEX-UFUNC-AT-BROADCAST",
     [] {
       rt().ufunc("add").at(zeros({2, 3}), {i64({0, 1}), i64({0, 1, 2})}, 1.0);
     }},
    {"E-VALUE-UFUNC-AT-SLICE-STEP",
     [] {
       rt().ufunc("add").at(zeros({2, 3}), {Slice{.step = 0}}, 1.0);
     }},
    {"E-INDEX-UFUNC-AT-BOOL",
     [] {
       rt().ufunc("add").at(zeros({2, 3}), {from_vector(std::vector<bool>{true})}, 1.0);
     }},
    {"E-INDEX-UFUNC-AT-BOOL-NDIM",
     [] {
       rt().ufunc("add").at(zeros({2, 3}), {zeros({2, 3}, DType::bool_)}, 1.0);
     }},
};

}  // namespace
}  // namespace loom
