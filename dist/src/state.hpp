// Internal: what a DistArray holds, and helpers the call files share.
#pragma once
#include <string>

#include "loom/dist/array.hpp"

namespace loom::dist {

struct DistArray::State {
  Comm comm;
  Shape shape;  // global
  DType dtype = DType::float64;
  std::string target;
  Rows rows;
  int halo = 0;
  loom::Array storage;  // rows.size() + 2 * halo rows, C-contiguous
  loom::Array local;    // the owned rows: storage's rows [halo, halo + rows.size())
};

namespace detail {

// A DistArray over `storage` (C-contiguous, rows + 2 * halo rows on this rank).
DistArray make(const Comm& comm, Shape global, DType dtype, std::string target, loom::Array storage,
               int halo = 0);

// "float64 (10, 3)": what the ranks compare before a call.
std::string describe(const DistArray& a);
std::string describe(DType dtype, const Shape& shape);

// What a replicated operand holds, for the ranks to compare before a call (each rank passes its
// own copy, and a copy that differs would silently give each rank its own answer): " = 10.0" for
// one element, else " bytes #<hash>" (FNV-1a of its C-order bytes). A device array is read back.
std::string describe_values(const Runtime& rt, const loom::Array& a);

// The runtime's default for "", else `target`, checked (TargetError when unknown or unavailable).
std::string resolve(const Runtime& rt, const std::string& target);

// `a` as a C-contiguous array on the same device (itself when it already is one).
loom::Array contiguous(const Runtime& rt, const loom::Array& a);

// Shape with axis 0 replaced by `rows`.
Shape with_rows(const Shape& s, std::int64_t rows);

}  // namespace detail
}  // namespace loom::dist
