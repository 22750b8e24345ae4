// Host loops for custom kernels: def::kernel<F...>(reg, name, doc) registers functor F (one
// overload per functor type) for the cpu and parallel targets. A block's threads run by one of
// three paths (KernelOverload::host_path): in order as a loop (x fastest); a block kernel
// (BlockCtx) once per block with each phase a loop over the threads; or, when F declares
// `static constexpr bool uses_syncthreads = true;` or the launch asks, as fibers that wait for
// each other at t.syncthreads(). docs/kernels.md, "Host paths", describes them and their cost.
#pragma once
#include <cstddef>
#include <memory>
#include <new>
#include <tuple>
#include <utility>

#include "loom/def/kernel_desc.hpp"
#include "loom/kernel_host.hpp"

namespace loom::def {

namespace detail {

template <class F>
struct HostKernel {
  static constexpr std::size_t nparams = std::tuple_size_v<kernel_params<F>>;
  using Seq = std::make_index_sequence<nparams>;
  using Params = kernel_params<F>;

  struct Block {  // what a fiber needs to run one thread of a block
    const F* f;
    const KernelCall* call;
    const Params* params;
    ThreadCtx base;
  };
  static void fiber_body(void* arg, std::int64_t rank, loom::detail::BlockSync* sync) {
    const Block& b = *static_cast<const Block*>(arg);
    ThreadCtx t = b.base;
    const std::int64_t bx = t.blockDim.x, by = t.blockDim.y;
    t.threadIdx = Dim3(static_cast<unsigned>(rank % bx), static_cast<unsigned>(rank / bx % by),
                       static_cast<unsigned>(rank / (bx * by)));
    // A thread-loop kernel run as fibers still may not wait: syncthreads() fails as on its own
    // path.
    if constexpr (uses_syncthreads<F>() || is_block_kernel<F>()) t.sync = sync;
    try {
      invoke_unpacked(*b.f, t, *b.params, Seq{}, b.call);
    } catch (const IndexError&) {
      loom::detail::kernel_thread_failed(b.call, t);
    }
  }

  // One block's threads in order, x fastest: the thread loop. The functor and the unpacked
  // arguments are the caller's locals, so the compiler sees the whole body and may inline it.
  [[gnu::always_inline]] static inline void thread_loop(const F& f, ThreadCtx& t, const Params& p,
                                                        const KernelCall& c) {
    const Dim3 n = c.threads;
    for (unsigned z = 0; z < n.z; ++z) {
      for (unsigned y = 0; y < n.y; ++y) {
        for (unsigned x = 0; x < n.x; ++x) {
          // A fresh context a thread, not a store into the caller's: it stays in registers.
          ThreadCtx u = t;
          u.threadIdx = Dim3(x, y, z);
          try {
            invoke_unpacked(f, u, p, Seq{});
          } catch (const IndexError&) {
            loom::detail::kernel_thread_failed(&c, u);
          }
        }
      }
    }
  }

  // Whether every View argument's last axis is contiguous, and a copy of the arguments that
  // says so with a constant stride: the thread loop over the copy sees unit strides and can
  // vectorize across threads (x indexes the last axis in the usual kernel).
  template <class P>
  static bool unit_last(const P& v) {
    if constexpr (requires { v.strides; }) {
      constexpr int n = sizeof(v.strides) / sizeof(v.strides[0]);
      return v.strides[n - 1] == sizeof(*v.data);
    } else {
      return true;
    }
  }
  template <class P>
  static void set_unit_last(P& v) {
    if constexpr (requires { v.strides; }) {
      constexpr int n = sizeof(v.strides) / sizeof(v.strides[0]);
      v.strides[n - 1] = sizeof(*v.data);
    }
  }

  static void loop(const KernelCall& c, std::int64_t begin, std::int64_t end, const void* data) {
    const F f = *static_cast<const F*>(data);
    const Params p = unpack_args<F>(c.args.data(), Seq{});
    const bool unit = std::apply([](const auto&... v) { return (unit_last(v) && ...); }, p);
    Params q = p;
    std::apply([](auto&... v) { (set_unit_last(v), ...); }, q);
    ThreadCtx t;
    t.blockDim = c.threads;
    t.gridDim = c.blocks;
    t.shared_bytes = c.shared_bytes;
    t.shared_mem = c.shared_bytes ? loom::detail::host_shared_memory(c.shared_bytes) : nullptr;
    const std::int64_t gx = c.blocks.x, gy = c.blocks.y;
    for (std::int64_t b = begin; b < end; ++b) {
      t.blockIdx = Dim3(static_cast<unsigned>(b % gx), static_cast<unsigned>(b / gx % gy),
                        static_cast<unsigned>(b / (gx * gy)));
      if (c.fibers || uses_syncthreads<F>()) {
        Block blk{&f, &c, &p, t};
        loom::detail::run_block_fibers(c.threads.count(), &fiber_body, &blk, t.blockIdx,
                                       c.stack_bytes, uses_syncthreads<F>());
      } else if constexpr (is_block_kernel<F>()) {  // each_thread loops over the threads
        if (unit) {
          invoke_unpacked(f, t, q, Seq{}, &c);
        } else {
          invoke_unpacked(f, t, p, Seq{}, &c);
        }
      } else if (unit) {
        thread_loop(f, t, q, c);
      } else {
        thread_loop(f, t, p, c);
      }
    }
  }
};

}  // namespace detail

template <class... Fs>
void kernel(Registrar& reg, std::string name, std::string doc = "") {
  static const std::tuple<Fs...> functors{};
  reg.add_kernel(kernel_desc<Fs...>(std::move(name), std::move(doc), [](KernelImpl* impl, auto id) {
    using F = typename decltype(id)::type;
    auto& s = impl[static_cast<int>(Family::host)];
    s.host = &detail::HostKernel<F>::loop;
    s.data = &std::get<F>(functors);
  }));
}

}  // namespace loom::def
