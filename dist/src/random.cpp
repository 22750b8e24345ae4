// loom::dist::random: loom::random::Generator's arrays drawn by rows on every rank
// (loom/dist/random.hpp). A draw is a pure function of (seed, stream, call, global element index),
// so each rank drawing its rows at their first global index gives the one-process array's bits.
#include "loom/dist/random.hpp"

#include <string>

#include "agree.hpp"
#include "loom/dist/error.hpp"
#include "state.hpp"

namespace loom::dist::random {

namespace {

using loom::random::Generator;

std::string generator_str(const Generator& g) {
  return "Generator(seed=" + std::to_string(g.seed()) + ", stream=" + std::to_string(g.stream()) +
         ") at call " + std::to_string(g.next_call());
}

// The call on every rank: `args` and the generator are what the ranks compare; `draw(g, shape,
// options)` is the one-process call on this rank's rows.
template <class Draw>
DistArray drawn(const Runtime& rt, const Comm& comm, Generator& gen, const std::string& name,
                const std::string& args, const Shape& global, DType dtype, const RandomOptions& o,
                Draw&& draw) {
  const std::string what = "loom::dist::random::" + name;
  std::string target;
  detail::agree_on_call(
      comm, what,
      [&] {
        if (global.empty()) {
          throw DistributionError(what +
                                  ": a distributed array needs an axis 0 to split; got shape ()");
        }
        // Before block_rows sees the shape; the one-process call's error (E-SHAPE-RANDOM-NEGATIVE).
        for (std::size_t k = 0; k < global.size(); ++k) {
          if (global[k] < 0) {
            throw ShapeError("Generator." + name + ": negative dimension " +
                             std::to_string(global[k]) + " at axis " + std::to_string(k) +
                             " of shape " + shape_str(global));
          }
        }
        if (o.out) {
          if (!(o.out->comm() == comm)) {
            throw DistributionError(what +
                                    ": out= lives on another communicator; make it on the "
                                    "communicator the call is given");
          }
          if (o.out->shape() != global || o.out->dtype() != dtype) {
            throw DistributionError(what + ": out= is " + detail::describe(*o.out) +
                                    ", the call draws " + detail::describe(dtype, global) +
                                    "; give an out= of the call's global shape and dtype");
          }
          target = o.out->target();
        } else {
          target = detail::resolve(rt, o.target);
        }
        return name + (args.empty() ? "" : " " + args) + " " + detail::describe(dtype, global) +
               (o.out ? " into out=" : "") + " of " + generator_str(gen);
      },
      "make the same call on every rank with equal generators (the same seed, stream and next "
      "call: construct them alike and draw with them on every rank)");
  const Rows rows = block_rows(global[0], comm.size(), comm.rank());
  std::int64_t row_size = 1;
  for (std::size_t k = 1; k < global.size(); ++k) row_size *= global[k];
  // A copy draws, so that a call that fails on any rank advances no rank's generator.
  Generator g = gen;
  loom::Array shard;
  detail::agree(comm, what, [&] {
    loom::random::RandomOptions lo{.target = target, .index_base = rows.begin * row_size};
    if (o.out) lo.out = o.out->local();
    shard = draw(g, detail::with_rows(global, rows.size()), lo);
  });
  gen = g;
  if (o.out) return *o.out;
  return detail::make(comm, global, dtype, target, shard);
}

}  // namespace

DistArray uniform(const Runtime& rt, const Comm& comm, Generator& gen, const Shape& global_shape,
                  DType dtype, const RandomOptions& o) {
  return drawn(rt, comm, gen, "uniform", "", global_shape, dtype, o,
               [&](Generator& g, const Shape& s, const loom::random::RandomOptions& lo) {
                 return g.uniform(rt, s, dtype, lo);
               });
}

DistArray normal(const Runtime& rt, const Comm& comm, Generator& gen, const Shape& global_shape,
                 DType dtype, const RandomOptions& o) {
  return drawn(rt, comm, gen, "normal", "", global_shape, dtype, o,
               [&](Generator& g, const Shape& s, const loom::random::RandomOptions& lo) {
                 return g.normal(rt, s, dtype, lo);
               });
}

DistArray integers(const Runtime& rt, const Comm& comm, Generator& gen, std::int64_t low,
                   std::int64_t high, const Shape& global_shape, DType dtype,
                   const RandomOptions& o) {
  // Appended piece by piece: GCC 12 warns (-Wrestrict, wrongly) on "[" + std::to_string(...).
  std::string range = "[";
  range.append(std::to_string(low)).append(", ").append(std::to_string(high)).append(")");
  return drawn(rt, comm, gen, "integers", range, global_shape, dtype, o,
               [&](Generator& g, const Shape& s, const loom::random::RandomOptions& lo) {
                 return g.integers(rt, low, high, s, dtype, lo);
               });
}

}  // namespace loom::dist::random
