// def::ufunc<F, Sigs...>(reg, name, doc[, traits]) for the cuda family without the method loops'
// definitions: one device loop per signature (ufunc.cuh says how they run). Included by ufunc.cuh,
// which also brings the reduce, accumulate and at loops of T(T,T) signatures (methods.cuh); a .cu
// file whose ufuncs have no T(T,T) signature may include this header alone, and compiles in about
// half the time. A T(T,T) signature registered with only this header is a static_assert. Only
// ever included by .cu files.
#pragma once
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "loom/def/desc.hpp"
#include "loom/def/launch.cuh"
#include "loom/def/signature_of.hpp"
#include "loom/registry.hpp"

#if defined(LOOM_DEF_DEVICE_METHODS)
#define LOOM_DEF_UFUNC_HAS_METHODS true
#else
#define LOOM_DEF_UFUNC_HAS_METHODS false
#endif

namespace loom::def {

namespace cu {

// The method loops of a T(T,T) signature (methods.cuh): declared here, defined there. ufunc.cuh
// includes methods.cuh first; a .cu file that includes only this header registers ufuncs without
// a T(T,T) signature and is spared methods.cuh (CUB's radix sort, cuda/atomic and the scan and
// reduction kernels: about 4 s of nvcc per file; docs/plugins.md, "What a definition costs to
// compile").
template <class F, class S>
void set_device_methods(LoopImpl& impl, bool reorderable);
template <class F, class S>
void set_ordered_device_methods(LoopImpl& impl);

// Calls the functor on one element: out = f(in...) for one output, f(in..., out&...) for several.
// Kernels are templated on std::tuple<inputs>, std::tuple<outputs> rather than on the signature's
// function type: nvcc's host stubs mis-print a function type returning outs<...>.
template <class In, class Out>
struct ew_types;
template <class... A, class R>
struct ew_types<std::tuple<A...>, std::tuple<R>> {
  using in_t = std::tuple<A...>;
  using out_t = std::tuple<R>;
  static constexpr int nin = sizeof...(A);
  static constexpr int nout = 1;
  template <class F>
  __device__ __forceinline__ static void apply(const F& f, const A&... in, R& out) {
    out = f(in...);
  }
  template <class F>
  __device__ __forceinline__ static void apply_indexed(const F& f, ElementIndex e, const A&... in,
                                                       R& out) {
    out = f(e, in...);
  }
};
template <class... A, class O0, class O1, class... O>
struct ew_types<std::tuple<A...>, std::tuple<O0, O1, O...>> {
  using in_t = std::tuple<A...>;
  using out_t = std::tuple<O0, O1, O...>;
  static constexpr int nin = sizeof...(A);
  static constexpr int nout = 2 + sizeof...(O);
  template <class F>
  __device__ __forceinline__ static void apply(const F& f, const A&... in, O0& o0, O1& o1,
                                               O&... out) {
    f(in..., o0, o1, out...);
  }
  template <class F>
  __device__ __forceinline__ static void apply_indexed(const F& f, ElementIndex e, const A&... in,
                                                       O0& o0, O1& o1, O&... out) {
    f(e, in..., o0, o1, out...);
  }
};
template <class Sig>
using ew_sig = ew_types<typename sig_traits<Sig>::ins, typename sig_traits<Sig>::outs_t>;

template <class T, int V>
struct alignas(16) Pack {
  T v[V];
};

template <class... T>
constexpr std::size_t common_size() {
  constexpr std::size_t s[] = {sizeof(T)...};
  for (std::size_t x : s) {
    if (x != s[0]) return 0;
  }
  return s[0];
}

// Elements per 16-byte vector: 1 (no vector path) unless every operand has the same size
// dividing 16.
template <class In, class Out>
struct vec_width;
template <class... A, class... O>
struct vec_width<std::tuple<A...>, std::tuple<O...>> {
  static constexpr std::size_t s = common_size<A..., O...>();
  // (s ? s : 1): operands of different sizes give s = 0, and nvcc warns of 16 % 0 even in the
  // branch the condition rules out.
  static constexpr int value =
      (s > 0 && s < 16 && 16 % (s ? s : 1) == 0) ? static_cast<int>(16 / (s ? s : 1)) : 1;
};

template <int NA>
struct ContigParams {
  char* base[NA];
  std::int64_t n;     // elements
  std::int64_t head;  // scalar elements before the first aligned vector
  std::int64_t nvec;  // 16-byte vectors after the head
};

template <class S, class F, std::size_t... I, std::size_t... J>
__device__ __forceinline__ void elem(const F& f, char* const* ptr, std::index_sequence<I...>,
                                     std::index_sequence<J...>) {
  S::apply(f, *reinterpret_cast<const std::tuple_element_t<I, typename S::in_t>*>(ptr[I])...,
           *reinterpret_cast<std::tuple_element_t<J, typename S::out_t>*>(ptr[S::nin + J])...);
}

template <class S, class F, int NA, std::size_t... I, std::size_t... J>
__device__ __forceinline__ void elem_at(const F& f, const ContigParams<NA>& p, std::int64_t i,
                                        std::index_sequence<I...> is,
                                        std::index_sequence<J...> js) {
  char* ptr[NA] = {
      (p.base[I] +
       i * static_cast<std::int64_t>(sizeof(std::tuple_element_t<I, typename S::in_t>)))...,
      (p.base[S::nin + J] +
       i * static_cast<std::int64_t>(sizeof(std::tuple_element_t<J, typename S::out_t>)))...};
  elem<S>(f, ptr, is, js);
}

// Vector v alone: loaded, computed, stored.
template <class S, class F, int V, int NA, std::size_t... I, std::size_t... J>
__device__ __forceinline__ void vec_at(const F& f, const ContigParams<NA>& p, std::int64_t v,
                                       std::index_sequence<I...>, std::index_sequence<J...>) {
  using In = Tup<Pack<std::tuple_element_t<I, typename S::in_t>, V>...>;
  using Out = Tup<Pack<std::tuple_element_t<J, typename S::out_t>, V>...>;
  const std::int64_t e = p.head + v * V;
  In in;
  ((get<I>(in) = *reinterpret_cast<const Pack<std::tuple_element_t<I, typename S::in_t>, V>*>(
        p.base[I] +
        e * static_cast<std::int64_t>(sizeof(std::tuple_element_t<I, typename S::in_t>)))),
   ...);
  Out out;
#pragma unroll
  for (int l = 0; l < V; ++l) S::apply(f, get<I>(in).v[l]..., get<J>(out).v[l]...);
  ((*reinterpret_cast<Pack<std::tuple_element_t<J, typename S::out_t>, V>*>(
        p.base[S::nin + J] + e * static_cast<std::int64_t>(sizeof(
                                     std::tuple_element_t<J, typename S::out_t>))) = get<J>(out)),
   ...);
}

template <class F, class In, class Out, int NA, int V>
__global__ void ew_contig(F f, ContigParams<NA> p) {
  using S = ew_types<In, Out>;
  const auto is = std::make_index_sequence<S::nin>{};
  const auto js = std::make_index_sequence<S::nout>{};
  const std::int64_t tid = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t nth = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  // Head and tail (and everything when the vector path is off: head == n).
  for (std::int64_t i = tid; i < p.head; i += nth) elem_at<S>(f, p, i, is, js);
  const std::int64_t tail = p.head + p.nvec * V;
  for (std::int64_t i = tail + tid; i < p.n; i += nth) elem_at<S>(f, p, i, is, js);
  // The launcher gives a thread per vector: this loop runs once but for the largest arrays.
  if constexpr (V > 1) {
    for (std::int64_t v = tid; v < p.nvec; v += nth) vec_at<S, F, V>(f, p, v, is, js);
  }
}

template <class F, class In, class Out, int NA>
__global__ void ew_strided(F f, Strided<NA> p) {
  using S = ew_types<In, Out>;
  const std::int64_t tid = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t nth = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = tid; i < p.n; i += nth) {
    char* ptr[NA];
    offsets_of(p, i, ptr);
    elem<S>(f, ptr, std::make_index_sequence<S::nin>{}, std::make_index_sequence<S::nout>{});
  }
}

// ---- functors that take loom::ElementIndex (checks.hpp, takes_index) ------------------------
// Element i of the call (its flat C-order position) gets ElementIndex{first + i}, first being
// ElementwiseCall::index_base. A thread per element, no vectors: a batch has no one index.

template <class S, class F, std::size_t... I, std::size_t... J>
__device__ __forceinline__ void elem_indexed(const F& f, ElementIndex e, char* const* ptr,
                                             std::index_sequence<I...>, std::index_sequence<J...>) {
  S::apply_indexed(
      f, e, *reinterpret_cast<const std::tuple_element_t<I, typename S::in_t>*>(ptr[I])...,
      *reinterpret_cast<std::tuple_element_t<J, typename S::out_t>*>(ptr[S::nin + J])...);
}

template <class F, class In, class Out, int NA>
__global__ void ew_index_contig(F f, ContigParams<NA> p, std::int64_t first) {
  using S = ew_types<In, Out>;
  const std::int64_t tid = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t nth = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = tid; i < p.n; i += nth) {
    char* ptr[NA];
    [&]<std::size_t... I, std::size_t... J>(std::index_sequence<I...>, std::index_sequence<J...>) {
      ((ptr[I] = p.base[I] +
                 i * static_cast<std::int64_t>(sizeof(std::tuple_element_t<I, typename S::in_t>))),
       ...);
      ((ptr[S::nin + J] =
            p.base[S::nin + J] +
            i * static_cast<std::int64_t>(sizeof(std::tuple_element_t<J, typename S::out_t>))),
       ...);
    }
    (std::make_index_sequence<S::nin>{}, std::make_index_sequence<S::nout>{});
    elem_indexed<S>(f, ElementIndex{first + i}, ptr, std::make_index_sequence<S::nin>{},
                    std::make_index_sequence<S::nout>{});
  }
}

