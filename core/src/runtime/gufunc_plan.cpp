// NumPy's gufunc keyword rules (numpy/_core/src/umath/ufunc_object.c: _check_keepdims_support,
// _check_axis_support, _validate_num_dims, _parse_axes_arg, _parse_axis_arg) as a plan of views.
#include "runtime/gufunc_plan.hpp"

#include <algorithm>
#include <string>

namespace loom::detail {

namespace {

std::string who(const OpDesc& op) {
  return "gufunc '" + op.name + "' with layout " + op.layout->str();
}

std::string list_str(const std::vector<int>& v) {
  std::string s = "(";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + (v.size() == 1 ? ",)" : ")");
}

// NumPy: keepdims only where every input has as many core dims as the first and outputs none.
void check_keepdims(const OpDesc& op) {
  const Layout& L = *op.layout;
  for (int a = 1; a < L.nargs(); ++a) {
    const int want = a < L.nin ? L.core_num_dims[0] : 0;
    if (L.core_num_dims[a] == want) continue;
    const bool in = a < L.nin;
    throw TypeError(who(op) + " does not take keepdims=: its " + (in ? "input " : "output ") +
                    std::to_string(in ? a : a - L.nin) + " has " +
                    std::to_string(L.core_num_dims[a]) +
                    " core dimension(s), but keepdims= needs every input to have as many as "
                    "input 0 (" +
                    std::to_string(L.core_num_dims[0]) + ") and every output none");
  }
}

// NumPy: axis= only with a single distinct core dim (loom also refuses one operand holding it
// twice, "(n,n)", which NumPy's remap does not handle).
void check_axis(const OpDesc& op) {
  const Layout& L = *op.layout;
  bool twice = false;
  for (int n : L.core_num_dims) twice = twice || n > 1;
  if (L.dim_names.size() != 1 || twice) {
    throw TypeError(who(op) +
                    " does not take axis=: axis= needs a single core dimension shared "
                    "by the operands, not the " +
                    std::to_string(L.dim_names.size()) +
                    " distinct one(s) of this layout (one per operand at most); use axes=");
  }
}

int normalize(const OpDesc& op, int axis, int ndim, const std::string& where) {
  if (axis < -ndim || axis >= ndim) {
    throw ValueError(who(op) + ": " + where + ": axis " + std::to_string(axis) +
                     " is out of bounds for an operand of dimension " + std::to_string(ndim));
  }
  return axis < 0 ? axis + ndim : axis;
}

}  // namespace

void refuse_gufunc_options(const OpDesc& op, const CallOptions& o) {
  if (o.axes.empty() && !o.axis && !o.keepdims) return;
  const char* which = !o.axes.empty() ? "axes=" : o.axis ? "axis=" : "keepdims=";
  throw TypeError(std::string(name(op.kind)) + " '" + op.name + "' does not take " + which +
                  ": axes=, axis= and keepdims= are for gufuncs (ops with a layout), as in NumPy");
}

GufuncPlan plan_gufunc(const OpDesc& op, std::span<const Array> inputs, std::span<const Array> outs,
                       const CallOptions& o) {
  const Layout& L = *op.layout;
  const int nin = L.nin, nop = L.nargs();
  if (!o.axes.empty() && o.axis) {
    throw TypeError(who(op) + ": give axes= or axis=, not both");
  }
  if (o.axis) check_axis(op);
  if (o.keepdims) check_keepdims(op);
  GufuncPlan p;
  p.op = &op;
  p.keepdims = o.keepdims.value_or(false);
  p.missing.assign(L.dim_names.size(), 0);
  p.op_core = L.core_num_dims;
  if (p.keepdims) {
    for (int a = nin; a < nop; ++a) p.op_core[a] = L.core_num_dims[0];
  }
  auto given = [&](int a) -> const Array* {
    if (a < nin) return &inputs[a];
    return outs.empty() ? nullptr : &outs[a - nin];
  };
  // Flexible dims: an operand with too few dims drops its flexible ones, first to last, from
  // every operand that uses them (NumPy's _validate_num_dims).
  for (int a = 0; a < nop; ++a) {
    const Array* arr = given(a);
    if (!arr) continue;
    const int nd = arr->ndim();
    for (int j = 0; j < L.core_num_dims[a] && nd < p.op_core[a]; ++j) {
      const int ix = L.core_dim_ixs[L.core_offsets[a] + j];
      if (!L.dim_flexible[ix] || p.missing[ix]) continue;
      p.missing[ix] = 1;
      for (int b = 0; b < nop; ++b) {
        for (int k = 0; k < L.core_num_dims[b]; ++k) {
          if (L.core_dim_ixs[L.core_offsets[b] + k] == ix) --p.op_core[b];
        }
      }
    }
    if (nd < p.op_core[a]) {
      throw ShapeError(who(op) + ": argument " + std::to_string(a) + " has " + std::to_string(nd) +
                       " dimension(s) but needs at least " + std::to_string(p.op_core[a]) +
                       " core dimension(s)");
    }
  }
  for (int a = 0; a < nop; ++a) {
    if (const Array* arr = given(a))
      p.loop_ndim = std::max(p.loop_ndim, arr->ndim() - p.op_core[a]);
  }
  p.remap.assign(nop, {});
  auto op_ndim = [&](int a) {
    const Array* arr = given(a);
    return arr ? arr->ndim() : p.loop_ndim + p.op_core[a];
  };
  if (!o.axes.empty()) {
    const int n = static_cast<int>(o.axes.size());
    bool out_core = false;
    for (int a = nin; a < nop; ++a) out_core = out_core || L.core_num_dims[a] > 0;
    if (n != nop && (n != nin || out_core)) {
      throw ValueError(who(op) + ": axes= has " + std::to_string(n) +
                       " entries but needs one for each of the " + std::to_string(nop) +
                       " operands (those of the outputs may be left out only when no output has "
                       "core dimensions)");
    }
    for (int a = 0; a < n; ++a) {
      const std::vector<int>& t = o.axes[a];
      const int nd = op_ndim(a), nc = p.op_core[a], nb = nd - nc;
      if (static_cast<int>(t.size()) != nc) {
        throw ValueError(who(op) + ": axes= entry " + std::to_string(a) + " " + list_str(t) +
                         " names " + std::to_string(t.size()) + " axes but argument " +
                         std::to_string(a) + " has " + std::to_string(nc) +
                         " core dimension(s) in this call");
      }
      std::vector<int> remap(nd, -1);
      std::vector<char> seen(nd, 0);
      for (int j = 0; j < nc; ++j) {
        const int ax = normalize(op, t[j], nd, "axes= entry " + std::to_string(a));
        if (seen[ax]) {
          throw ValueError(who(op) + ": axes= entry " + std::to_string(a) + " " + list_str(t) +
                           " names axis " + std::to_string(ax) + " twice");
        }
        seen[ax] = 1;
        remap[nb + j] = ax;
      }
      for (int m = 0, ax = 0; m < nb; ++m, ++ax) {
        while (seen[ax]) ++ax;
        remap[m] = ax;
      }
      bool identity = true;
      for (int m = 0; m < nd; ++m) identity = identity && remap[m] == m;
      if (!identity) p.remap[a] = std::move(remap);
    }
  } else if (o.axis) {
    for (int a = 0; a < nop; ++a) {
      if (p.op_core[a] == 0) continue;
      const int nd = op_ndim(a);
      const int ax = normalize(op, *o.axis, nd, "axis= for argument " + std::to_string(a));
      if (ax == nd - 1) continue;
      std::vector<int> remap(nd);
      for (int m = 0; m < nd - 1; ++m) remap[m] = m < ax ? m : m + 1;
      remap[nd - 1] = ax;
      p.remap[a] = std::move(remap);
    }
  }
  return p;
}

bool GufuncPlan::transforms(int a) const {
  const Layout& L = *op->layout;
  if (!remap[a].empty() || (keepdims && a >= L.nin && op_core[a] > 0)) return true;
  return op_core[a] != L.core_num_dims[a];  // a dropped flexible dim
}

Array GufuncPlan::loop_view(int a, const Array& arr) const {
  if (!transforms(a)) return arr;
  const Layout& L = *op->layout;
  const Array v = remap[a].empty() ? arr : arr.transpose(remap[a]);
  const int lead = v.ndim() - op_core[a];
  Shape shape(v.shape().begin(), v.shape().begin() + lead);
  Shape strides(v.strides().begin(), v.strides().begin() + lead);
  if (keepdims && a >= L.nin) {
    for (int j = 0; j < op_core[a]; ++j) {
      if (v.shape()[lead + j] == 1) continue;
      throw ShapeError(who(*op) + ": out= array " + std::to_string(a - L.nin) + " has size " +
                       std::to_string(v.shape()[lead + j]) + " on axis " +
                       std::to_string(caller_axis(a, arr.ndim(), j)) +
                       ", which keepdims=true keeps with size 1");
    }
  } else {
    int k = lead;
    for (int j = 0; j < L.core_num_dims[a]; ++j) {
      if (missing[L.core_dim_ixs[L.core_offsets[a] + j]]) {
        shape.push_back(1);
        strides.push_back(0);
      } else {
        shape.push_back(v.shape()[k]);
        strides.push_back(v.strides()[k++]);
      }
    }
  }
  Array out(v.buffer(), v.dtype(), std::move(shape), std::move(strides), v.offset());
  return v.writeable() ? out : out.as_readonly();
}

Shape GufuncPlan::caller_shape(int a, const Shape& loop_view_shape) const {
  const Layout& L = *op->layout;
  const int nc = L.core_num_dims[a];
  const int lead = static_cast<int>(loop_view_shape.size()) - nc;
  Shape moved(loop_view_shape.begin(), loop_view_shape.begin() + lead);
  if (keepdims && a >= L.nin) {
    for (int j = 0; j < op_core[a]; ++j) moved.push_back(1);
  } else {
    for (int j = 0; j < nc; ++j) {
      if (!missing[L.core_dim_ixs[L.core_offsets[a] + j]])
        moved.push_back(loop_view_shape[lead + j]);
    }
  }
  if (remap[a].empty()) return moved;
  Shape shape(moved.size(), 0);
  for (std::size_t m = 0; m < moved.size(); ++m) shape[remap[a][m]] = moved[m];
  return shape;
}

int GufuncPlan::caller_axis(int a, int ndim, int j) const {
  const Layout& L = *op->layout;
  int m = ndim - op_core[a] + j;
  if (!(keepdims && a >= L.nin)) {
    for (int k = 0; k < j; ++k) m -= missing[L.core_dim_ixs[L.core_offsets[a] + k]] ? 1 : 0;
  }
  return remap[a].empty() ? m : remap[a][m];
}

}  // namespace loom::detail
