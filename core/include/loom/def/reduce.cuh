// def::reduce<F, Sigs...>(reg, name, identity, doc), the CUDA twin of reduce.hpp. The call's
// iteration {out, x} splits into kept dims (out strided) and reduced dims (out stride 0); each
// output's reduced elements are cut into segments whose length depends on the shape alone. A
// segment is folded by a block with 16-byte loads (one contiguous reduced dim: full and row
// reductions), by a warp (other reduced-innermost cases: lanes read neighbours) or by one thread
// (kept innermost dim: threads read neighbours), in a fixed order ending in fixed shuffle trees;
// a second kernel folds each output's segments in order into the pre-filled output (a full
// reduction of one contiguous run: red_full, at most 2048 segments, then one block). No atomics
// and nothing taken from the device: the same input gives the same bits on every run and every
// GPU. Not cub::DeviceReduce (run-to-run deterministic on one GPU, per its documentation): it
// needs the identity as a host value, and max/min have none (the call pre-fills the output with
// the first element instead). A non-reorderable op (ReduceCall::ordered) takes none of this: its
// outputs fold strictly left to right, a block each streaming the elements through shared memory
// (ordered_lines, for few or long rows) or a thread each (red_thread). Only included by .cu files.
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>

#include "loom/def/desc.hpp"
#include "loom/def/device_fold.cuh"
#include "loom/def/launch.cuh"
#include "loom/def/ordered_lines.cuh"
#include "loom/def/reduce_kernels.cuh"
#include "loom/def/signature_of.hpp"
#include "loom/float16.hpp"
#include "loom/registry.hpp"

