// loom::random's Generator on distributed arrays (docs/random.md, "Distributed arrays"): each rank
// draws its own rows at their global offset, so the ranks' rows together are the array one
// process draws with the same generator, for any rank count. Collective.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "loom/dist/array.hpp"
#include "loom/random_arrays.hpp"
#include "loom/runtime.hpp"

namespace loom::dist::random {

struct RandomOptions {
  std::string target{};            // this rank's target; "" = the runtime's default (as zeros's)
  std::optional<DistArray> out{};  // fill this array (the call's global shape and dtype, on comm)
};

// Call number c of `gen` as a DistArray of `global_shape` split by rows over `comm`: rank r's rows
// are rows block_rows(shape[0], size, r) of loom::random::Generator's array for call c, drawn
// where they live (RandomOptions::index_base = first row x row size). Every rank passes an equal
// generator (the same seed, stream and next call: DistributionError otherwise) and each advances
// it by one call, only when every rank drew; a call that raises on any rank leaves every rank's
// generator as it was. Errors are Generator's (E-SHAPE-RANDOM-NEGATIVE, E-TYPE-RANDOM-DTYPE, ...),
// raised on every rank.
DistArray uniform(const Runtime& rt, const Comm& comm, loom::random::Generator& gen,
                  const Shape& global_shape, DType dtype = DType::float64,
                  const RandomOptions& o = {});
DistArray normal(const Runtime& rt, const Comm& comm, loom::random::Generator& gen,
                 const Shape& global_shape, DType dtype = DType::float64,
                 const RandomOptions& o = {});
DistArray integers(const Runtime& rt, const Comm& comm, loom::random::Generator& gen,
                   std::int64_t low, std::int64_t high, const Shape& global_shape,
                   DType dtype = DType::int64, const RandomOptions& o = {});

}  // namespace loom::dist::random