template <class F, class In, class Out, int NA>
__global__ void ew_index_strided(F f, Strided<NA> p, std::int64_t first) {
  using S = ew_types<In, Out>;
  const std::int64_t tid = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t nth = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = tid; i < p.n; i += nth) {
    char* ptr[NA];
    offsets_of(p, i, ptr);
    elem_indexed<S>(f, ElementIndex{first + i}, ptr, std::make_index_sequence<S::nin>{},
                    std::make_index_sequence<S::nout>{});
  }
}

template <class S, std::size_t... I, std::size_t... J>
void sizes_of(std::int64_t* out, std::index_sequence<I...>, std::index_sequence<J...>) {
  std::int64_t v[] = {
      static_cast<std::int64_t>(sizeof(std::tuple_element_t<I, typename S::in_t>))...,
      static_cast<std::int64_t>(sizeof(std::tuple_element_t<J, typename S::out_t>))...};
  for (std::size_t k = 0; k < sizeof(v) / sizeof(v[0]); ++k) out[k] = v[k];
}

template <class F, class Sig>
void ew_launch(const ElementwiseCall& c, const void* data) {
  using S = ew_sig<Sig>;
  constexpr int NA = S::nin + S::nout;
  static_assert(NA <= kMaxOperands, "the CUDA elementwise loops take at most 8 operands");
  const F& f = *static_cast<const F*>(data);
  const StridedIter& it = c.iter;
  if (it.nargs() != NA) {
    throw DeviceError("elementwise CUDA loop: takes " + std::to_string(NA) +
                      " operands, the call has " + std::to_string(it.nargs()));
  }
  const std::int64_t n = it.size();
  if (n <= 0) return;
  const cudaStream_t stream = stream_of(c.stream);
  std::int64_t size[NA];
  sizes_of<S>(size, std::make_index_sequence<S::nin>{}, std::make_index_sequence<S::nout>{});
  bool contig = it.shape.size() == 1;
  for (int a = 0; contig && a < NA; ++a) contig = it.strides[a][0] == size[a];
  if (contig) {
    constexpr int V = vec_width<typename S::in_t, typename S::out_t>::value;
    ContigParams<NA> p;
    for (int a = 0; a < NA; ++a) p.base[a] = it.base[a];
    p.n = n;
    p.head = n;
    p.nvec = 0;
    if constexpr (V > 1) {
      // Every operand must sit at the same offset within 16 bytes, a whole number of elements.
      const auto mis = reinterpret_cast<std::uintptr_t>(it.base[0]) % 16;
      bool same = mis % size[0] == 0;
      for (int a = 1; same && a < NA; ++a) {
        same = reinterpret_cast<std::uintptr_t>(it.base[a]) % 16 == mis;
      }
      if (same) {
        const std::int64_t head = std::min<std::int64_t>(n, ((16 - mis) % 16) / size[0]);
        p.head = head;
        p.nvec = (n - head) / V;
      }
    }
    constexpr auto kernel = &ew_contig<F, typename S::in_t, typename S::out_t, NA, V>;
    // A thread per 16-byte vector over as many blocks as that takes (CuPy's and PyTorch's
    // elementwise geometry), not a grid-stride loop over a resident grid: the block scheduler
    // hands out the work as multiprocessors free up rather than each thread owning a fixed
    // share, and a thread carries no unrolled loop (fewer registers, more warps resident).
    // Without vectors, a thread per element the same way.
    const std::int64_t work = p.nvec > 0 ? p.nvec : n;
    const std::int64_t need = (work + kThreads - 1) / kThreads;
    const int blocks = static_cast<int>(
        std::min<std::int64_t>(need < 1 ? 1 : need, std::numeric_limits<int>::max()));
    kernel<<<blocks, kThreads, 0, stream>>>(f, p);
    check_launch("elementwise kernel launch");
  } else {
    if (it.shape.size() > static_cast<std::size_t>(kMaxDims)) {
      throw DeviceError(dims_error(it, "elementwise CUDA loop"));
    }
    const Strided<NA> p = make_strided<NA>(it, "elementwise CUDA loop");
    constexpr auto kernel = &ew_strided<F, typename S::in_t, typename S::out_t, NA>;
    kernel<<<grid_for<kernel>(n), kThreads, 0, stream>>>(f, p);
    check_launch("elementwise kernel launch");
  }
}

