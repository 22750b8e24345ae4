// def::ufunc<F, Sigs...>(reg, name, doc): turns one elementwise functor into host loops, one per
// signature, with NumPy's loop ABI. Contiguous data reaches a loop without per-element dispatch;
// a functor marked `vectorize` runs on xsimd batches there, and strided data is gathered into
// small contiguous buffers so that both paths give the same bits.
#pragma once
#include <algorithm>
#include <cstring>
#include <string>
#include <tuple>
#include <utility>

#include "loom/def/desc.hpp"
#include "loom/def/methods.hpp"
#include "loom/def/signature_of.hpp"
#include "loom/def/stream_store.hpp"
#include "loom/registry.hpp"

namespace loom::def {

namespace detail {

template <class F, class R, class... A>
constexpr bool use_simd = simd_functor<F>&& simd_type<R> && (std::is_same_v<R, A> && ...);

// out[i] = f(in[i]...) for contiguous operands.
template <class F, class R, class... A, std::size_t... I>
void contiguous(const F& f, char** args, std::int64_t n, std::index_sequence<I...>) {
  R* out = reinterpret_cast<R*>(args[sizeof...(A)]);
  if constexpr (use_simd<F, R, A...>) {
    using B = xsimd::batch<R>;
    constexpr std::int64_t L = B::size;
    // Elements [i, i + count) (count < L) through the same batch code, in a padded buffer: the
    // tail, and the head before a streaming loop's first aligned store.
    auto padded = [&](std::int64_t i, std::int64_t count) {
      alignas(64) R buf[sizeof...(A) + 1][L] = {};
      ((std::memcpy(buf[I], reinterpret_cast<const A*>(args[I]) + i, count * sizeof(R))), ...);
      B r = f(B::load_aligned(buf[I])...);
      r.store_aligned(buf[sizeof...(A)]);
      std::memcpy(out + i, buf[sizeof...(A)], count * sizeof(R));
    };
    std::int64_t i = 0, head = 0;
    if (stream_plan<B>(out, n, head)) {
      if (head > 0) padded(0, head);
      for (i = head; i + L <= n; i += L) {
        stream_store(out + i, f(B::load_unaligned(reinterpret_cast<const A*>(args[I]) + i)...));
      }
      stream_fence();
    } else {
      for (; i + L <= n; i += L) {
        B r = f(B::load_unaligned(reinterpret_cast<const A*>(args[I]) + i)...);
        r.store_unaligned(out + i);
      }
    }
    if (i < n) padded(i, n - i);
  } else {
    for (std::int64_t i = 0; i < n; ++i) {
      out[i] = f(reinterpret_cast<const A*>(args[I])[i]...);
    }
  }
}

template <class F, class R, class... A, std::size_t... I>
void strided(const F& f, char** args, std::int64_t n, const std::int64_t* steps,
             std::index_sequence<I...> seq) {
  constexpr int nin = sizeof...(A);
  if constexpr (use_simd<F, R, A...>) {
    constexpr std::int64_t kChunk = 256;
    alignas(64) R buf[nin + 1][kChunk];
    char* bufp[nin + 1];
    for (int a = 0; a <= nin; ++a) bufp[a] = reinterpret_cast<char*>(buf[a]);
    for (std::int64_t base = 0; base < n; base += kChunk) {
      const std::int64_t m = std::min(kChunk, n - base);
      (
          (void)[&] {
            const char* p = args[I] + base * steps[I];
            for (std::int64_t i = 0; i < m; ++i)
              std::memcpy(&buf[I][i], p + i * steps[I], sizeof(R));
          }(),
          ...);
      contiguous<F, R, A...>(f, bufp, m, seq);
      char* o = args[nin] + base * steps[nin];
      for (std::int64_t i = 0; i < m; ++i) std::memcpy(o + i * steps[nin], &buf[nin][i], sizeof(R));
    }
  } else {
    for (std::int64_t i = 0; i < n; ++i) {
      *reinterpret_cast<R*>(args[nin] + i * steps[nin]) =
          f(*reinterpret_cast<const A*>(args[I] + i * steps[I])...);
    }
  }
}

template <class F, class R, class... A>
void host_loop(char** args, const std::int64_t* dims, const std::int64_t* steps, const void* data) {
  const F& f = *static_cast<const F*>(data);
  constexpr int nin = sizeof...(A);
  auto seq = std::index_sequence_for<A...>{};
  bool contig = steps[nin] == static_cast<std::int64_t>(sizeof(R));
  std::size_t k = 0;
  ((contig = contig && steps[k++] == static_cast<std::int64_t>(sizeof(A))), ...);
  if (contig) {
    contiguous<F, R, A...>(f, args, dims[0], seq);
  } else {
    strided<F, R, A...>(f, args, dims[0], steps, seq);
  }
}

// Several outputs: the functor takes the inputs by value and the outputs by reference.
template <class F, class In, class Out, std::size_t... I, std::size_t... O>
void multi_loop_impl(const F& f, char** args, std::int64_t n, const std::int64_t* steps,
                     std::index_sequence<I...>, std::index_sequence<O...>) {
  constexpr int nin = sizeof...(I);
  for (std::int64_t i = 0; i < n; ++i) {
    f(*reinterpret_cast<const std::tuple_element_t<I, In>*>(args[I] + i * steps[I])...,
      *reinterpret_cast<std::tuple_element_t<O, Out>*>(args[nin + O] + i * steps[nin + O])...);
  }
}

// Every operand of a several-output signature is T: the form its SIMD path takes.
template <class Sig>
struct one_type {
  using type = void;
};
template <class T, class... O, class... A>
struct one_type<outs<T, O...>(A...)> {
  using type =
      std::conditional_t<((std::is_same_v<T, O> && ...) && (std::is_same_v<T, A> && ...)), T, void>;
};

// The SIMD body of a several-output loop over contiguous T operands: as `contiguous` above, the
// tail runs through the same batch code in padded buffers, so every element gets the same bits
// whatever its position or the data's layout.
template <class F, class T, std::size_t... I, std::size_t... O>
void multi_simd_contiguous(const F& f, char** args, std::int64_t n, std::index_sequence<I...>,
                           std::index_sequence<O...>) {
  using B = xsimd::batch<T>;
  constexpr std::int64_t L = B::size;
  constexpr int nin = sizeof...(I), nout = sizeof...(O);
  auto padded = [&](std::int64_t i, std::int64_t count) {
    alignas(64) T buf[nin][L] = {};
    ((std::memcpy(buf[I], reinterpret_cast<const T*>(args[I]) + i, count * sizeof(T))), ...);
    B r[nout];
    f(B::load_aligned(buf[I])..., r[O]...);
    alignas(64) T res[L];
    (((void)r[O].store_aligned(res),
      std::memcpy(reinterpret_cast<T*>(args[nin + O]) + i, res, count * sizeof(T))),
     ...);
  };
  // Streams when every output is large and shares the first one's alignment (the usual case:
  // outputs allocated by loom).
  std::int64_t i = 0, head = 0;
  const auto* out0 = reinterpret_cast<const T*>(args[nin]);
  const bool stream =
      stream_plan<B>(out0, n, head) &&
      ((reinterpret_cast<std::uintptr_t>(args[nin + O]) % sizeof(typename B::register_type) ==
        reinterpret_cast<std::uintptr_t>(out0) % sizeof(typename B::register_type)) &&
       ...);
  if (stream) {
    if (head > 0) padded(0, head);
    for (i = head; i + L <= n; i += L) {
      B r[nout];
      f(B::load_unaligned(reinterpret_cast<const T*>(args[I]) + i)..., r[O]...);
      (stream_store(reinterpret_cast<T*>(args[nin + O]) + i, r[O]), ...);
    }
    stream_fence();
  } else {
    for (; i + L <= n; i += L) {
      B r[nout];
      f(B::load_unaligned(reinterpret_cast<const T*>(args[I]) + i)..., r[O]...);
      (r[O].store_unaligned(reinterpret_cast<T*>(args[nin + O]) + i), ...);
    }
  }
  if (i < n) padded(i, n - i);
}

// Strided operands are gathered into contiguous chunks and scattered back, as `strided` above.
template <class F, class T, std::size_t... I, std::size_t... O>
void multi_simd(const F& f, char** args, std::int64_t n, const std::int64_t* steps,
                std::index_sequence<I...> in, std::index_sequence<O...> out) {
  constexpr int nargs = sizeof...(I) + sizeof...(O);
  bool contig = true;
  for (int a = 0; a < nargs; ++a) contig = contig && steps[a] == sizeof(T);
  if (contig) return multi_simd_contiguous<F, T>(f, args, n, in, out);
  constexpr std::int64_t kChunk = 256;
  alignas(64) T buf[nargs][kChunk];
  char* bufp[nargs];
  for (int a = 0; a < nargs; ++a) bufp[a] = reinterpret_cast<char*>(buf[a]);
  for (std::int64_t base = 0; base < n; base += kChunk) {
    const std::int64_t m = std::min(kChunk, n - base);
    for (std::size_t a = 0; a < sizeof...(I); ++a) {
      const char* p = args[a] + base * steps[a];
      for (std::int64_t k = 0; k < m; ++k) std::memcpy(&buf[a][k], p + k * steps[a], sizeof(T));
    }
    multi_simd_contiguous<F, T>(f, bufp, m, in, out);
    for (int a = sizeof...(I); a < nargs; ++a) {
      char* p = args[a] + base * steps[a];
      for (std::int64_t k = 0; k < m; ++k) std::memcpy(p + k * steps[a], &buf[a][k], sizeof(T));
    }
  }
}

template <class F, class Sig>
void multi_loop(char** args, const std::int64_t* dims, const std::int64_t* steps,
                const void* data) {
  using T = sig_traits<Sig>;
  using One = typename one_type<Sig>::type;
  const F& f = *static_cast<const F*>(data);
  if constexpr (simd_functor<F> && simd_type<One>) {
    multi_simd<F, One>(f, args, dims[0], steps, std::make_index_sequence<T::nin>{},
                       std::make_index_sequence<T::nout>{});
  } else {
    multi_loop_impl<F, typename T::ins, typename T::outs_t>(f, args, dims[0], steps,
                                                            std::make_index_sequence<T::nin>{},
                                                            std::make_index_sequence<T::nout>{});
  }
}

// An operand of a complex dtype: xsimd has no batch of it, so its loops run scalar.
template <class T>
constexpr bool complex_operand() {
  if constexpr (requires { dtype_of<T>::value; }) {
    return dtype_of<T>::value == DType::complex64 || dtype_of<T>::value == DType::complex128;
  } else {
    return false;
  }
}

// `vectorize = true` is honoured on every loop whose operands are all float or all double; a
// loop that mixes a floating type with other types cannot run on batches and is refused here
// rather than run scalar without a word. Loops of one integer type run the plain loop, which
// compilers vectorize themselves; loops with a complex operand run scalar, as no batch holds
// complex numbers (docs/vectorization.md).
template <class F, class Sig>
constexpr bool vectorize_honoured() {
  if constexpr (!simd_functor<F>) {
    return true;
  } else if constexpr ([]<class... A, class R>(std::type_identity<R(A...)>) {
                         return complex_operand<R>() || (complex_operand<A>() || ...);
                       }(std::type_identity<Sig>{})) {
    return true;
  } else {
    using Tr = sig_traits<Sig>;
    using Ins = typename Tr::ins;
    using Outs = typename Tr::outs_t;
    constexpr bool any_float = []<std::size_t... I, std::size_t... O>(std::index_sequence<I...>,
                                                                      std::index_sequence<O...>) {
      return (simd_type<std::tuple_element_t<I, Ins>> || ...) ||
             (simd_type<std::tuple_element_t<O, Outs>> || ...);
    }
    (std::make_index_sequence<Tr::nin>{}, std::make_index_sequence<Tr::nout>{});
    constexpr bool one = []<std::size_t... I, std::size_t... O>(std::index_sequence<I...>,
                                                                std::index_sequence<O...>) {
      using T0 = std::tuple_element_t<0, Outs>;
      return (std::is_same_v<T0, std::tuple_element_t<I, Ins>> && ...) &&
             (std::is_same_v<T0, std::tuple_element_t<O, Outs>> && ...);
    }
    (std::make_index_sequence<Tr::nin>{}, std::make_index_sequence<Tr::nout>{});
    return !any_float || one;
  }
}

template <class F, class Sig>
struct loop_of;
template <class F, class R, class... A>
struct loop_of<F, R(A...)> {
  static constexpr HostLoop value = &host_loop<F, R, A...>;
};
template <class F, class... O, class... A>
struct loop_of<F, outs<O...>(A...)> {
  static constexpr HostLoop value = &multi_loop<F, outs<O...>(A...)>;
};

// The loop of a functor that takes loom::ElementIndex first (checks.hpp, takes_index): element k
// of the run gets ElementIndex{first + k}. Scalar, as no SIMD batch has one index.
template <class F, class Sig>
struct index_loop;
template <class F, class R, class... A>
struct index_loop<F, R(A...)> {
  template <std::size_t... I>
  static void run(const F& f, char** args, std::int64_t n, const std::int64_t* steps,
                  std::int64_t first, std::index_sequence<I...>) {
    constexpr std::size_t nin = sizeof...(A);
    bool contig = steps[nin] == static_cast<std::int64_t>(sizeof(R));
    ((contig = contig && steps[I] == static_cast<std::int64_t>(sizeof(A))), ...);
    if (contig) {  // constant steps: the compiler sees plain arrays
      R* out = reinterpret_cast<R*>(args[nin]);
      for (std::int64_t i = 0; i < n; ++i) {
        out[i] = f(ElementIndex{first + i}, reinterpret_cast<const A*>(args[I])[i]...);
      }
    } else {
      for (std::int64_t i = 0; i < n; ++i) {
        *reinterpret_cast<R*>(args[nin] + i * steps[nin]) =
            f(ElementIndex{first + i}, *reinterpret_cast<const A*>(args[I] + i * steps[I])...);
      }
    }
  }
  static void loop(char** args, const std::int64_t* dims, const std::int64_t* steps,
                   std::int64_t first, const void* data) {
    run(*static_cast<const F*>(data), args, dims[0], steps, first, std::index_sequence_for<A...>{});
  }
};
template <class F, class... O, class... A>
struct index_loop<F, outs<O...>(A...)> {
  using In = std::tuple<A...>;
  using Out = std::tuple<O...>;
  template <std::size_t... I, std::size_t... J>
  static void run(const F& f, char** args, std::int64_t n, const std::int64_t* steps,
                  std::int64_t first, std::index_sequence<I...>, std::index_sequence<J...>) {
    constexpr std::size_t nin = sizeof...(A);
    for (std::int64_t i = 0; i < n; ++i) {
      f(ElementIndex{first + i},
        *reinterpret_cast<const std::tuple_element_t<I, In>*>(args[I] + i * steps[I])...,
        *reinterpret_cast<std::tuple_element_t<J, Out>*>(args[nin + J] + i * steps[nin + J])...);
    }
  }
  static void loop(char** args, const std::int64_t* dims, const std::int64_t* steps,
                   std::int64_t first, const void* data) {
    run(*static_cast<const F*>(data), args, dims[0], steps, first, std::index_sequence_for<A...>{},
        std::index_sequence_for<O...>{});
  }
};

template <class F>
const F* instance() {
  static const F f{};  // lives as long as the plugin (loaded RTLD_NODELETE)
  return &f;
}

}  // namespace detail

namespace detail {

// The host loops of signature S; with `traits` the method loops where a call may reorder, without
// only the ordered ones (what an op that declares nothing gets either way), so that a line
// without traits instantiates no pairwise tree or atomic update.
template <class F, class S, bool WithTraits>
void fill_host(LoopImpl* impl, const ReduceTraits& traits) {
  auto& host = impl[static_cast<int>(Family::host)];
  host.data = instance<F>();
  if constexpr (takes_index<F, S>) {
    // No methods: reduce, accumulate and at refuse such ops.
    host.host_index = &index_loop<F, S>::loop;
    host.takes_index = true;
  } else {
    host.host = loop_of<F, S>::value;
    if constexpr (WithTraits) {
      set_methods<F, S>(host, traits.reorderable);
    } else {
      set_ordered_methods<F, S>(host);
    }
  }
}

template <class F, class... Sigs>
constexpr void check_vectorize() {
  static_assert((vectorize_honoured<F, Sigs>() && ...),
                "loom::def::ufunc: `vectorize = true` needs every operand of a floating-point "
                "signature to be one type (all float or all double); drop `vectorize` or register "
                "the mixed-type signatures with a functor that does not declare it");
}

}  // namespace detail

// traits: the op's identity and reorderability (NumPy's), for its reduce / accumulate / at
// methods; declaring nothing means no identity and strictly ordered folds.
template <class F, class... Sigs>
void ufunc(Registrar& reg, std::string name, std::string doc, ReduceTraits traits) {
  detail::check_vectorize<F, Sigs...>();
  reg.add(ufunc_desc<F, Sigs...>(std::move(name), std::move(doc), traits,
                                 [traits](LoopImpl* impl, auto sig) {
                                   using S = typename decltype(sig)::type;
                                   detail::fill_host<F, S, true>(impl, traits);
                                 }));
}
template <class F, class... Sigs>
void ufunc(Registrar& reg, std::string name, std::string doc) {
  detail::check_vectorize<F, Sigs...>();
  reg.add(ufunc_desc<F, Sigs...>(std::move(name), std::move(doc), ReduceTraits{},
                                 [](LoopImpl* impl, auto sig) {
                                   using S = typename decltype(sig)::type;
                                   detail::fill_host<F, S, false>(impl, ReduceTraits{});
                                 }));
}

}  // namespace loom::def
