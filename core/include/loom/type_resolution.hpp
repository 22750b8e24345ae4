// Type resolution: NumPy's linear search — the first loop, in declaration order, that every input
// casts to under the input casting rule — with dtype= and signature= overrides, cached per op.
#pragma once
#include <optional>
#include <span>
#include <string>

#include "loom/op.hpp"

namespace loom {

struct ResolveRequest {
  Family family = Family::host;
  std::span<const DType> inputs;
  std::span<const bool> weak;  // NEP 50 weak scalars (C++ double and int literals)
  std::optional<DType> dtype;  // the output dtype the caller asked for
  std::string signature;       // an exact loop the caller asked for
  Casting casting = Casting::same_kind;
};

// Index of the loop to run; TypeError listing the input dtypes and every signature when none
// fits; LookupError when the op has no loops for the family at all.
int resolve_loop(const OpDesc& op, const ResolveRequest& r);

}  // namespace loom