template <class F, class Sig>
void ew_index_launch(const ElementwiseCall& c, const void* data) {
  using S = ew_sig<Sig>;
  constexpr int NA = S::nin + S::nout;
  static_assert(NA <= kMaxOperands, "the CUDA elementwise loops take at most 8 operands");
  const F& f = *static_cast<const F*>(data);
  const StridedIter& it = c.iter;
  if (it.nargs() != NA) {
    throw DeviceError("elementwise CUDA loop: takes " + std::to_string(NA) +
                      " operands, the call has " + std::to_string(it.nargs()));
  }
  const std::int64_t n = it.size();
  if (n <= 0) return;
  const cudaStream_t stream = stream_of(c.stream);
  std::int64_t size[NA];
  sizes_of<S>(size, std::make_index_sequence<S::nin>{}, std::make_index_sequence<S::nout>{});
  bool contig = it.shape.size() == 1;
  for (int a = 0; contig && a < NA; ++a) contig = it.strides[a][0] == size[a];
  if (contig) {
    ContigParams<NA> p;
    for (int a = 0; a < NA; ++a) p.base[a] = it.base[a];
    p.n = n;
    p.head = n;
    p.nvec = 0;
    constexpr auto kernel = &ew_index_contig<F, typename S::in_t, typename S::out_t, NA>;
    const std::int64_t need = (n + kThreads - 1) / kThreads;
    const int blocks =
        static_cast<int>(std::min<std::int64_t>(need, std::numeric_limits<int>::max()));
    kernel<<<blocks, kThreads, 0, stream>>>(f, p, c.index_base);
  } else {
    const Strided<NA> p = make_strided<NA>(it, "elementwise CUDA loop");
    constexpr auto kernel = &ew_index_strided<F, typename S::in_t, typename S::out_t, NA>;
    kernel<<<grid_for<kernel>(n), kThreads, 0, stream>>>(f, p, c.index_base);
  }
  check_launch("elementwise kernel launch");
}

}  // namespace cu

