// Catalogue triggers of loom::random (docs/errors.md, "Random numbers"): Generator's bad shapes,
// dtypes, ranges, out= arrays and index_base, a generator out of call numbers, a negative state
// count.
#include <cstdint>

#include "catalogue.hpp"
#include "loom/def/ufunc.hpp"
#include "loom/element_index.hpp"
#include "loom/random_arrays.hpp"
#include "trigger_helpers.hpp"

namespace loom {

using namespace catalogue;  // NOLINT: the helpers of this file

namespace {

using random::Generator;

// A binary ufunc that draws: x + y + a uniform of the element's index.
struct NoisyAdd {
  double operator()(ElementIndex e, double x, double y) const {
    return x + y + random::Philox(5).uniform_float64(e.i);
  }
};

// A runtime where the program defined noisy_add (the math plugin is not needed for these).
Runtime& drawing_rt() {
  static Runtime r;
  static const bool defined = [] {
    r.define("app", [](Registrar& reg) {
      def::ufunc<NoisyAdd, double(double, double)>(reg, "noisy_add", "x + y + U(0, 1)");
    });
    return true;
  }();
  (void)defined;
  return r;
}

const TriggerSet random_triggers = {
    {"E-SHAPE-RANDOM-NEGATIVE",
     [] {
       Generator(1).uniform(rt(), {2, -3}, DType::float32, {.target = "cpu"});
     }},
    {"E-TYPE-RANDOM-DTYPE",
     [] { Generator(1).uniform(rt(), {4}, DType::int32, {.target = "cpu"}); }},
    {"E-TYPE-RANDOM-OUT",
     [] { Generator(1).uniform(rt(), {4}, DType::float32, {.target = "cpu", .out = zeros({4})}); }},
    {"E-SHAPE-RANDOM-OUT",
     [] {
       Generator(1).normal(rt(), {2, 2}, DType::float64, {.target = "cpu", .out = zeros({4})});
     }},
    {"E-VALUE-RANDOM-RANGE",
     [] { Generator(1).integers(rt(), 5, 5, {4}, DType::int64, {.target = "cpu"}); }},
    {"E-VALUE-RANDOM-BOUNDS",
     [] { Generator(1).integers(rt(), 0, 300, {4}, DType::uint8, {.target = "cpu"}); }},
    {"E-VALUE-RANDOM-CALLS",
     [] {
       Generator g(1, 2, 0xFFFFFFFFu);
       g.uniform(rt(), {3}, DType::float32, {.target = "cpu"});  // the last call number
       g.uniform(rt(), {3}, DType::float32, {.target = "cpu"});
     }},
    {"E-TYPE-INDEXED-METHOD", [] { drawing_rt().ufunc("noisy_add").reduce(zeros({4})); }},
    {"E-VALUE-INDEX-BASE",
     [] { drawing_rt().ufunc("noisy_add")(zeros({3}), zeros({3}), {.index_base = -1}); }},
    {"E-VALUE-RANDOM-INDEX-BASE",
     [] { Generator(1).uniform(rt(), {3}, DType::float64, {.target = "cpu", .index_base = -1}); }},
    {"E-VALUE-XOROSHIRO-N",
     [] { random::create_xoroshiro128p_states(rt(), -2, 1, {.target = "cpu"}); }},
};

}  // namespace
}  // namespace loom
