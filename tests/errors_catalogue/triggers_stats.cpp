// Catalogue triggers of loom::stats (docs/errors.md, "Statistics"): bad axes, ddof, dtypes,
// out= and where= arrays, options NumPy does not take, empty and all-NaN arg reductions, and
// bincount's, average's and histogram's bad inputs.
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

#include "catalogue.hpp"
#include "loom/stats.hpp"
#include "trigger_helpers.hpp"

namespace loom {

using namespace catalogue;  // NOLINT: the helpers of this file

namespace {

const double kNan = std::numeric_limits<double>::quiet_NaN();

const TriggerSet stats_triggers = {
    {"E-VALUE-STATS-AXIS",
     [] {
       stats::mean(rt(), zeros({2, 3}), {.axis = 3, .target = "cpu"});
     }},
    {"E-VALUE-STATS-DDOF", [] { stats::var(rt(), zeros({3}), {.ddof = -1, .target = "cpu"}); }},
    {"E-TYPE-STATS-DTYPE",
     [] { stats::mean(rt(), zeros({3}), {.dtype = DType::int32, .target = "cpu"}); }},
    {"E-TYPE-STATS-INPUT",
     [] { stats::mean(rt(), zeros({3}, DType::complex64), {.target = "cpu"}); }},
    {"E-TYPE-STATS-OUT",
     [] { stats::var(rt(), zeros({4}, DType::float32), {.out = zeros({}), .target = "cpu"}); }},
    {"E-SHAPE-STATS-OUT",
     [] {
       stats::mean(rt(), zeros({2, 3}), {.axis = 1, .out = zeros({3}), .target = "cpu"});
     }},
    {"E-TYPE-STATS-WHERE",
     [] { stats::mean(rt(), zeros({3}), {.where = zeros({3}), .target = "cpu"}); }},
    {"E-VALUE-STATS-OPTION",
     [] { stats::ptp(rt(), zeros({3}), {.where = zeros({3}, DType::bool_), .target = "cpu"}); }},
    {"E-VALUE-STATS-NANEXTREME-WHERE",
     [] { stats::nanmax(rt(), zeros({3}), {.where = zeros({3}, DType::bool_), .target = "cpu"}); }},
    {"E-VALUE-STATS-ARG-EMPTY", [] { stats::argmax(rt(), zeros({0}), {.target = "cpu"}); }},
    {"E-VALUE-STATS-ALL-NAN",
     [] {
       stats::nanargmax(rt(), from_vector(std::vector<double>{kNan, kNan}), {.target = "cpu"});
     }},
    {"E-SHAPE-BINCOUNT-NDIM",
     [] {
       stats::bincount(rt(), zeros({2, 2}, DType::int64), {.target = "cpu"});
     }},
    {"E-TYPE-BINCOUNT-DTYPE", [] { stats::bincount(rt(), zeros({3}), {.target = "cpu"}); }},
    {"E-VALUE-BINCOUNT-MINLENGTH",
     [] { stats::bincount(rt(), zeros({3}, DType::int64), {.minlength = -1, .target = "cpu"}); }},
    {"E-VALUE-BINCOUNT-NEGATIVE",
     [] {
       stats::bincount(rt(), from_vector(std::vector<std::int32_t>{1, -1}), {.target = "cpu"});
     }},
    {"E-VALUE-BINCOUNT-LARGE",
     [] {
       stats::bincount(
           rt(), from_vector(std::vector<std::uint64_t>{std::numeric_limits<std::uint64_t>::max()}),
           {.target = "cpu"});
     }},
    {"E-SHAPE-STATS-WEIGHTS",
     [] {
       stats::bincount(rt(), zeros({4}, DType::int64), {.weights = zeros({3}), .target = "cpu"});
     }},
    {"E-VALUE-AVERAGE-ZERO-WEIGHTS",
     [] {
       stats::average(rt(), zeros({2, 3}), {.axis = 1, .weights = zeros({3}), .target = "cpu"});
     }},
    {"E-VALUE-HISTOGRAM-BINS", [] { stats::histogram(rt(), zeros({3}), 0, {.target = "cpu"}); }},
    {"E-VALUE-HISTOGRAM-RANGE",
     [] {
       stats::histogram(rt(), zeros({3}), 3, {.range = std::pair{2.0, 1.0}, .target = "cpu"});
     }},
    {"E-VALUE-HISTOGRAM-NONFINITE",
     [] {
       stats::histogram(rt(), from_vector(std::vector<double>{1, kNan}), 3, {.target = "cpu"});
     }},
};

}  // namespace
}  // namespace loom
