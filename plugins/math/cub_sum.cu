// A hand-written CUDA loop that replaces a generic one (Registrar::replace_loop): the sum of a
// whole contiguous float32/float64 array through cub::DeviceReduce::Sum, the library's tuned
// reduction (run-to-run deterministic on one GPU, CCCL's default). Every other shape of sum
// (axes, strides) keeps the generic reduction kernels of def/reduce.cuh.
#include <cub/device/device_reduce.cuh>

#include "cub_sum.hpp"
#include "functors.hpp"
#include "loom/def/reduce.cuh"

namespace loom::math {

namespace {

// The output already holds the reduction's start (0 or `initial`): out = out + sum.
template <class T>
__global__ void join_start(T* out, const T* sum) {
  *out = *out + *sum;
}

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

template <class T>
void cub_sum(const ReduceCall& c, const void* data) {
  const StridedIter& it = c.iter;
  const std::int64_t n = it.size();
  if (n <= 0 || !whole_contiguous(it, sizeof(T))) return def::cu::red_launch<Add, T>(c, data);
  const cudaStream_t stream = def::cu::stream_of(c.stream);
  const T* x = reinterpret_cast<const T*>(it.base[1]);
  T* out = reinterpret_cast<T*>(it.base[0]);
  std::size_t bytes = 0;
  def::cu::check(cub::DeviceReduce::Sum(nullptr, bytes, x, out, n, stream),
                 "cub::DeviceReduce::Sum (temporary storage size)");
  // The sum lands in the first 16 bytes of the scratch block, CUB's storage after it.
  void* tmp = nullptr;
  def::cu::check(cudaMallocAsync(&tmp, bytes + 16, stream), "cudaMallocAsync (sum scratch)");
  T* sum = static_cast<T*>(tmp);
  cudaError_t err = cub::DeviceReduce::Sum(static_cast<char*>(tmp) + 16, bytes, x, sum, n, stream);
  if (err == cudaSuccess) {
    join_start<T><<<1, 1, 0, stream>>>(out, sum);
    err = cudaGetLastError();
  }
  (void)cudaFreeAsync(tmp, stream);
  def::cu::check(err, "cub::DeviceReduce::Sum");
}

template <class T>
LoopImpl cub_sum_loop() {
  LoopImpl l;
  l.device_reduce = &cub_sum<T>;
  l.data = def::cu::instance<Add>();
  l.hand_written = "cub::DeviceReduce::Sum for whole contiguous arrays";
  return l;
}

}  // namespace

void replace_sum_loops(Registrar& reg) {
  reg.replace_loop("sum", "float32(float32)", cub_sum_loop<float>());
  reg.replace_loop("sum", "float64(float64)", cub_sum_loop<double>());
}

}  // namespace loom::math
