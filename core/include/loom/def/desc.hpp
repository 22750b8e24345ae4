// Descriptor building shared by the host (.hpp) and CUDA (.cuh) def headers: the OpDesc of a
// ufunc or gufunc with its signatures and checks; each build fills its own family's loop slots.
#pragma once
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "loom/def/checks.hpp"
#include "loom/def/signature_of.hpp"
#include "loom/error.hpp"
#include "loom/registry.hpp"
#include "loom/view.hpp"

namespace loom::def {

namespace detail {

// Core-dim count of a gufunc functor parameter: N for View<T, N>, 0 for a scalar or T&.
template <class P>
struct arg_rank {
  static constexpr int value = 0;
};
template <class T, int N>
struct arg_rank<View<T, N>> {
  static constexpr int value = N;
};

template <class Args, std::size_t... I>
std::vector<int> ranks_of(std::index_sequence<I...>) {
  return {arg_rank<std::remove_cvref_t<std::tuple_element_t<I, Args>>>::value...};
}

}  // namespace detail

// The declarations of ReduceTraits by name: identity(0) for add, identity(1) for multiply,
// `reorderable` for maximum and minimum (no identity), nothing for subtract and divide.
constexpr ReduceTraits identity(double v) { return {v, true}; }
inline constexpr ReduceTraits reorderable{std::nullopt, true};

// fill(LoopImpl* impls, std::type_identity<Sig>) sets the slot of the build's family. F is
// checked against every signature first (checks.hpp); no loop is built when it does not fit, so
// that the checks' messages are the only errors.
template <class F, class... Sigs, class Fill>
OpDesc ufunc_desc(std::string name, std::string doc, ReduceTraits traits, Fill&& fill) {
  static_assert(sizeof...(Sigs) > 0, "a ufunc needs at least one signature");
  OpDesc d;
  d.name = std::move(name);
  d.doc = std::move(doc);
  d.kind = OpKind::ufunc;
  using First = sig_traits<std::tuple_element_t<0, std::tuple<Sigs...>>>;
  d.nin = First::nin;
  d.nout = First::nout;
  d.identity = traits.identity;
  d.reorderable = traits.reorderable;
  if constexpr (detail::check_signatures<detail::check_kind::ufunc, F, Sigs...>()) {
    (
        [&] {
          Loop l;
          l.sig = sig_traits<Sigs>::signature();
          fill(l.impl, std::type_identity<Sigs>{});
          d.loops.push_back(std::move(l));
        }(),
        ...);
  }
  return d;
}

// The operator() a signature uses (checks.hpp: a non-template one, or a template instantiated
// with that signature's types) must take one argument per operand with the layout's core-dim
// counts; PluginError otherwise. fill(LoopImpl*, type_identity<Sig>).
template <class F, class... Sigs, class Fill>
OpDesc gufunc_desc(std::string name, const std::string& layout, std::string doc, Fill&& fill) {
  OpDesc d;
  d.name = std::move(name);
  d.doc = std::move(doc);
  d.kind = OpKind::gufunc;
  d.layout = Layout::parse(layout);
  d.nin = d.layout->nin;
  d.nout = d.layout->nout;
  if constexpr (detail::check_signatures<detail::check_kind::gufunc, F, Sigs...>()) {
    (
        [&] {
          using Args = detail::gufunc_args<F, Sigs>;
          if (std::tuple_size_v<Args> != static_cast<std::size_t>(d.layout->nargs())) {
            throw PluginError("gufunc '" + d.name + "': the functor takes " +
                              std::to_string(std::tuple_size_v<Args>) + " arguments but layout " +
                              layout + " has " + std::to_string(d.layout->nargs()));
          }
          const auto ranks =
              detail::ranks_of<Args>(std::make_index_sequence<std::tuple_size_v<Args>>{});
          if (ranks != d.layout->core_num_dims) {
            throw PluginError("gufunc '" + d.name + "': the functor's views do not have the core " +
                              "dimension counts of layout " + layout);
          }
          Loop l;
          l.sig = sig_traits<Sigs>::signature();
          fill(l.impl, std::type_identity<Sigs>{});
          d.loops.push_back(std::move(l));
        }(),
        ...);
  }
  return d;
}

// A reduction from a binary op T(T,T): its loops print as T(T), the reduction's view of the op.
// traits: the identity, the value of an empty reduction (0 for sum, 1 for prod; none for max and
// min, whose empty reduction is an error unless the call gives `initial`), and reorderability.
template <class F, class... Sigs, class Fill>
OpDesc reduce_desc(std::string name, ReduceTraits traits, std::string doc, Fill&& fill) {
  OpDesc d;
  d.name = std::move(name);
  d.doc = std::move(doc);
  d.kind = OpKind::reduce;
  d.nin = 1;
  d.nout = 1;
  d.identity = traits.identity;
  d.reorderable = traits.reorderable;
  if constexpr (detail::check_signatures<detail::check_kind::reduce, F, Sigs...>()) {
    (
        [&] {
          Loop l;
          l.sig = sig_traits<Sigs>::signature();
          l.sig.inputs.resize(1);
          fill(l.impl, std::type_identity<Sigs>{});
          d.loops.push_back(std::move(l));
        }(),
        ...);
  }
  return d;
}

}  // namespace loom::def
