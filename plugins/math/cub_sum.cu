// A hand-written CUDA loop that replaces a generic one (Registrar::replace_loop): the sum of a
// whole contiguous float32/float64 array through cub::DeviceReduce, the library's tuned
// reduction (run-to-run deterministic on one GPU, CCCL's default), started from the value the
// core passes (takes_start: no fill kernel, no join). Small or strided sums and sums along axes
// keep the generic reduction kernels of def/reduce.cuh.
#include <algorithm>
#include <cstdint>
#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>
#include <limits>

#include "cub_sum.hpp"
#include "functors.hpp"
#include "loom/def/reduce.cuh"

namespace loom::math {

namespace {

// Below this many elements CUB's host-side dispatch (tens of microseconds a call, measured on an
// H100) costs more than the whole generic reduction: small sums keep the generic kernels.
constexpr std::int64_t kCubMin = std::int64_t{1} << 24;

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

template <class T, class N>
void reduce_n(const T* x, T* out, N n, cuda::std::plus<T> plus, T start, cudaStream_t stream) {
  std::size_t bytes = 0;
  def::cu::check(cub::DeviceReduce::Reduce(nullptr, bytes, x, out, n, plus, start, stream),
                 "cub::DeviceReduce::Reduce (temporary storage size)");
  void* tmp = nullptr;
  def::cu::check(cudaMallocAsync(&tmp, bytes, stream), "cudaMallocAsync (sum scratch)");
  const cudaError_t err = cub::DeviceReduce::Reduce(tmp, bytes, x, out, n, plus, start, stream);
  (void)cudaFreeAsync(tmp, stream);
  def::cu::check(err, "cub::DeviceReduce::Reduce");
}

template <class T>
void cub_sum(const ReduceCall& c, const void* data) {
  const StridedIter& it = c.iter;
  const std::int64_t n = it.size();
  if (n < kCubMin || !c.has_start || !whole_contiguous(it, sizeof(T))) return generic<T>(c, data);
  const cudaStream_t stream = def::cu::stream_of(c.stream);
  const T* x = reinterpret_cast<const T*>(it.base[1]);
  T* out = reinterpret_cast<T*>(it.base[0]);
  const cuda::std::plus<T> plus;
  const T start = static_cast<T>(c.start);
  // CUB picks its offset type from the count's: a 32-bit count gets 32-bit offsets (cheaper
  // index arithmetic in the kernels; CuPy passes an int), larger arrays 64-bit ones.
  if (n <= std::numeric_limits<std::int32_t>::max()) {
    reduce_n(x, out, static_cast<std::int32_t>(n), plus, start, stream);
  } else {
    reduce_n(x, out, n, plus, start, stream);
  }
}

template <class T>
LoopImpl cub_sum_loop() {
  LoopImpl l;
  l.device_reduce = &cub_sum<T>;
  l.data = def::cu::instance<Add>();
  l.takes_start = true;
  l.hand_written = "cub::DeviceReduce for whole contiguous arrays of 2^24 elements or more";
  return l;
}

}  // namespace

void replace_sum_loops(Registrar& reg) {
  reg.replace_loop("sum", "float32(float32)", cub_sum_loop<float>());
  reg.replace_loop("sum", "float64(float64)", cub_sum_loop<double>());
}

}  // namespace loom::math
