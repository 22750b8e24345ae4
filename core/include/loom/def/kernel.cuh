// def::kernel<Fs...>(reg, name, doc), the CUDA twin of kernel.hpp: one __global__ entry per
// functor, filling the cuda family's slot. The launcher (host code in the plugin) completes an
// automatic configuration from the kernel's occupancy, checks threads and shared memory against
// the device and this kernel, and launches asynchronously on the call's stream. Only ever included
// by .cu files.
#pragma once
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "loom/def/kernel_desc.hpp"
#include "loom/def/launch.cuh"
#include "loom/launch_shape.hpp"
#include "loom/registry.hpp"

namespace loom::def {

namespace cu {

template <class F>
inline constexpr std::size_t kernel_nparams = std::tuple_size_v<detail::kernel_params<F>>;

// The call's arguments by value as one kernel parameter: no device allocation or copy per launch,
// and each args[I] unpacked in kernel_entry becomes a load from the parameter bank. 80 bytes an
// argument, well under the 4 KiB kernel parameter limit for any plausible parameter count.
template <std::size_t N>
struct KernelParams {
  KernelArg args[N > 0 ? N : 1];
  std::size_t shared_bytes;
  Dim3 grid;                         // the whole grid (a device set's device launches part of it)
  Dim3 first;                        // this launch's first block in it
  loom::detail::CheckRecord* check;  // a checked launch's device record; null otherwise
};

// N is a template parameter of its own (always kernel_nparams<F>): nvcc mangles a parameter type
// written as KernelParams<kernel_nparams<F>> without the variable template's arguments.
template <class F, std::size_t N, bool Checked>
__global__ void kernel_entry(F f, KernelParams<N> p) {
  // One name and type for every instantiation (a redeclaration with another type is an error),
  // 16-byte aligned so that shared_array<double> / <int64_t> and vector types are aligned.
  extern __shared__ __align__(16) unsigned char loom_kernel_shared[];
  ThreadCtx t;
  t.threadIdx = Dim3(threadIdx.x, threadIdx.y, threadIdx.z);
  t.blockIdx = Dim3(blockIdx.x + p.first.x, blockIdx.y + p.first.y, blockIdx.z + p.first.z);
  t.blockDim = Dim3(blockDim.x, blockDim.y, blockDim.z);
  t.gridDim = p.grid;
  t.shared_mem = loom_kernel_shared;
  t.shared_bytes = p.shared_bytes;
  if constexpr (Checked) {
    // The checked instantiation: this thread's check (in local memory), given to every View.
    loom::detail::ViewCheck vc;
    vc.record = p.check;
    vc.block[0] = t.blockIdx.x, vc.block[1] = t.blockIdx.y, vc.block[2] = t.blockIdx.z;
    vc.thread[0] = t.threadIdx.x, vc.thread[1] = t.threadIdx.y, vc.thread[2] = t.threadIdx.z;
    vc.shared_mem = loom_kernel_shared;
    vc.shared_bytes = p.shared_bytes;
    t.check = &vc;
    auto params = unpack_args<F>(p.args, std::make_index_sequence<N>{});
    set_checks(params, &vc, std::make_index_sequence<N>{});
    invoke_unpacked(f, t, params, std::make_index_sequence<N>{});
  } else {
    // Through invoke_as's copies with a literal null check, as the host's fast loop: the Views
    // are then values the compiler keeps in registers, and a loop that stores through one (a
    // xoroshiro state drawn 512 times in the seeds' compute_pi) keeps what it stores in
    // registers too: from the unpacked tuple the stores stayed in the loop (2.5x Numba's time).
    invoke_as<false>(f, t, unpack_args<F>(p.args, std::make_index_sequence<N>{}),
                     std::make_index_sequence<N>{});
  }
}

// What one entry can do on one device, asked once; and the last occupancy answers, because
// cudaOccupancyMaxPotentialBlockSize tries every block size (tens of microseconds) and a program
// usually launches a kernel with the same shared memory again and again.
struct EntryLimits {
  bool ready = false;
  int max_threads = 0;  // cudaFuncAttributes::maxThreadsPerBlock (registers permitting)
  int regs = 0;         // registers per thread, for the message
  std::size_t static_shared = 0;
  std::size_t dyn_max = 0;  // opt-in maximum per block less the static shared memory
  std::size_t dyn_set = 0;  // the entry's current MaxDynamicSharedMemorySize
  int sms = 0;
  std::size_t best_shared = SIZE_MAX;   // auto threads: for this shared_bytes...
  int best_threads = 0, best_grid = 0;  // ...this block size and the grid that fills the device
  std::size_t occ_shared = SIZE_MAX;    // auto blocks with given threads: for this shared_bytes
  std::int64_t occ_threads = 0;         // and block size...
  int occ_per_sm = 0;                   // ...this many resident blocks per multiprocessor
};

inline std::string dim_str(const Dim3& d) {
  return "(" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) + ")";
}

template <class Entry>
EntryLimits& limits_of(Entry entry, std::vector<EntryLimits>& per_device, int device) {
  if (device < 0) throw DeviceError("cuda: bad device index " + std::to_string(device));
  if (per_device.size() <= static_cast<std::size_t>(device)) per_device.resize(device + 1);
  EntryLimits& l = per_device[device];
  if (l.ready) return l;
  cudaFuncAttributes a{};
  check(cudaFuncGetAttributes(&a, entry), "cudaFuncGetAttributes (kernel entry)");
  int optin = 0;
  check(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
        "cudaDeviceGetAttribute(MaxSharedMemoryPerBlockOptin)");
  l.max_threads = a.maxThreadsPerBlock;
  l.regs = a.numRegs;
  l.static_shared = a.sharedSizeBytes;
  l.dyn_max = static_cast<std::size_t>(optin) > a.sharedSizeBytes ? optin - a.sharedSizeBytes : 0;
  l.dyn_set = static_cast<std::size_t>(a.maxDynamicSharedSizeBytes);
  l.sms = current_sms();
  l.ready = true;
  return l;
}

template <class F, bool Checked>
void kernel_launch_as(KernelCall& c, const void* data) {
  constexpr std::size_t N = kernel_nparams<F>;
  constexpr auto entry = &kernel_entry<F, N, Checked>;
  const auto who = [&c] { return "kernel '" + c.name + "' on cuda:" + std::to_string(c.device); };
  if (c.args.size() != N) {
    throw LaunchError("kernel '" + c.name + "': the CUDA loop takes " + std::to_string(N) +
                      " arguments, the call has " + std::to_string(c.args.size()));
  }
  static std::mutex m;  // guards the limits and the entry's shared-memory attribute
  static std::vector<EntryLimits> per_device;
  {
    std::lock_guard lock(m);
    EntryLimits& l = limits_of(entry, per_device, c.device);

    // Above the default 48 KiB a kernel must opt in to more dynamic shared memory, up to the
    // device's per-block maximum; before the occupancy queries, which assume the attribute.
    if (c.shared_bytes > l.dyn_set) {
      if (c.shared_bytes > l.dyn_max) {
        throw LaunchError(who() + ": shared_bytes=" + std::to_string(c.shared_bytes) +
                          " is more dynamic shared memory than a block may have (" +
                          std::to_string(l.dyn_max) + " bytes: the device's opt-in maximum less " +
                          std::to_string(l.static_shared) + " bytes of static shared memory)");
      }
      check(cudaFuncSetAttribute(entry, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 static_cast<int>(c.shared_bytes)),
            "cudaFuncSetAttribute(MaxDynamicSharedMemorySize)");
      l.dyn_set = c.shared_bytes;
    }

    // Automatic threads: the block size of highest occupancy (Numba's forall does the same),
    // shaped by a 2-d or 3-d size as on the host.
    if (c.auto_threads) {
      if (l.best_shared != c.shared_bytes) {
        int grid = 0, block = 0;
        check(cudaOccupancyMaxPotentialBlockSize(&grid, &block, entry, c.shared_bytes, 0),
              "cudaOccupancyMaxPotentialBlockSize");
        if (block <= 0) {
          throw LaunchError(who() +
                            ": no block size fits shared_bytes=" + std::to_string(c.shared_bytes));
        }
        l.best_shared = c.shared_bytes;
        l.best_threads = block;
        l.best_grid = grid;
      }
      c.threads = loom::detail::auto_threads(c.size, c.size_ndim, l.best_threads, l.max_threads);
    }
    // The register file, not only the 1024 of every block, limits this kernel's block size.
    if (c.threads.count() > l.max_threads) {
      throw LaunchError(who() + ": threads=" + dim_str(c.threads) + " is " +
                        std::to_string(c.threads.count()) + " threads per block; this kernel " +
                        "runs at most " + std::to_string(l.max_threads) + " (it uses " +
                        std::to_string(l.regs) + " registers per thread): launch fewer threads");
    }

    // Automatic blocks: cover `size` elements one per thread (ceil-div per axis), or else fill
    // every multiprocessor at this kernel's occupancy (for grid-stride kernels).
    if (c.auto_blocks && c.size_ndim > 0) {
      c.blocks = loom::detail::blocks_for_size(who(), c.size, c.size_ndim, c.threads);
    } else if (c.auto_blocks) {
      const std::int64_t per = c.threads.count();
      std::int64_t blocks = 0;
      if (c.auto_threads) {
        blocks = l.best_grid;
      } else {
        if (l.occ_shared != c.shared_bytes || l.occ_threads != per) {
          int b = 0;
          check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, entry, static_cast<int>(per),
                                                              c.shared_bytes),
                "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
          l.occ_shared = c.shared_bytes;
          l.occ_threads = per;
          l.occ_per_sm = b;
        }
        blocks = static_cast<std::int64_t>(l.occ_per_sm) * l.sms;
      }
      if (blocks < 1) {
        throw LaunchError(who() + ": a block of threads=" + dim_str(c.threads) +
                          " with shared_bytes=" + std::to_string(c.shared_bytes) +
                          " does not fit on a multiprocessor");
      }
      c.blocks = Dim3(static_cast<unsigned>(blocks));
    }
    c.auto_threads = c.auto_blocks = false;  // the configuration is fixed from here on
  }
  if (c.configure_only) return;

