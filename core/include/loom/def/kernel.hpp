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
#include <type_traits>
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

  // A checked launch (KernelCall::check): the same loops, with every View and the ThreadCtx
  // pointing at a ViewCheck that names the running block and thread (view.hpp).
  static void set_checks(Params& p, loom::detail::ViewCheck* c) { def::set_checks(p, c, Seq{}); }
  static void note(const Dim3& d, unsigned (&to)[3]) {
    to[0] = d.x;
    to[1] = d.y;
    to[2] = d.z;
  }

  // A checked launch's race checker shadow, closed however the loop ends.
  struct Shadow {
    loom::detail::SharedShadow* s = nullptr;
    Shadow() = default;
    Shadow(const Shadow&) = delete;
    Shadow& operator=(const Shadow&) = delete;
    ~Shadow() {
      if (s) loom::detail::shared_check_close(s);
    }
  };
  struct NoShadow {};  // the fast loop's: nothing

  struct Block {  // what a fiber needs to run one thread of a block
    const F* f;
    const KernelCall* call;
    const Params* params;
    ThreadCtx base;
  };
  template <bool Checked>
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
      if constexpr (Checked) {  // each fiber is one thread: a check and Views of its own
        loom::detail::ViewCheck vc = *t.check;
        note(t.threadIdx, vc.thread);
        vc.sync = sync;  // the race checker counts the block's barriers and syncwarps here
        t.check = &vc;
        Params p = *b.params;
        set_checks(p, &vc);
        invoke_unpacked(*b.f, t, p, Seq{}, b.call);
      } else {
        invoke_as<false>(*b.f, t, *b.params, Seq{}, b.call);
      }
    } catch (const IndexError&) {
      loom::detail::kernel_thread_failed(b.call, t);
    }
  }

  // One block's threads in order, x fastest: the thread loop. The functor and the unpacked
  // arguments are the caller's locals, so the compiler sees the whole body and may inline it.
  template <bool Checked>
  [[gnu::always_inline]] static inline void thread_loop(const F& f, ThreadCtx& t, const Params& p,
                                                        const KernelCall& c) {
    const Dim3 n = c.threads;
    // The threads copy this local, not the caller's `t`, whose address escapes (run_block_fibers
    // takes t.blockIdx by reference): read from memory, t.blockIdx and t.blockDim had to be
    // reloaded after every store of an element type that may alias ThreadCtx's integers (int32,
    // int64), which left the element index non-affine and add_kernel's int64 loop scalar.
    const ThreadCtx base = t;
    for (unsigned z = 0; z < n.z; ++z) {
      for (unsigned y = 0; y < n.y; ++y) {
        for (unsigned x = 0; x < n.x; ++x) {
          // A fresh context a thread, not a store into the caller's: it stays in registers.
          ThreadCtx u = base;
          u.threadIdx = Dim3(x, y, z);
          if constexpr (Checked) note(u.threadIdx, t.check->thread);
          try {
            invoke_as<Checked>(f, u, p, Seq{});
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

  // The host loop: the fast instantiation, or the checked one when the launch asks
  // (KernelCall::check). One test a call of the loop, none a thread.
  static void loop(const KernelCall& c, std::int64_t begin, std::int64_t end, const void* data) {
    if (c.check) {
      run<true>(c, begin, end, data);
    } else {
      run_fast(c, begin, end, data);
    }
  }
  // The fast instantiation with everything it calls inlined (the functor included). With the
  // checked twin beside it, the functor's call had two callers and GCC's heuristics kept larger
  // bodies out of line (add_stride, hypot_stride, maximum_3d called it once a thread).
  [[gnu::flatten]] static void run_fast(const KernelCall& c, std::int64_t begin, std::int64_t end,
                                        const void* data) {
    run<false>(c, begin, end, data);
  }

  template <bool Checked>
  static void run(const KernelCall& c, std::int64_t begin, std::int64_t end, const void* data) {
    const F f = *static_cast<const F*>(data);
    Params p = unpack_args<F>(c.args.data(), Seq{});
    const bool unit = std::apply([](const auto&... v) { return (unit_last(v) && ...); }, p);
    Params q = p;
    std::apply([](auto&... v) { (set_unit_last(v), ...); }, q);
    ThreadCtx t;
    t.blockDim = c.threads;
    t.gridDim = c.blocks;
    t.shared_bytes = c.shared_bytes;
    t.shared_mem = c.shared_bytes ? loom::detail::host_shared_memory(c.shared_bytes) : nullptr;
    loom::detail::ViewCheck vc;  // this OS thread's blocks' check (fibers copy it)
    [[maybe_unused]] std::conditional_t<Checked, Shadow, NoShadow> shadow;
    if constexpr (Checked) {
      // The race checker's shadow, whose shared memory the blocks use (a range of its own).
      if (c.shared_bytes && c.shared_check) {
        shadow.s = loom::detail::shared_check_open(c.shared_check, c.shared_bytes, c.threads);
        t.shared_mem = loom::detail::shared_check_memory(shadow.s);
      }
      vc.shadow = shadow.s;
      vc.record = c.check;
      vc.shared_mem = t.shared_mem;
      vc.shared_bytes = t.shared_bytes;
      t.check = &vc;
      set_checks(p, &vc);
      set_checks(q, &vc);
    }
    const std::int64_t gx = c.blocks.x, gy = c.blocks.y;
    for (std::int64_t b = begin; b < end; ++b) {
      t.blockIdx = Dim3(static_cast<unsigned>(b % gx), static_cast<unsigned>(b / gx % gy),
                        static_cast<unsigned>(b / (gx * gy)));
      if constexpr (Checked) {
        note(t.blockIdx, vc.block);
        if (shadow.s) loom::detail::shared_check_block_begin(shadow.s, vc.block);
      }
      if (c.fibers || uses_syncthreads<F>()) {
        Block blk{&f, &c, &p, t};
        loom::detail::run_block_fibers(c.threads.count(), &fiber_body<Checked>, &blk, t.blockIdx,
                                       c.stack_bytes, uses_syncthreads<F>());
      } else if constexpr (is_block_kernel<F>()) {  // each_thread loops over the threads
        if (unit) {
          invoke_as<Checked>(f, t, q, Seq{}, &c);
        } else {
          invoke_as<Checked>(f, t, p, Seq{}, &c);
        }
      } else if (unit) {
        thread_loop<Checked>(f, t, q, c);
      } else {
        thread_loop<Checked>(f, t, p, c);
      }
      if constexpr (Checked) {
        if (shadow.s) loom::detail::shared_check_block_end(shadow.s);
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
