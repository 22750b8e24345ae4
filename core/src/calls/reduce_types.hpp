// What reduce_types.cpp gives run_reduction (reduce_call.cpp) beyond the types every
// reduction-like method shares (methods_common.hpp): initial= in the loop's dtype, and whether
// out= can take the fold's partial results as NumPy's would. Internal to the core.
#pragma once
#include <cstdint>
#include <string>

#include "calls/methods_common.hpp"

namespace loom::detail {

// initial= as a 0-d array of the loop's dtype, exactly (NumPy converts it as a Python scalar: a
// float into an integer loop truncates; a value outside the integer dtype's range is an error).
Array exact_initial(const Array& v, DType dt, const std::string& who);

// NumPy's reduce accumulates in out=: the start value goes into out= first (initial= or the
// identity, cast to out='s dtype; or, for an op without an identity or with initial=None, the
// first element, cast from the input's dtype), then into the loop's dtype with the rest, and
// past its buffer of 8192 elements the partial results pass through out= at each flush. loom
// folds in the loop's dtype and casts once. The two agree where nothing is lost on the way
// through out=: the start value is exact in out='s dtype (the input's dtype casts to it safely,
// for a first element), the loop's dtype does for an input past the buffer, or both are
// integers under + - * & | ^ (which wrap alike). Elsewhere a reduce is refused:
// np.minimum.reduce(int16 [-3, 5], out=<uint8>) is 5 in NumPy (-3 started in out= as 253),
// np.add.reduce(np.full(20000, 0.3), out=<int64>) is 5998. accumulate and reduceat cast each result
// once in NumPy too, so they are not checked.
enum class Start { identity, initial, first_element };
// TypeError where they would not agree.
void require_out_holds_loop(const OpDesc& op, const Array& out, DType loop, DType input,
                            Start start, const Initial& initial, std::int64_t count,
                            const std::string& who);

}  // namespace loom::detail
