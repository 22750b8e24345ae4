// Catalogue triggers of issue 12's checked shape arithmetic (docs/errors.md): shapes, strides and
// byte counts that overflow int64 or leave a buffer, wrap's pointer checks, arange's length and
// shared_array's byte count.
#include <cmath>
#include <cstdint>

#include "catalogue.hpp"
#include "loom/shape_check.hpp"
#include "loom/thread_ctx.hpp"
#include "trigger_helpers.hpp"

namespace loom {

using namespace catalogue;  // NOLINT: the helpers of this file

namespace {

constexpr std::int64_t k2to62 = std::int64_t{1} << 62;

const TriggerSet shapes = {
    {"E-SHAPE-TOO-BIG", [] { empty({std::int64_t{1} << 61}); }},
    {"E-SHAPE-SIZE-OVERFLOW",
     [] {
       shape_size(Shape{k2to62, 4});
     }},
    {"E-SHAPE-BROADCAST-TOO-LARGE",
     [] {
       rt().ufunc("add")(zeros({1}, DType::uint8).broadcast_to({k2to62, 1}),
                         zeros({4}, DType::uint8));
     }},
    {"E-SHAPE-STRIDE-EXTENT",
     [] {
       static double d[4];
       wrap(d, {3, 2}, DType::float64, {k2to62, 8});
     }},
    {"E-SHAPE-VIEW-BOUNDS", [] { Array(allocate_host(8), DType::float64, {2}, {8}); }},
    {"E-VALUE-WRAP-NULL", [] { wrap(nullptr, {4}, DType::float64); }},
    {"E-VALUE-WRAP-STRIDES", [] { wrap(reinterpret_cast<void*>(16), {4}, DType::float64, {-8}); }},
    {"E-VALUE-ARANGE-LENGTH", [] { arange(0.0, NAN); }},
    {"E-VALUE-ARANGE-SIZE", [] { arange(0.0, INFINITY); }},
    {"E-LAUNCH-SHARED-ARRAY-SIZE",
     [] {
       ThreadCtx t;
       t.shared_bytes = 16;
       t.shared_array<float>(k2to62);
     }},
    {"E-LAUNCH-SHARED-ARRAY-SHAPE",
     [] {
       ThreadCtx t;
       t.shared_bytes = 16;
       t.shared_array<float>({3, -1});
     }},
};

}  // namespace
}  // namespace loom
