// Lines folded strictly in order, a block per line streaming it through shared memory: the
// ordered reductions (reduce.cuh) and accumulate's ordered scans (scan.cuh). Only included by .cu
// files.
#pragma once
#include <cstdint>

#include "loom/def/device_fold.cuh"
#include "loom/def/launch.cuh"

namespace loom::def::cu {

// ---- lines in order (non-reorderable ops) ------------------------------------------------------

// Lines of `n` elements, one per index of the outer dims (C order), with out's and x's strides:
// an ordered reduction's outputs (out_step 0) or an accumulate's lines.
struct LineParams {
  char* out;
  const char* x;
  int nd;
  std::int64_t shape[kMaxDims];
  std::int64_t sout[kMaxDims];
  std::int64_t sx[kMaxDims];
  std::int64_t lines, n, out_step, x_step;
};

inline constexpr int kLineBytes = 8192;  // one staging buffer of ordered_lines

// A block per line, lines spread over blocks: warps 1.. stream the line through two shared
// buffers (neighbouring threads on neighbouring elements) while thread 0 folds the buffer loaded
// before strictly in order, ((x0 (op) x1) (op) x2) ...: one dependent op per element from shared
// memory instead of a global load's latency, for lines too few or too long for a thread each.
// scan: out[i] = the fold up to x[i], from x[0]; else the fold starts from out's value and only
// the result is written (an ordered reduction).
// A is the fold type of a reduction (fold_t); a scan passes A = T (accumulate rounds every step).
// With `steps` a reduction rounds to T after every step too: the host loops do where the reduced
// dim is not the innermost (elementwise steps there, as NumPy's), and cuda gives their bits.
template <class F, class T, class A = T>
__global__ void __launch_bounds__(kThreads)
    ordered_lines(F f, LineParams p, bool scan, bool steps) {
  constexpr int C = sizeof(T) < kLineBytes ? static_cast<int>(kLineBytes / sizeof(T)) : 1;
  constexpr int kLoaders = kThreads - 32;
  __shared__ alignas(16) unsigned char raw[2][C * sizeof(T)];
  // Indexed from raw itself, so that the compiler keeps shared-memory accesses (no generic ones).
  auto bufs = [&](std::int64_t k) { return reinterpret_cast<T*>(raw[k & 1]); };
  const int tid = static_cast<int>(threadIdx.x);
  const int loader = tid - 32;
  const std::int64_t n = p.n;
  const std::int64_t chunks = (n + C - 1) / C;
  for (std::int64_t line = blockIdx.x; line < p.lines; line += gridDim.x) {
    std::int64_t xo, oo;
    offset_pair(line, p.nd, p.shape, p.sx, p.sout, xo, oo);
    const char* x = p.x + xo;
    char* o = p.out + oo;
    if (loader >= 0) {
      const int len = n < C ? static_cast<int>(n) : C;
#pragma unroll 1
      for (int i = loader; i < len; i += kLoaders) {
        bufs(0)[i] = *reinterpret_cast<const T*>(x + i * p.x_step);
      }
    }
    __syncthreads();
    A acc{};
    bool has = false;
    if (tid == 0 && !scan) {
      acc = load_acc<T, A>(o);
      has = true;
    }
    for (std::int64_t c = 0; c < chunks; ++c) {
      T* cur = bufs(c);
      T* other = bufs(c + 1);  // chunk c - 1 (scanned), then chunk c + 1
      if (loader >= 0) {
        // Each slot is read and then written by the same thread: no barrier between.
        if (scan && c > 0) {
          char* oc = o + (c - 1) * C * p.out_step;
#pragma unroll 1
          for (int i = loader; i < C; i += kLoaders)
            *reinterpret_cast<T*>(oc + i * p.out_step) = other[i];
        }
        const std::int64_t next = (c + 1) * C;
        const int len = n - next < C ? static_cast<int>(n - next) : C;  // <= 0 after the last
        const char* xc = x + next * p.x_step;
#pragma unroll 1
        for (int i = loader; i < len; i += kLoaders) {
          other[i] = *reinterpret_cast<const T*>(xc + i * p.x_step);
        }
      } else if (tid == 0) {
        const int len = n - c * C < C ? static_cast<int>(n - c * C) : C;
        int i = 0;
        if (!has) {
          acc = as<A>(cur[0]);
          has = true;
          i = 1;
        }
        if (scan) {  // cur[0] of the first chunk is x[0], which is out[0]
#pragma unroll 4
          for (; i < len; ++i) cur[i] = as<T>(acc = f(acc, as<A>(cur[i])));
        } else if (round_steps<T, A>(steps)) {
          for (; i < len; ++i) acc = as<A>(as<T>(f(acc, as<A>(cur[i]))));
        } else {
#pragma unroll 4
          for (; i < len; ++i) acc = f(acc, as<A>(cur[i]));
        }
      }
      __syncthreads();
    }
    if (scan && loader >= 0) {  // the last chunk
      const std::int64_t last = (chunks - 1) * C;
      const int len = static_cast<int>(n - last);
      const T* buf = bufs(chunks - 1);
      char* oc = o + last * p.out_step;
      for (int i = loader; i < len; i += kLoaders)
        *reinterpret_cast<T*>(oc + i * p.out_step) = buf[i];
    }
    if (!scan && tid == 0) *reinterpret_cast<T*>(o) = as<T>(acc);
    __syncthreads();  // the buffers are refilled for the next line
  }
}

// Whether ordered_lines beats a thread per line: lines long enough to stream, and either the
// line dim is x's innermost (threads read neighbours) or too few lines to fill the GPU a thread
// each.
inline bool lines_by_block(const LineParams& p) {
  if (p.n < 512) return false;
  const std::int64_t step = p.x_step < 0 ? -p.x_step : p.x_step;
  bool innermost = true;
  for (int k = 0; k < p.nd; ++k) {
    if (p.shape[k] > 1 && (p.sx[k] < 0 ? -p.sx[k] : p.sx[k]) < step) innermost = false;
  }
  return innermost || p.lines < 8192;
}

template <class F, class T, class A = T>
void ordered_lines_launch(const F& f, const LineParams& p, bool scan, cudaStream_t stream,
                          bool steps = false) {
  constexpr auto kernel = &ordered_lines<F, T, A>;
  kernel<<<grid_for<kernel>(p.lines * kThreads), kThreads, 0, stream>>>(f, p, scan, steps);
  check_launch(scan ? "accumulate kernel launch" : "ordered reduction kernel launch");
}

}  // namespace loom::def::cu