  KernelParams<N> p;
  for (std::size_t i = 0; i < N; ++i) p.args[i] = c.args[i];
  p.shared_bytes = c.shared_bytes;
  p.grid = c.blocks;
  p.first = Dim3(0, 0, 0);
  p.check = c.check;
  dim3 grid(c.blocks.x, c.blocks.y, c.blocks.z);
  if (c.part_end != 0) {  // a device set's part: blocks [part_begin, part_end) along part_axis
    const unsigned n = c.part_end - c.part_begin;
    if (c.part_axis == 0) {
      grid.x = n;
      p.first.x = c.part_begin;
    } else if (c.part_axis == 1) {
      grid.y = n;
      p.first.y = c.part_begin;
    } else {
      grid.z = n;
      p.first.z = c.part_begin;
    }
  }
  const dim3 block(c.threads.x, c.threads.y, c.threads.z);
  entry<<<grid, block, c.shared_bytes, stream_of(c.stream)>>>(*static_cast<const F*>(data), p);
  // A configuration error shows here; a fault inside the kernel shows at the next synchronization.
  if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess) {
    check(e, (who() + " launch with blocks=" + dim_str(c.blocks) + ", threads=" +
              dim_str(c.threads) + ", shared_bytes=" + std::to_string(c.shared_bytes))
                 .c_str());
  }
}

// The fast entry, or the checked one when the launch asks (KernelCall::check); each has its own
// limits (a checked entry uses more registers).
template <class F>
void kernel_launch(KernelCall& c, const void* data) {
  if (c.check) {
    kernel_launch_as<F, true>(c, data);
  } else {
    kernel_launch_as<F, false>(c, data);
  }
}

}  // namespace cu

// The registration functions' own namespace (inline: still loom::def::kernel): a program that
// defines ops for both families links this and the host twin into one executable, where two
// definitions of one mangled name would be an ODR violation (the linker keeps one of them).
inline namespace cuda_family {

template <class... Fs>
void kernel(Registrar& reg, std::string name, std::string doc = "") {
  reg.add_kernel(kernel_desc<Fs...>(std::move(name), std::move(doc), [](KernelImpl* impl, auto id) {
    using F = typename decltype(id)::type;
    auto& s = impl[static_cast<int>(Family::cuda)];
    s.device = &cu::kernel_launch<F>;
    s.data = cu::instance<F>();
  }));
}

}  // namespace cuda_family

}  // namespace loom::def
