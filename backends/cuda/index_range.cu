// Backend::index_range on the device: ufunc.at checks device indices where they are, reading back
// 16 bytes instead of copying every index to the host and back.
#include <algorithm>
#include <cstdint>

#include "check.hpp"
#include "index_range.hpp"

namespace loom::backend::cuda_backend {

namespace {

__global__ void min_max(const std::int64_t* idx, std::int64_t m, long long* out) {
  long long lo = INT64_MAX, hi = INT64_MIN;
  const std::int64_t nth = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < m;
       i += nth) {
    const long long v = idx[i];
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
  }
  for (int off = 16; off > 0; off >>= 1) {  // the warp's extremes, then one atomic per warp
    lo = min(lo, __shfl_down_sync(0xffffffffu, lo, off));
    hi = max(hi, __shfl_down_sync(0xffffffffu, hi, off));
  }
  if ((threadIdx.x & 31) == 0) {
    atomicMin(&out[0], lo);
    atomicMax(&out[1], hi);
  }
}

// *bad = 1 when an index is outside [0, rows) (negative ones too: as unsigned they are huge).
__global__ void gate_check(const std::int64_t* idx, std::int64_t m, std::uint64_t rows,
                           unsigned* bad) {
  bool out = false;
  const std::int64_t nth = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < m;
       i += nth) {
    out |= static_cast<std::uint64_t>(idx[i]) >= rows;
  }
  if (__any_sync(0xffffffffu, out) && (threadIdx.x & 31) == 0) *bad = 1u;
}

}  // namespace

unsigned* begin_index_gate(const std::int64_t* idx, std::int64_t m, std::int64_t rows,
                           cudaStream_t stream) {
  unsigned* bad = nullptr;
  check(cudaMallocAsync(reinterpret_cast<void**>(&bad), sizeof(unsigned), stream),
        "cudaMallocAsync (index gate)");
  cudaError_t err = cudaMemsetAsync(bad, 0, sizeof(unsigned), stream);
  if (err == cudaSuccess && m > 0) {
    const std::int64_t blocks = std::min<std::int64_t>((m + 255) / 256, 1024);
    gate_check<<<static_cast<unsigned>(blocks), 256, 0, stream>>>(
        idx, m, static_cast<std::uint64_t>(rows), bad);
    err = cudaGetLastError();
  }
  if (err != cudaSuccess) {
    (void)cudaFreeAsync(bad, stream);
    check(err, "index gate of ufunc.at's indices");
  }
  return bad;
}

bool end_index_gate(unsigned* gate, cudaStream_t stream) {
  unsigned host = 1;
  cudaError_t err = cudaMemcpyAsync(&host, gate, sizeof host, cudaMemcpyDeviceToHost, stream);
  if (err == cudaSuccess) err = cudaStreamSynchronize(stream);
  (void)cudaFreeAsync(gate, stream);
  check(err, "index gate of ufunc.at's indices");
  return host == 0;
}

std::pair<std::int64_t, std::int64_t> index_range(const std::int64_t* idx, std::int64_t m,
                                                  cudaStream_t stream) {
  if (m <= 0) return {0, -1};
  long long* d = nullptr;
  check(cudaMallocAsync(reinterpret_cast<void**>(&d), 2 * sizeof(long long), stream),
        "cudaMallocAsync (index range)");
  const long long init[2] = {INT64_MAX, INT64_MIN};
  long long host[2] = {0, 0};
  cudaError_t err = cudaMemcpyAsync(d, init, sizeof init, cudaMemcpyHostToDevice, stream);
  if (err == cudaSuccess) {
    const std::int64_t blocks = std::min<std::int64_t>((m + 255) / 256, 1024);
    min_max<<<static_cast<unsigned>(blocks), 256, 0, stream>>>(idx, m, d);
    err = cudaGetLastError();
  }
  if (err == cudaSuccess)
    err = cudaMemcpyAsync(host, d, sizeof host, cudaMemcpyDeviceToHost, stream);
  if (err == cudaSuccess) err = cudaStreamSynchronize(stream);
  (void)cudaFreeAsync(d, stream);
  check(err, "index range of ufunc.at's indices");
  return {host[0], host[1]};
}

}  // namespace loom::backend::cuda_backend
