// How each operand of a gufunc call maps to the view its loop sees, with NumPy's rules for axes=,
// axis=, keepdims= and flexible core dims "n?". Done as a view transform in the core, so every
// backend gets core dims last and the layout's full core rank. Internal to the core.
#pragma once
#include <span>
#include <vector>

#include "loom/layout.hpp"
#include "loom/runtime.hpp"

namespace loom::detail {

struct GufuncPlan {
  const OpDesc* op = nullptr;
  std::vector<char> missing;  // per layout dim: a flexible dim this call drops (loop sees size 1)
  std::vector<int> op_core;   // per operand: how many core dims the caller's array has
  int loop_ndim = 0;          // loop dims of the widest operand (NumPy's broadcast_ndim)
  bool keepdims = false;
  // Per operand: remap[a][m] is the caller's axis that the moved view's axis m comes from (core
  // dims last). Empty: the caller's axes as they are.
  std::vector<std::vector<int>> remap;

  // True when operand a's loop view is not simply the caller's array.
  bool transforms(int a) const;
  // The view of operand a that the loop gets: core dims last, a dropped flexible dim as a size-1
  // axis, keepdims' size-1 core dims of an output removed.
  Array loop_view(int a, const Array& arr) const;
  // The caller's shape of a fresh output a, from its loop view's shape.
  Shape caller_shape(int a, const Shape& loop_view_shape) const;
  // The caller's axis of core dim j (of the layout's) of operand a with `ndim` dims: for messages.
  int caller_axis(int a, int ndim, int j) const;
};

// Checks the options against the op (TypeError where NumPy refuses a keyword for this signature,
// ValueError for bad axes, ShapeError for an operand with too few dims) and plans the call.
// `outs` is empty or one array per output.
GufuncPlan plan_gufunc(const OpDesc& op, std::span<const Array> inputs, std::span<const Array> outs,
                       const CallOptions& o);

// ufuncs refuse the gufunc keywords (NumPy: an unexpected keyword argument).
void refuse_gufunc_options(const OpDesc& op, const CallOptions& o);

}  // namespace loom::detail
