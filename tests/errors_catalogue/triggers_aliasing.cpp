// Catalogue triggers of issue 12's read-only arrays (docs/errors.md): writes into a broadcast view
// or wrapped const memory through out=, ufunc.at, copy_to and a kernel's written argument; a
// writeable array whose elements repeat (a stride-0 axis) as a kernel's written argument.
#include <vector>

#include "catalogue.hpp"
#include "loom/runtime.hpp"
#include "trigger_helpers.hpp"

namespace loom {

using namespace catalogue;  // NOLINT: the helpers of this file

namespace {

const TriggerSet aliasing = {
    {"E-VALUE-READONLY-OUT",
     [] {
       const Array x = zeros({4});
       rt().ufunc("add")(x, x, {.out = {zeros({1}).broadcast_to({4})}});
     }},
    {"E-VALUE-SELF-OVERLAP",
     [] {
       static std::vector<double> memory(4, 0.0);  // (2, 3) with strides (8, 8): (0, 1) is (1, 0)
       const Array a = wrap(memory.data(), {2, 3}, DType::float64, {8, 8});
       rt().ufunc("add")(a, 1.0, {.out = {a}});
     }},
    {"E-VALUE-READONLY-AT",
     [] {
       static const std::vector<double> memory(4, 0.0);
       rt().ufunc("add").at(wrap(memory.data(), {4}, DType::float64), arange(2), 1.0);
     }},
    {"E-VALUE-READONLY-COPY", [] { rt().copy_to(zeros({3}), zeros({1}).broadcast_to({3})); }},
    {"E-VALUE-READONLY-KERNEL",
     [] {
       const Array x = zeros({4});
       rt().kernel("add_kernel")
           .launch({.blocks = 1, .threads = 4, .target = "cpu"}, x, x,
                   zeros({1}).broadcast_to({4}));
     }},
    {"E-VALUE-KERNEL-REPEATS",
     [] {
       // The stride trick: a writeable view of one element four times (broadcast_to's would be
       // read-only, E-VALUE-READONLY-KERNEL).
       const Array x = zeros({4});
       const Array out(x.buffer(), DType::float64, {4}, {0});
       rt().kernel("add_kernel").launch({.blocks = 1, .threads = 4, .target = "cpu"}, x, x, out);
     }},
};

}  // namespace

}  // namespace loom
