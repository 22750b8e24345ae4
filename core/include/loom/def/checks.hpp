// Compile-time checks of a def:: table line: every declared signature must fit what the functor
// accepts for that loop, else a static_assert names the rule broken, the parameter (counted from
// 1) and what to write instead. docs/plugins.md, "What a functor must look like", lists the rules
// and these messages. The desc builders (desc.hpp, kernel_desc.hpp) run the checks and build no
// loop when they fail, so a wrong functor gives these errors and not template errors from deep
// inside the loops. Host and nvcc alike: no xsimd or CUDA header.
//
// Exact types, no conversions: a double(double) signature on a float functor would compute the
// float64 loop in float, an int64 parameter on a float signature would read 8 bytes from a 4-byte
// element. NumPy's and Numba's loops compute in the declared types; so do loom's.
#pragma once
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "loom/def/call_selection.hpp"
#include "loom/def/check_messages.hpp"
#include "loom/def/functor_parts.hpp"
#include "loom/def/kernel_checks.hpp"
#include "loom/def/signature_of.hpp"
#include "loom/def/signature_rules.hpp"
#include "loom/dtype.hpp"
#include "loom/element_index.hpp"
#include "loom/hd.hpp"
#include "loom/view.hpp"
