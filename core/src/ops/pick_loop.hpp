// The loop of an op for a call's input arrays: their dtypes and weak flags handed to
// resolve_loop (loom/type_resolution.hpp). Internal to the core.
#pragma once
#include <optional>
#include <span>
#include <string>

#include "loom/array.hpp"
#include "loom/type_resolution.hpp"

namespace loom::detail {

// Loop for these inputs (after argument-count checks); a weak int out of its loop input's
// integer range is refused (E-VALUE-WEAK-INT-RANGE), or compared by value (equal, less, ...).
const Loop& pick_loop(const OpDesc& op, Family family, std::span<const Array> inputs,
                      std::optional<DType> dtype, const std::string& signature, Casting casting);

// weak_int_range.cpp. Whether every weak int input (a C++ int) fits its loop input's dtype.
bool weak_ints_fit(const Loop& l, std::span<const Array* const> in);
bool weak_ints_fit(const Loop& l, std::span<const Array> in);
// A comparison without signature= of a weak int that an integer input's dtype cannot hold, or a
// logical op's weak int that loop l's input cannot hold: marks it a strong int64 in dts/weak
// (NumPy 2 takes it by value) and returns true.
bool take_weak_ints_by_value(const OpDesc& op, const Loop& l, const std::string& signature,
                             std::span<const Array> in, std::span<DType> dts, std::span<bool> weak);
// Whether op is one of NumPy's comparisons (equal, less, ...) / logical ops (logical_and, ...).
bool comparison(const OpDesc& op);
bool logical(const OpDesc& op);
// ValueError naming the value and the dtype: a weak int the loop's integer input cannot hold.
void refuse_weak_int_range(const OpDesc& op, const Loop& l, std::span<const Array> in);

}  // namespace loom::detail
