// def::gufunc<F, Sigs...>(reg, name, layout, doc), the CUDA twin of gufunc.hpp: the functor is
// called once per instance with the same View / scalar / reference arguments as on the host. Many
// small instances: one thread each (grid-stride over the loop dims). A functor that also has
//   template <class T, class Team> LOOM_HD void operator()(const Team& team, View...) const
// gets a warp per instance instead when an instance is large (its first input has at least
// kTeamMinElements core elements); Team has rank(), size() and reduce(v, op) (Kokkos's team
// policy; on the host a team would be one thread: rank 0 of size 1). A checked call
// (GufuncCall::check) runs checked twins of the thread and team kernels. Only included by .cu
// files.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "loom/def/desc.hpp"
#include "loom/def/gufunc_checked.cuh"
#include "loom/def/gufunc_kernels.cuh"
#include "loom/def/gufunc_staged.cuh"
#include "loom/def/launch.cuh"
#include "loom/def/signature_of.hpp"
#include "loom/error.hpp"
#include "loom/layout.hpp"
#include "loom/registry.hpp"
#include "loom/view.hpp"

namespace loom::def {

namespace cu {

template <class F, class Targs, class... P>
constexpr bool team_ok(std::tuple<P...>*) {
  return gufunc_invoke<F, Targs>::template callable<const WarpTeam&, P...>;
}

// What a gufunc loop needs besides its pointers: the functor and each argument's core dims.
template <class F>
struct GuData {
  F f{};
  int nargs = 0;
  int nin = 0;
  std::vector<int> offsets;  // into ixs, per argument
  std::vector<int> ixs;      // core dim index of each argument's core dims
};

template <class Args, std::size_t... I>
void fill_protos(GuParams<Args>& p, const GufuncCall& c, const std::vector<int>& offsets,
                 const std::vector<int>& ixs, std::index_sequence<I...>) {
  (
      [&] {
        using D = std::remove_cvref_t<std::tuple_element_t<I, Args>>;
        constexpr int N = arg_rank<D>::value;
        // A rank-0 View (a "()" argument taken as View<T, 0>) is a view too: its proto is that
        // View with nothing to fill, not the byte that scalars and references get.
        if constexpr (is_view<D>::value) {
          auto& v = get<I>(p.protos);
          v.data = nullptr;
          for (int k = 0; k < N; ++k) {
            v.shape[k] = c.core_dims[ixs[offsets[I] + k]];
            v.strides[k] = c.core_steps[offsets[I] + k];
          }
        } else {
          get<I>(p.protos) = 0;
        }
      }(),
      ...);
}

// The loop of signature Sig.
template <class F, class Sig>
void gu_launch(const GufuncCall& c, const void* data) {
  using Targs = typename gufunc_call<F, Sig>::targs;
  using Args = gufunc_args<F, Sig>;
  constexpr int NA = static_cast<int>(std::tuple_size_v<Args>);
  static_assert(NA <= kMaxOperands, "the CUDA gufunc loops take at most 8 operands");
  const GuData<F>& g = *static_cast<const GuData<F>*>(data);
  const std::int64_t n = c.outer.size();
  if (n <= 0) return;
  GuParams<Args> p;
  p.outer = make_strided<NA>(c.outer, "gufunc CUDA loop");
  fill_protos(p, c, g.offsets, g.ixs, std::make_index_sequence<NA>{});
  const cudaStream_t stream = stream_of(c.stream);
  bool team = false;
  if constexpr (team_ok<F, Targs>(static_cast<Args*>(nullptr))) {
    std::int64_t core = 1;
    using D0 = std::remove_cvref_t<std::tuple_element_t<0, Args>>;
    for (int k = 0; k < arg_rank<D0>::value; ++k) core *= c.core_dims[g.ixs[g.offsets[0] + k]];
    team = arg_rank<D0>::value > 0 && core >= kTeamMinElements;
    if (team && c.check) {  // the checked call runs the functor the fast one would run
      constexpr auto kernel = &gu_team_checked<F, Targs, Args>;
      kernel<<<grid_for<kernel>(n * 32), kThreads, 0, stream>>>(g.f, p, c.check);
    } else if (team) {
      constexpr auto kernel = &gu_team<F, Targs, Args>;
      kernel<<<grid_for<kernel>(n * 32), kThreads, 0, stream>>>(g.f, p);
    }
  }
  if (!team && c.check) {
    constexpr auto kernel = &gu_thread_checked<F, Targs, Args>;
    kernel<<<grid_for<kernel>(n), kThreads, 0, stream>>>(g.f, p, c.check);
  } else if (!team) {
    const StagePlan<NA> plan =
        stage_plan<Args>(c, g.offsets, g.ixs, g.nin, std::make_index_sequence<NA>{});
    if (plan.per_block > 0) {
      constexpr auto kernel = &gu_staged<F, Targs, Args>;
      int smem = 0;
      for (int a = 0; a < NA; ++a) smem += (plan.per_block * plan.stride[a] + 15) / 16 * 16;
      int per_sm = 0;
      if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, smem) !=
          cudaSuccess) {
        (void)cudaGetLastError();
        per_sm = 1;
      }
      const std::int64_t need = (n + plan.per_block - 1) / plan.per_block;
      const std::int64_t full = std::int64_t{current_sms()} * (per_sm > 0 ? per_sm : 1);
      kernel<<<static_cast<int>(need < full ? need : full), kThreads, smem, stream>>>(g.f, p, plan);
    } else {
      constexpr auto kernel = &gu_thread<F, Targs, Args>;
      kernel<<<grid_for<kernel>(n), kThreads, 0, stream>>>(g.f, p);
    }
  }
  check_launch("gufunc kernel launch");
}

}  // namespace cu

// The registration functions' own namespace (inline: still loom::def::gufunc): a program that
// defines ops for both families links this and the host twin into one executable, where two
// definitions of one mangled name would be an ODR violation (the linker keeps one of them).
inline namespace cuda_family {

template <class F, class... Sigs>
void gufunc(Registrar& reg, std::string name, const std::string& layout, std::string doc) {
  static std::vector<std::unique_ptr<cu::GuData<F>>> keep;  // plugin lifetime
  auto g = std::make_unique<cu::GuData<F>>();
  OpDesc d =
      gufunc_desc<F, Sigs...>(std::move(name), layout, std::move(doc), [&](LoopImpl* impl, auto t) {
        using T = typename decltype(t)::type;
        impl[static_cast<int>(Family::cuda)].device_gufunc = &cu::gu_launch<F, T>;
        impl[static_cast<int>(Family::cuda)].device_checks = true;
        impl[static_cast<int>(Family::cuda)].data = g.get();
      });
  g->nargs = d.layout->nargs();
  g->nin = d.layout->nin;
  g->offsets = d.layout->core_offsets;
  g->ixs = d.layout->core_dim_ixs;
  keep.push_back(std::move(g));
  reg.add(std::move(d));
}

}  // namespace cuda_family

}  // namespace loom::def
