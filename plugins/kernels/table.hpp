// The kernels plugin's table: one line a kernel, one functor type an overload. kernels.cpp
// includes it after the host def header, kernels.cu after the CUDA one.
#pragma once
#include <cstdint>

#include "loom/registry.hpp"
#include "seeds.hpp"

namespace loom::kernels {

inline void register_kernels(loom::Registrar& reg) {
  using i32 = std::int32_t;
  using i64 = std::int64_t;
  using loom::def::kernel;
  kernel<AddOnePerThread<i32>, AddOnePerThread<i64>, AddOnePerThread<float>,
         AddOnePerThread<double>>(reg, "add_kernel",
                                  "out[i] = x[i] + y[i], one element per thread");
  kernel<AddGridStride<i32>, AddGridStride<i64>, AddGridStride<float>, AddGridStride<double>>(
      reg, "add_stride", "out[i] = x[i] + y[i], grid-stride loop");
  kernel<HypotGridStride<float>, HypotGridStride<double>>(reg, "hypot_stride",
                                                          "c[i] = hypot(a[i], b[i]), grid-stride");
  kernel<Square<i32>, Square<i64>, Square<float>, Square<double>>(
      reg, "square_kernel", "out[i] = a[i]**2, one element per thread");
  kernel<ThreadCounterRace>(reg, "thread_counter_race",
                            "counter[0] += 1 per thread WITHOUT an atomic: loses counts (a race)");
  kernel<ThreadCounterSafe>(reg, "thread_counter_safe", "counter[0] += 1 per thread, atomically");
  kernel<Histogram<float>, Histogram<double>>(
      reg, "histogram", "hist[int32((x - xmin) / width)] += 1 with global atomics, grid-stride");
  kernel<HistogramShared<float>, HistogramShared<double>>(
      reg, "histogram_shared",
      "histogram with a per-block shared-memory histogram (shared_bytes >= 4 * nbins)");
  kernel<Maximum3D<float>, Maximum3D<double>>(reg, "maximum_3d",
                                              "c = max(a, b) elementwise on a 3-D grid");
  kernel<BlockSum<float>, BlockSum<double>, BlockSum<i32>, BlockSum<i64>>(
      reg, "block_sum", "out[b] = sum of block b's slice, tree in shared memory (block phases)");
  kernel<BlockSumSync<float>, BlockSumSync<double>, BlockSumSync<i32>, BlockSumSync<i64>>(
      reg, "block_sum_sync", "block_sum written with syncthreads (fibers on the host)");
  kernel<Jacobi2D<float>, Jacobi2D<double>>(
      reg, "jacobi_2d", "out = mean of in's 4 neighbours inside, in on the border (2-D grid)");
}

}  // namespace loom::kernels
