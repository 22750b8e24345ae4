// The loop of an op for a call's input arrays: their dtypes and weak flags handed to
// resolve_loop (loom/type_resolution.hpp). Internal to the core.
#pragma once
#include <optional>
#include <span>
#include <string>

#include "loom/array.hpp"
#include "loom/type_resolution.hpp"

namespace loom::detail {

// Loop for these inputs (after argument-count checks).
const Loop& pick_loop(const OpDesc& op, Family family, std::span<const Array> inputs,
                      std::optional<DType> dtype, const std::string& signature, Casting casting);

}  // namespace loom::detail
