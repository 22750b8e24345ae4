// A hand-written CUDA loop that replaces a generic one (Registrar::replace_loop): the sum of a
// whole contiguous float32/float64 array in one pass. Each block folds a fixed share of the array
// (16-byte loads, eight in flight a thread) with cub::BlockReduce and writes its partial; the
// last block to finish (an atomic ticket) folds the partials in block order and adds the start
// value the core passes (takes_start: no fill kernel, no join). One launch instead of
// cub::DeviceReduce's two and its temporary storage: about 3 % less time on an H100 at 2^26
// float32 (docs/cuda.md), with the same run-to-run bits, since the shares, the folds and the
// grid (4 blocks a multiprocessor) are fixed by the array's length and the device. Small or
// strided sums and sums along axes keep the generic kernels of def/reduce.cuh.
#include <algorithm>
#include <cstdint>
#include <cub/block/block_reduce.cuh>
#include <mutex>

#include "functors.hpp"
#include "loom/def/reduce.cuh"
#include "whole_sum.hpp"

namespace loom::math {

namespace {

// Below this many elements the generic reduction kernels are kept (they were measured against
// CUB's dispatch, which this loop replaced; smaller sums were not re-measured).
constexpr std::int64_t kOnePassMin = std::int64_t{1} << 24;

// x covers the whole iteration contiguously in C order and out is one element (stride 0).
bool whole_contiguous(const StridedIter& it, std::size_t item) {
  if (it.nargs() != 2) return false;
  std::int64_t want = static_cast<std::int64_t>(item);
  for (int k = static_cast<int>(it.shape.size()) - 1; k >= 0; --k) {
    if (it.strides[0][k] != 0) return false;
    if (it.shape[k] != 1 && it.strides[1][k] != want) return false;
    want *= it.shape[k];
  }
  return true;
}

// The output's own elements (the dims where its stride is not 0), for the fill below.
struct OutDims {
  int nk = 0;
  std::int64_t shape[def::cu::kMaxDims] = {};
  std::int64_t strides[def::cu::kMaxDims] = {};
};

template <class T>
__global__ void fill_out(char* out, OutDims d, std::int64_t m, T v) {
  const std::int64_t step = std::int64_t{gridDim.x} * blockDim.x;
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < m; i += step) {
    *reinterpret_cast<T*>(out + def::cu::offset_1(i, d.nk, d.shape, d.strides)) = v;
  }
}

// The generic kernels fold into a filled output: fill it with the start value first.
template <class T>
void generic(const ReduceCall& c, const void* data) {
  const StridedIter& it = c.iter;
  if (c.has_start && it.nargs() == 2 && it.shape.size() <= def::cu::kMaxDims) {
    OutDims d;
    std::int64_t m = 1;
    for (std::size_t k = 0; k < it.shape.size(); ++k) {
      if (it.strides[0][k] == 0) continue;
      d.shape[d.nk] = it.shape[k];
      d.strides[d.nk++] = it.strides[0][k];
      m *= it.shape[k];
    }
    const int blocks = static_cast<int>(std::min<std::int64_t>((m + 255) / 256, 4096));
    fill_out<T><<<blocks, 256, 0, def::cu::stream_of(c.stream)>>>(it.base[0], d, m,
                                                                  static_cast<T>(c.start));
    def::cu::check_launch("sum: filling the output with the start value");
  }
  def::cu::red_launch<Add, T>(c, data);
}

constexpr int kBlock = 256;
constexpr int kInFlight = 8;     // 16-byte loads a thread issues before adding any
constexpr int kBlocksPerSm = 4;  // with kBlock: 1024 resident threads a multiprocessor
constexpr int kMaxDevices = 64;
constexpr int kMaxBlocks = 4096;  // partials kept per device

// 16 bytes of T.
template <class T>
struct Vec16;
template <>
struct Vec16<float> {
  using type = float4;
  static constexpr int n = 4;
  __device__ static float fold(float4 v) { return (v.x + v.y) + (v.z + v.w); }
};
template <>
struct Vec16<double> {
  using type = double2;
  static constexpr int n = 2;
  __device__ static double fold(double2 v) { return v.x + v.y; }
};

// x[0, head) and x[head + nv * V, n) are the unaligned ends, added by block 0.
template <class T>
__global__ void __launch_bounds__(kBlock)
    whole_sum(const T* x, std::int64_t head, std::int64_t nv, std::int64_t tail, T* out, T start,
              T* part, unsigned* ticket) {
  using V = Vec16<T>;
  using Reduce = cub::BlockReduce<T, kBlock>;
  __shared__ typename Reduce::TempStorage tmp;
  __shared__ bool last;
  const auto* xv = reinterpret_cast<const typename V::type*>(x + head);
  const std::int64_t step = std::int64_t{gridDim.x} * kBlock;
  std::int64_t i = std::int64_t{blockIdx.x} * kBlock + threadIdx.x;
  T acc[kInFlight] = {};
  for (; i + (kInFlight - 1) * step < nv; i += kInFlight * step) {
    typename V::type v[kInFlight];
#pragma unroll
    for (int u = 0; u < kInFlight; ++u) v[u] = __ldcs(xv + i + u * step);  // read once: stream
#pragma unroll
    for (int u = 0; u < kInFlight; ++u) acc[u] += V::fold(v[u]);
  }
  for (; i < nv; i += step) acc[0] += V::fold(xv[i]);
  T mine = acc[0];
#pragma unroll
  for (int u = 1; u < kInFlight; ++u) mine += acc[u];
  if (blockIdx.x == 0) {
    if (threadIdx.x < head) mine += x[threadIdx.x];
    if (threadIdx.x < tail) mine += x[head + nv * V::n + threadIdx.x];
  }
  const T block = Reduce(tmp).Sum(mine);
  if (threadIdx.x == 0) {
    part[blockIdx.x] = block;
    __threadfence();  // the partial is visible to every block before the ticket counts it
    last = atomicAdd(ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  T s = T(0);
  for (unsigned b = threadIdx.x; b < gridDim.x; b += kBlock) s += __ldcg(part + b);
  __syncthreads();  // tmp is reused
  const T total = Reduce(tmp).Sum(s);
  if (threadIdx.x == 0) {
    *out = start + total;
    *ticket = 0;  // ready for the next call (kernels on one stream run in order)
  }
}

// A device's partials and ticket, made on its first whole sum (under m) and kept. Calls on other
// streams wait for the previous call through `done`, so that two sums never share them at once.
struct Scratch {
  std::mutex m;
  void* part = nullptr;
  unsigned* ticket = nullptr;
  cudaEvent_t done = nullptr;
  bool used = false;
};

Scratch& scratch_of(int dev) {
  static Scratch all[kMaxDevices];
  return all[dev];
}

// Makes s's buffers on the current device once; called with s.m held. All or nothing: a failure
// leaves s empty (the next sum tries again) and raises DeviceError.
void make_scratch(Scratch& s) {
  if (s.part) return;
  void* part = nullptr;
  unsigned* ticket = nullptr;
  cudaEvent_t done = nullptr;
  cudaError_t e = cudaMalloc(&part, kMaxBlocks * sizeof(double));
  if (e == cudaSuccess) e = cudaMalloc(reinterpret_cast<void**>(&ticket), sizeof(unsigned));
  if (e == cudaSuccess) e = cudaMemset(ticket, 0, sizeof(unsigned));
  if (e == cudaSuccess) e = cudaEventCreateWithFlags(&done, cudaEventDisableTiming);
  if (e != cudaSuccess) {
    (void)cudaFree(part);
    (void)cudaFree(ticket);
    def::cu::check(e,
                   "sum: making the device's partials (cudaMalloc, cudaMemset, cudaEventCreate)");
  }
  s.part = part;
  s.ticket = ticket;
  s.done = done;
}

template <class T>
void one_pass_sum(const ReduceCall& c, const void* data) {
  const StridedIter& it = c.iter;
  const std::int64_t n = it.size();
  const auto addr = reinterpret_cast<std::uintptr_t>(it.base[1]);
  int dev = 0;
  def::cu::check(cudaGetDevice(&dev), "cudaGetDevice");
  if (n < kOnePassMin || !c.has_start || !whole_contiguous(it, sizeof(T)) ||
      addr % sizeof(T) != 0 || dev < 0 || dev >= kMaxDevices) {
    return generic<T>(c, data);
  }
  constexpr int kV = Vec16<T>::n;
  const std::int64_t head = static_cast<std::int64_t>((16 - addr % 16) % 16 / sizeof(T));
  const std::int64_t nv = (n - head) / kV;
  const std::int64_t tail = n - head - nv * kV;
  const int blocks = std::min(def::cu::current_sms() * kBlocksPerSm, kMaxBlocks);
  const cudaStream_t stream = def::cu::stream_of(c.stream);
  Scratch& s = scratch_of(dev);
  const std::lock_guard<std::mutex> lock(s.m);
  make_scratch(s);
  if (s.used) def::cu::check(cudaStreamWaitEvent(stream, s.done, 0), "cudaStreamWaitEvent (sum)");
  whole_sum<T><<<blocks, kBlock, 0, stream>>>(
      reinterpret_cast<const T*>(it.base[1]), head, nv, tail, reinterpret_cast<T*>(it.base[0]),
      static_cast<T>(c.start), static_cast<T*>(s.part), s.ticket);
  def::cu::check_launch("sum: the one-pass kernel launch");
  def::cu::check(cudaEventRecord(s.done, stream), "cudaEventRecord (sum)");
  s.used = true;
}

template <class T>
LoopImpl one_pass_loop() {
  LoopImpl l;
  l.device_reduce = &one_pass_sum<T>;
  l.data = def::cu::instance<Add>();
  l.takes_start = true;
  l.hand_written =
      "one pass (cub::BlockReduce, last block folds) for whole contiguous arrays of 2^24 elements "
      "or more";
  return l;
}

}  // namespace

void replace_sum_loops(Registrar& reg) {
  reg.replace_loop("sum", "float32(float32)", one_pass_loop<float>());
  reg.replace_loop("sum", "float64(float64)", one_pass_loop<double>());
}

}  // namespace loom::math