// The registration functions' own namespace (inline: still loom::def::ufunc): a program that
// defines ops for both families links this and the host twin into one executable, where two
// definitions of one mangled name would be an ODR violation (the linker keeps one of them).
inline namespace cuda_family {

// traits: the op's identity and reorderability. Every T(T,T) loop also gets the device loops of
// the reduce, accumulate and at methods (methods.cuh): with traits, those of a reorderable op
// where traits say so; without, only the ordered ones (an op that declares nothing is not
// reorderable), which saves the compiler the trees, CUB scans and atomics it would never run.
template <class F, class... Sigs>
void ufunc(Registrar& reg, std::string name, std::string doc, ReduceTraits traits) {
  reg.add(ufunc_desc<F, Sigs...>(
      std::move(name), std::move(doc), traits, [traits](LoopImpl* impl, auto sig) {
        using S = typename decltype(sig)::type;
        constexpr bool binary = !std::is_void_v<typename binary_type<S>::type>;
        static_assert(LOOM_DEF_UFUNC_HAS_METHODS || !binary,
                      "loom::def::ufunc: a T(T,T) signature also gets the CUDA loops of reduce, "
                      "accumulate and at: include loom/def/ufunc.cuh, not only "
                      "loom/def/ufunc_elementwise.cuh");
        auto& c = impl[static_cast<int>(Family::cuda)];
        c.data = cu::instance<F>();
        if constexpr (detail::takes_index<F, S>) {
          // No methods: reduce, accumulate and at refuse such ops.
          c.device_elementwise = &cu::ew_index_launch<F, S>;
          c.takes_index = true;
        } else {
          c.device_elementwise = &cu::ew_launch<F, S>;
          if constexpr (binary) cu::set_device_methods<F, S>(c, traits.reorderable);
        }
      }));
}
template <class F, class... Sigs>
void ufunc(Registrar& reg, std::string name, std::string doc) {
  reg.add(ufunc_desc<F, Sigs...>(
      std::move(name), std::move(doc), ReduceTraits{}, [](LoopImpl* impl, auto sig) {
        using S = typename decltype(sig)::type;
        constexpr bool binary = !std::is_void_v<typename binary_type<S>::type>;
        static_assert(LOOM_DEF_UFUNC_HAS_METHODS || !binary,
                      "loom::def::ufunc: a T(T,T) signature also gets the CUDA loops of reduce, "
                      "accumulate and at: include loom/def/ufunc.cuh, not only "
                      "loom/def/ufunc_elementwise.cuh");
        auto& c = impl[static_cast<int>(Family::cuda)];
        c.data = cu::instance<F>();
        if constexpr (detail::takes_index<F, S>) {
          c.device_elementwise = &cu::ew_index_launch<F, S>;
          c.takes_index = true;
        } else {
          c.device_elementwise = &cu::ew_launch<F, S>;
          if constexpr (binary) cu::set_ordered_device_methods<F, S>(c);
        }
      }));
}

}  // namespace cuda_family

}  // namespace loom::def

#undef LOOM_DEF_UFUNC_HAS_METHODS
