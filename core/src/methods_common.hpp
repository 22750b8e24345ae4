// What the ufunc methods (reduce, accumulate, reduceat, outer, at) share. Internal to the core.
#pragma once
#include <optional>
#include <string>

#include "call_common.hpp"

namespace loom::detail {

// ValueError unless the op is a ufunc with two inputs and one output, naming the method.
void require_binary(const OpDesc& op, const char* method);
// where= as NumPy takes it: a boolean array (TypeError for any other dtype, as NumPy refuses the
// cast to bool under 'safe' casting whatever the call's casting rule).
const Array& where_mask(const Array& mask, const std::string& who);
// The T(T,T) loop of a reduction-like method: dtype= (or out='s dtype) exactly where the op has
// such a loop; else NumPy's resolution (add and multiply widen small integers to 64 bits).
const Loop& pick_reduce_loop(const OpDesc& op, Family family, const Array& x,
                             std::optional<DType> dtype, const std::string& who);
// where= without an identity on an op that is not reorderable: folds each output's selected
// elements (along `axis`, -1 for none) in order into res, which holds the start value.
void masked_ordered_fold(const Target& t, const LoopImpl& impl, DType dt, const Array& xin,
                         const Array& mask, int axis, const Array& res);
Array run_reduction(const Runtime& rt, const OpDesc& op, const Array& x, const ReduceOptions& o,
                    bool default_all);

}  // namespace loom::detail
