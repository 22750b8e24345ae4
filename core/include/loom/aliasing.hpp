// What two arrays share, and who may write an array: the checks every call makes between its
// inputs and the arrays it writes (NumPy's may_share_memory and flags.writeable). The rules are
// in docs/reliability.md, "Overlap and read-only arrays".
#pragma once
#include <string>

#include "loom/array.hpp"

namespace loom {

// Whether a and b may touch a common byte, by address (not by buffer: two wraps of one memory
// overlap too; device pointers compare as ranges of the unified address space). Never false when
// they do share a byte; true for some that do not (strided views whose elements interleave in
// ways the cheap test below does not resolve). The test: the byte ranges [lowest, highest] of
// both views, then, where those meet, a residue test (every element of a view starts at its
// first byte plus a multiple of the gcd g of all strides, so x[::2] and x[1::2] cannot meet).
// Zero-size arrays share nothing.
bool may_share_memory(const Array& a, const Array& b);

// NumPy's exception for elementwise operations: the same first byte, shape, strides and dtype,
// and no element repeated (no zero stride on an axis longer than 1), so element i of one is
// element i of the other and an in-place loop reads each element before it writes it.
bool same_elements(const Array& a, const Array& b);

// ValueError unless `a` is writeable, as NumPy's "output array is read-only": `who` names the
// call ("ufunc 'add'"), `arg` the argument ("out= array 0").
void require_writeable(const Array& a, const std::string& who, const std::string& arg);

// Every axis of more than one element steps past all that the axes of smaller strides reach:
// sufficient for distinct elements (NumPy's quick test), and true for every C or F layout. A
// false answer is "maybe": require_no_self_overlap decides.
bool clearly_distinct(const Array& a);

// ValueError if two elements of `a` share a byte (a view that overlaps itself: an Eigen map with
// outer stride 1 through as_array, a wrap with such strides), which a call must not write: its
// result would depend on the order of the writes (docs/decisions.md). Exact: a cheap sufficient
// test, then the elements' addresses for views of up to 2^24 elements; larger views that the
// cheap test cannot clear are refused as possibly overlapping.
void require_no_self_overlap(const Array& a, const std::string& who, const std::string& arg);

}  // namespace loom
