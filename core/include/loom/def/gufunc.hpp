// def::gufunc<F, Sigs...>(reg, name, layout, doc): a generalized ufunc from a functor called once
// per instance with one argument per operand — View<const T, N> for an input with N core dims,
// T for a scalar input, View<T, N> or T& for an output, T the signature's dtype at that position.
// The signature lists element dtypes, as for ufuncs: float(float, float) for dot. A template
// operator() is instantiated with each signature's own types (checks.hpp says how). Each
// signature gets two loops: the fast one, and a checked one for CallOptions::checked (every View
// bounds-checked; docs/kernels.md, "Checked gufunc calls").
#pragma once
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "loom/def/desc.hpp"
#include "loom/def/ufunc.hpp"
#include "loom/view.hpp"

namespace loom::def {

namespace detail {

// What a gufunc loop needs besides its pointers: the functor and each argument's core dims.
template <class F>
struct GuData {
  F f{};
  int nargs = 0;
  std::vector<int> offsets;  // into ixs, per argument
  std::vector<int> ixs;      // core dim index (into dims + 1) of each argument's core dims
};

template <class P>
P make_arg(char* p, const std::int64_t* core_dims, const int* ixs, const std::int64_t* steps) {
  using D = std::remove_cvref_t<P>;
  if constexpr (std::is_lvalue_reference_v<P>) {
    return *reinterpret_cast<D*>(p);
  } else if constexpr (std::is_arithmetic_v<D>) {
    return *reinterpret_cast<const D*>(p);
  } else {
    D v;
    v.data = reinterpret_cast<decltype(v.data)>(p);
    for (int k = 0; k < arg_rank<D>::value; ++k) {
      v.shape[k] = core_dims[ixs[k]];
      v.strides[k] = steps[k];
    }
    return v;
  }
}

template <class F, class Sig, class Args, std::size_t... I>
void gu_loop_impl(char** args, const std::int64_t* dims, const std::int64_t* steps,
                  const GuData<F>& g, std::index_sequence<I...>) {
  constexpr int nargs = sizeof...(I);
  const std::int64_t* core_dims = dims + 1;
  const std::int64_t* core_steps = steps + nargs;
  for (std::int64_t i = 0; i < dims[0]; ++i) {
    gufunc_fn<F, Sig>::call(g.f, make_arg<std::tuple_element_t<I, Args>>(
                                     args[I] + i * steps[I], core_dims, g.ixs.data() + g.offsets[I],
                                     core_steps + g.offsets[I])...);
  }
}

// The loop of signature Sig: the operator() checks.hpp picked for it (gufunc_fn).
template <class F, class Sig>
void gu_loop(char** args, const std::int64_t* dims, const std::int64_t* steps, const void* data) {
  using Args = gufunc_args<F, Sig>;
  gu_loop_impl<F, Sig, Args>(args, dims, steps, *static_cast<const GuData<F>*>(data),
                             std::make_index_sequence<std::tuple_size_v<Args>>{});
}

// The checked instantiation's argument: a View pointing at its operand's ViewCheck; scalars and
// references as they are (nothing to index).
template <class P>
P checked_arg(char* p, const std::int64_t* core_dims, const int* ixs, const std::int64_t* steps,
              loom::detail::ViewCheck* c) {
  using D = std::remove_cvref_t<P>;
  if constexpr (std::is_lvalue_reference_v<P> || std::is_arithmetic_v<D>) {
    (void)c;
    return make_arg<P>(p, core_dims, ixs, steps);
  } else {
    D v = make_arg<P>(p, core_dims, ixs, steps);
    v.check = c;
    return v;
  }
}

// The checked loop: a separate function, so that the fast loop above compiles as it did. Each
// operand has a ViewCheck naming it, and each instance's flat index is written into them before
// the functor runs, so that a bad access records the operand, the instance and the index.
template <class F, class Sig, class Args, std::size_t... I>
void gu_checked_impl(char** args, const std::int64_t* dims, const std::int64_t* steps,
                     std::int64_t first, loom::detail::CheckRecord* record, const GuData<F>& g,
                     std::index_sequence<I...>) {
  constexpr int nargs = sizeof...(I);
  const std::int64_t* core_dims = dims + 1;
  const std::int64_t* core_steps = steps + nargs;
  loom::detail::ViewCheck vc[nargs];
  for (int a = 0; a < nargs; ++a) {
    vc[a].record = record;
    vc[a].arg = a;
  }
  for (std::int64_t i = 0; i < dims[0]; ++i) {
    for (auto& c : vc) c.instance = first + i;
    gufunc_fn<F, Sig>::call(g.f, checked_arg<std::tuple_element_t<I, Args>>(
                                     args[I] + i * steps[I], core_dims, g.ixs.data() + g.offsets[I],
                                     core_steps + g.offsets[I], &vc[I])...);
  }
}

template <class F, class Sig>
void gu_checked_loop(char** args, const std::int64_t* dims, const std::int64_t* steps,
                     std::int64_t first, loom::detail::CheckRecord* record, const void* data) {
  using Args = gufunc_args<F, Sig>;
  gu_checked_impl<F, Sig, Args>(args, dims, steps, first, record,
                                *static_cast<const GuData<F>*>(data),
                                std::make_index_sequence<std::tuple_size_v<Args>>{});
}

}  // namespace detail

template <class F, class... Sigs>
void gufunc(Registrar& reg, std::string name, const std::string& layout, std::string doc) {
  // One GuData per op: it carries the layout tables the loop needs (plugin lifetime).
  static std::vector<std::unique_ptr<detail::GuData<F>>> keep;
  auto g = std::make_unique<detail::GuData<F>>();
  OpDesc d = gufunc_desc<F, Sigs...>(
      std::move(name), layout, std::move(doc), [&](LoopImpl* impl, auto sig) {
        using S = typename decltype(sig)::type;
        impl[static_cast<int>(Family::host)].host = &detail::gu_loop<F, S>;
        impl[static_cast<int>(Family::host)].host_checked = &detail::gu_checked_loop<F, S>;
        impl[static_cast<int>(Family::host)].data = g.get();
      });
  g->nargs = d.layout->nargs();
  g->offsets = d.layout->core_offsets;
  g->ixs = d.layout->core_dim_ixs;
  keep.push_back(std::move(g));
  reg.add(std::move(d));
}

}  // namespace loom::def
