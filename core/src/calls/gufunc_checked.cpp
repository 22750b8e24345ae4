// Checked gufunc calls: see gufunc_checked.hpp.
#include "calls/gufunc_checked.hpp"

#include <cstring>
#include <string>

#include "loom/error.hpp"
#include "loom/runtime.hpp"

namespace loom::detail {

namespace {

std::string who(const OpDesc& op) { return "gufunc '" + op.name + "'"; }

// "(n, m)": the names of argument `arg`'s core dims in the layout.
std::string core_dims_of(const Layout& L, int arg) {
  std::string s = "(";
  for (int j = 0; j < L.core_num_dims[arg]; ++j) {
    s += (j ? ", " : "") + L.dim_names[L.core_dim_ixs[L.core_offsets[arg] + j]];
  }
  return s + ")";
}

// The flat instance as a position in the loop shape, C order ("(1, 2)"; "()" for a 0-d loop).
std::string loop_position(const Shape& shape, std::int64_t flat) {
  const int n = static_cast<int>(shape.size());
  std::vector<std::int64_t> at(n);
  for (int k = n - 1; k >= 0; --k) {
    const std::int64_t d = shape[k];
    at[k] = d > 0 ? flat % d : 0;
    flat = d > 0 ? flat / d : 0;
  }
  std::string s = "(";
  for (int k = 0; k < n; ++k) s += (k ? ", " : "") + std::to_string(at[k]);
  return s + (n == 1 ? ",)" : ")");
}

}  // namespace

GufuncCheck::GufuncCheck(const OpDesc& op, const Target& t, const Loop& loop, const CallOptions& o)
    : op_(op), t_(t), on_(o.checked || t.rt->checked_launches()) {
  if (!on_) return;
  const LoopImpl& impl = loop.impl[static_cast<int>(t.family)];
  const bool has = t.on_device() ? impl.device_checks : impl.host_checked != nullptr;
  if (has) return;
  // A loop def::gufunc did not build (cuSOLVER's, a plugin's replace_loop) runs no functor's
  // Views. Asked for by this call: refused, it cannot be checked. Under LOOM_CHECKED=1, which
  // checks whatever can be checked, it runs as it is (docs/kernels.md, "Checked gufunc calls").
  if (!o.checked) {
    on_ = false;
    return;
  }
  throw TypeError(who(op) + " loop " + loop.sig.str() + " on " + t.name +
                  " was not built by def::gufunc (" +
                  (impl.hand_written ? impl.hand_written : "a loop of the plugin's own") +
                  ") and has no checked instantiation; CallOptions::checked cannot check its " +
                  "accesses: call it unchecked, or check the def::gufunc loop it replaced");
}

CheckRecord* GufuncCheck::arm() {
  if (!on_) return nullptr;
  if (!t_.on_device()) return &record_;
  device_record_ = t_.rt->zeros({static_cast<std::int64_t>(sizeof record_)}, DType::uint8,
                                t_.device_name(), t_.stream);
  return reinterpret_cast<CheckRecord*>(device_record_.data());
}

void GufuncCheck::raise_if_failed(const GufuncCall& call, const Shape& loop_shape) {
  if (!on_) return;
  if (device_record_.valid()) {
    Array host = loom::empty({static_cast<std::int64_t>(sizeof record_)}, DType::uint8);
    t_.rt->copy_to(device_record_, host, t_.stream);
    t_.backend->synchronize(t_.device, call.stream);
    std::memcpy(&record_, host.data(), sizeof record_);
  }
  if (record_.flag == 0) return;
  const Layout& L = *op_.layout;
  const CheckRecord& r = record_;
  const int arg = r.arg;
  const std::string operand =
      arg < op_.nin ? "argument " + std::to_string(arg) : "output " + std::to_string(arg - op_.nin);
  // A row view (v[i]) drops leading axes: its axis k is the operand's core axis k + dropped.
  const int core = L.core_num_dims[arg];
  const int axis = r.axis + (core - r.ndim);
  const std::string dim =
      axis >= 0 && axis < core
          ? " (core dim '" + L.dim_names[L.core_dim_ixs[L.core_offsets[arg] + axis]] + "')"
          : "";
  throw IndexError(who(op_) + " with layout " + L.str() + ": " + operand + ", core dims " +
                   core_dims_of(L, arg) + ", at loop index " +
                   loop_position(loop_shape, r.instance) + " (instance " +
                   std::to_string(r.instance) + " of " + std::to_string(shape_size(loop_shape)) +
                   "): index " + std::to_string(r.index) + " is out of bounds for axis " +
                   std::to_string(r.axis) + dim + " with size " + std::to_string(r.size) + " (a " +
                   std::to_string(r.ndim) + "-d View)");
}

}  // namespace loom::detail