namespace loom::def {

namespace cu {

// The loop of a non-reorderable op: every call folds in order.
template <class F, class T>
void red_ordered_launch(const ReduceCall& c, const void* data) {
  using A = fold_t<F, T>;
  const F& f = *static_cast<const F*>(data);
  RedParams<A> p{};
  if (!red_geometry(c, p)) return;
  // The host loops fold a run along the reduced dim in A only where that dim is the call's
  // innermost (out's stride 0 there), else step elementwise in T (exec.cpp): the same here.
  const auto& so = c.iter.strides[0];
  p.steps = !so.empty() && so.back() != 0;
  if (p.nr == 1) {  // one reduced dim (always, from the core): lines of it
    LineParams l{};
    l.out = p.out;
    l.x = p.x;
    l.nd = p.nk;
    for (int k = 0; k < p.nk; ++k) {
      l.shape[k] = p.kshape[k];
      l.sout[k] = p.kout[k];
      l.sx[k] = p.kx[k];
    }
    l.lines = p.M;
    l.n = p.L;
    l.x_step = p.rx[0];
    if (lines_by_block(l)) {
      return ordered_lines_launch<F, T, A>(f, l, false, stream_of(c.stream), p.steps);
    }
  }
  p.S = 1;
  p.seglen = p.L;
  p.ordered = true;
  constexpr auto kernel = &red_thread<F, T>;
  kernel<<<grid_for<kernel>(p.M), kThreads, 0, stream_of(c.stream)>>>(f, p);
  check_launch("ordered reduction kernel launch");
}

// The loop of a reorderable op: fixed trees (ordered calls, which such an op's calls are not, fold
// in order).
template <class F, class T>
void red_launch(const ReduceCall& c, const void* data) {
  if (c.ordered) return red_ordered_launch<F, T>(c, data);
  using A = fold_t<F, T>;
  const F& f = *static_cast<const F*>(data);
  RedParams<A> p{};
  if (!red_geometry(c, p)) return;
  const StridedIter& it = c.iter;
  const int nd = static_cast<int>(it.shape.size());
  const cudaStream_t stream = stream_of(c.stream);
  // Segments from the shape alone (never from the device), so the bits never depend on it.
  const bool warp_kernel = it.strides[0][nd - 1] == 0;
  constexpr int V = red_vec_width<T>();
  if (warp_kernel && V > 1 && p.nr == 1 && p.rx[0] == static_cast<std::int64_t>(sizeof(T))) {
    bool al = reinterpret_cast<std::uintptr_t>(p.x) % 16 == 0;
    for (int k = 0; k < p.nk; ++k) al = al && p.kx[k] % 16 == 0;
    p.vec = al;
  }
  // One output of one contiguous run: segments of whole red_full tiles, at most kFullSegs.
  const bool full = p.vec && p.M == 1;
  if (full) {
    constexpr std::int64_t kTile = std::int64_t{kRedFullU} * kThreads * V;
    constexpr std::int64_t kFullSegs = 2048;
    const std::int64_t tiles = ceil_div(p.L, kTile);
    p.seglen = ceil_div(tiles, kFullSegs) * kTile;
  } else if (p.vec) {
    const std::int64_t S =
        std::max<std::int64_t>(1, std::min(ceil_div(8192, p.M), ceil_div(p.L, 8192)));
    p.seglen = ceil_div(ceil_div(p.L, S), kThreads * V) * (kThreads * V);
  } else if (warp_kernel) {
    std::int64_t S = std::max<std::int64_t>(1, std::min(ceil_div(8192, p.M), ceil_div(p.L, 2048)));
    p.seglen = ceil_div(ceil_div(p.L, S), 32) * 32;
  } else {
    std::int64_t S = std::max<std::int64_t>(
        1, std::min(ceil_div(std::int64_t{1} << 18, p.M), ceil_div(p.L, 256)));
    p.seglen = ceil_div(p.L, S);
  }
  p.S = ceil_div(p.L, p.seglen);
  if (p.S > 1) {
    void* tmp = nullptr;
    check(cudaMallocAsync(&tmp, static_cast<std::size_t>(p.M * p.S) * sizeof(A), stream),
          "cudaMallocAsync (reduction partials)");
    p.partial = static_cast<A*>(tmp);
  }
  if (full) {
    if constexpr (V > 1) {
      constexpr auto kernel = &red_full<F, T>;
      kernel<<<grid_for<kernel>(p.S * kThreads), kThreads, 0, stream>>>(f, p);
    }
  } else if (p.vec) {
    if constexpr (V > 1) {
      constexpr auto kernel = &red_block<F, T>;
      kernel<<<grid_for<kernel>(p.M * p.S * kThreads), kThreads, 0, stream>>>(f, p);
    }
  } else if (warp_kernel) {
    constexpr auto kernel = &red_warp<F, T>;
    kernel<<<grid_for<kernel>(p.M * p.S * 32), kThreads, 0, stream>>>(f, p);
  } else {
    constexpr auto kernel = &red_thread<F, T>;
    kernel<<<grid_for<kernel>(p.M * p.S), kThreads, 0, stream>>>(f, p);
  }
  cudaError_t err = cudaGetLastError();
  if (err == cudaSuccess && p.partial && full) {
    if constexpr (V > 1) {
      red_combine_full<F, T><<<1, kThreads, 0, stream>>>(f, p);
      err = cudaGetLastError();
    }
  } else if (err == cudaSuccess && p.partial) {
    constexpr auto kernel = &red_combine<F, T>;
    kernel<<<grid_for<kernel>(p.M * 32), kThreads, 0, stream>>>(f, p);
    err = cudaGetLastError();
  }
  if (p.partial) (void)cudaFreeAsync(p.partial, stream);
  check(err, "reduction kernel launch");
}

template <class F, class Sig>
struct red_of;
template <class F, class T>
struct red_of<F, T(T, T)> {
  static constexpr DeviceReduceLoop value = &red_launch<F, T>;
};

}  // namespace cu

// The registration functions' own namespace (inline: still loom::def::reduce): a program that
// defines ops for both families links this and the host twin into one executable, where two
// definitions of one mangled name would be an ODR violation (the linker keeps one of them).
inline namespace cuda_family {

template <class F, class... Sigs>
void reduce(Registrar& reg, std::string name, ReduceTraits traits, std::string doc) {
  reg.add(
      reduce_desc<F, Sigs...>(std::move(name), traits, std::move(doc), [](LoopImpl* impl, auto s) {
        using S = typename decltype(s)::type;
        impl[static_cast<int>(Family::cuda)].device_reduce = cu::red_of<F, S>::value;
        impl[static_cast<int>(Family::cuda)].data = cu::instance<F>();
      }));
}

}  // namespace cuda_family

}  // namespace loom::def
