// What the ufunc methods (reduce, accumulate, reduceat, outer, at) share. Internal to the core.
#pragma once
#include <optional>
#include <string>

#include "runtime/call_common.hpp"

namespace loom::detail {

// ValueError unless the op is a ufunc with two inputs and one output, naming the method.
void require_binary(const OpDesc& op, const char* method);
// where= as NumPy takes it: a boolean array (TypeError for any other dtype, as NumPy refuses the
// cast to bool under 'safe' casting whatever the call's casting rule).
const Array& where_mask(const Array& mask, const std::string& who);
// NumPy's dtype of a reduction-like method when something fixes it: dtype= or out='s dtype
// (`forced`), or add and multiply (sum, prod) widening bools and narrow integers to 64 bits;
// nullopt: the loop the input's dtype resolves to decides.
std::optional<DType> reduction_dtype(const OpDesc& op, DType x, std::optional<DType> forced);
// The T(T,T) loop for `want`: exactly where the op has one, else the first loop `want` (or, without
// it, the input's dtype x) casts to safely (the caller casts the result back to `want`).
const Loop& pick_reduce_loop(const OpDesc& op, Family family, DType x, std::optional<DType> want,
                             const std::string& who);
// A reduction-like method's types: the loop and its dtype dt, NumPy's result dtype `want` (the
// result is cast to it), and whether the input goes through `want` before dt (a dtype= the op
// has no loop of), and the dtype of NumPy's own loop (dtype=, else resolved from out= and the
// input; the loop that runs may be wider).
struct ReduceTypes {
  const Loop* loop;
  DType dt;
  DType want;
  bool cast_first;
  DType numpy_loop;
};
// NumPy's rules: dtype= is the loop's dtype; else out= with the input decides the loop (result
// cast into out= unsafely); else add and multiply widen, else the input's dtype resolves.
ReduceTypes resolve_reduction(const OpDesc& op, Family family, const Array& x,
                              std::optional<DType> dtype, const std::optional<Array>& out,
                              const std::string& who);
// x in the loop's dtype (through `want` first when cast_first), in x's memory.
Array cast_for_loop(const Target& t, const Array& x, const ReduceTypes& types);
// where= on an op without identity: folds each output's selected elements (over the reduced
// axes, in C order) into res, which holds the start value.
void masked_fold(const Target& t, const LoopImpl& impl, DType dt, const Array& xin,
                 const Array& mask, const std::vector<bool>& reduced, bool reorderable,
                 const Array& res);
// The op's identity (it must have one) as a 0-d host array of dtype dt.
Array identity_value(const OpDesc& op, DType dt, const std::string& who);
Array run_reduction(const Runtime& rt, const OpDesc& op, const Array& x, const ReduceOptions& o,
                    bool default_all);

}  // namespace loom::detail
