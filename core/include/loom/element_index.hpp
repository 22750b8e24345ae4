// loom::ElementIndex: what a def::ufunc functor takes as its first parameter to learn which
// element it computes (docs/random.md, "Ufuncs that draw"), so that an elementwise op can draw
// counter-based random numbers with the same bits on every target and chunking.
#pragma once
#include <cstdint>

#include "loom/hd.hpp"

namespace loom {

// The C-order flat index of the element being computed in the call's broadcast output shape,
// plus CallOptions::index_base: element (r, c) of an (R, C) result is r * C + c whatever the
// strides of out=, where= or the inputs, and however the target splits the call. It is not an
// input: the op's signature lists only the operands.
struct ElementIndex {
  std::int64_t i = 0;
};

}  // namespace loom
