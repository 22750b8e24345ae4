// A gufunc call's operands as batches of matrices for cuBLAS and cuSOLVER, which take dense
// column-major matrices (LAPACK's layout) at a fixed distance: the kernels that gather an operand
// of any strides into such a buffer and scatter a result back (NaN for the instances the library
// reported failed), the hand-written loop's hold on the generic device loop it hands the small
// sizes to (Registrar::replace_loop), and the registration of ops that have toolkit loops only.
// Only included by .cu files.
#pragma once
#include <algorithm>
#include <deque>
#include <string>

#include "device_ops.cuh"
#include "loom/def/desc.hpp"
#include "loom/def/launch.cuh"
#include "loom/error.hpp"
#include "loom/exec.hpp"
#include "loom/registry.hpp"

namespace loom::linalg::batch {

// One operand of the call: where instance b starts (its loop-dim strides) and its core matrix,
// rows x cols with byte strides s0, s1 (a vector is rows x 1; a scalar 1 x 1).
struct Operand {
  def::cu::Strided<1> outer;
  std::int64_t rows = 1, cols = 1, s0 = 0, s1 = 0;

  __device__ char* at(std::int64_t b) const {
    return outer.base[0] + def::cu::offset_1(b, outer.nd, outer.shape, outer.strides[0]);
  }
};

inline Operand operand(const GufuncCall& c, int arg, std::int64_t rows, std::int64_t cols,
                       std::int64_t s0, std::int64_t s1) {
  const StridedIter& it = c.outer;
  if (it.shape.size() > static_cast<std::size_t>(def::cu::kMaxDims)) {
    throw DeviceError(def::cu::dims_error(it, "linalg CUDA loop"));
  }
  Operand o;
  o.outer.nd = static_cast<int>(it.shape.size());
  o.outer.n = it.size();
  o.outer.base[0] = it.base[arg];
  for (int k = 0; k < o.outer.nd; ++k) {
    o.outer.shape[k] = it.shape[k];
    o.outer.strides[0][k] = it.strides[arg][k];
  }
  o.rows = rows, o.cols = cols, o.s0 = s0, o.s1 = s1;
  return o;
}

inline int blocks_for(std::int64_t work) {
  return static_cast<int>(std::clamp<std::int64_t>((work + 255) / 256, 1, 65535));
}

// dst[b] = instance b of a, column-major with leading dimension rows.
template <class T>
__global__ void gather(Operand a, T* dst, std::int64_t batch) {
  const std::int64_t per = a.rows * a.cols, total = batch * per;
  const std::int64_t step = std::int64_t{gridDim.x} * blockDim.x;
  for (std::int64_t t = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; t < total; t += step) {
    const std::int64_t b = t / per, r = t - b * per, j = r / a.rows, i = r - j * a.rows;
    dst[t] = *reinterpret_cast<const T*>(a.at(b) + i * a.s0 + j * a.s1);
  }
}

// Which part of a matrix a scatter keeps; the other triangle gets zeros.
enum class Part : std::uint8_t { all, lower, upper };

// Where instance b's matrix lies in a dense buffer: element (i, j) at b * stride + j * ld + i.
struct Dense {
  std::int64_t ld = 0, stride = 0;  // 0: out's rows, and rows * cols
};

// Instance b of out = src[b] (column-major); NaN where failed[b] != 0 (the library's info).
template <class T>
__global__ void scatter(const T* src, Dense d, Operand out, std::int64_t batch, const int* failed,
                        Part part) {
  const std::int64_t per = out.rows * out.cols, total = batch * per;
  const std::int64_t ld = d.ld ? d.ld : out.rows, stride = d.stride ? d.stride : per;
  const std::int64_t step = std::int64_t{gridDim.x} * blockDim.x;
  for (std::int64_t t = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; t < total; t += step) {
    const std::int64_t b = t / per, r = t - b * per, j = r / out.rows, i = r - j * out.rows;
    T v = src[b * stride + j * ld + i];
    if ((part == Part::lower && j > i) || (part == Part::upper && j < i)) v = T(0);
    if (failed && failed[b] != 0) v = dev::nan_of<T>();
    *reinterpret_cast<T*>(out.at(b) + i * out.s0 + j * out.s1) = v;
  }
}

// Every element of every instance of out = NaN (an out= of the wrong size, as the host loops).
template <class T>
__global__ void fill_nan(Operand out, std::int64_t batch) {
  const std::int64_t per = out.rows * out.cols, total = batch * per;
  const std::int64_t step = std::int64_t{gridDim.x} * blockDim.x;
  for (std::int64_t t = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; t < total; t += step) {
    const std::int64_t b = t / per, r = t - b * per, j = r / out.rows, i = r - j * out.rows;
    *reinterpret_cast<T*>(out.at(b) + i * out.s0 + j * out.s1) = dev::nan_of<T>();
  }
}

// p[b] = base + b * stride: the pointer arrays the batched LU and Cholesky take.
template <class T>
__global__ void pointers(T** p, T* base, std::int64_t stride, std::int64_t batch) {
  const std::int64_t step = std::int64_t{gridDim.x} * blockDim.x;
  for (std::int64_t b = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; b < batch; b += step) {
    p[b] = base + b * stride;
  }
}

template <class T>
void gather_into(const Operand& a, T* dst, std::int64_t batch, cudaStream_t s) {
  gather<T><<<blocks_for(batch * a.rows * a.cols), 256, 0, s>>>(a, dst, batch);
  def::cu::check_launch("linalg: gathering a batch");
}
template <class T>
void scatter_from(const T* src, const Operand& out, std::int64_t batch, const int* failed,
                  cudaStream_t s, Part part = Part::all, Dense d = {}) {
  scatter<T>
      <<<blocks_for(batch * out.rows * out.cols), 256, 0, s>>>(src, d, out, batch, failed, part);
  def::cu::check_launch("linalg: scattering a batch");
}
template <class T>
void fill_nan_in(const Operand& out, std::int64_t batch, cudaStream_t s) {
  fill_nan<T><<<blocks_for(batch * out.rows * out.cols), 256, 0, s>>>(out, batch);
  def::cu::check_launch("linalg: filling with NaN");
}
template <class T>
void pointers_into(T** p, T* base, std::int64_t stride, std::int64_t batch, cudaStream_t s) {
  pointers<T><<<blocks_for(batch), 256, 0, s>>>(p, base, stride, batch);
  def::cu::check_launch("linalg: pointer array");
}

// The library takes int sizes and batch counts: larger calls are refused with what to do.
inline int as_int(std::int64_t v, const char* what) {
  if (v > 0x7fffffff) {
    throw DeviceError(std::string("linalg: ") + what + " is " + std::to_string(v) +
                      ", more than cuBLAS/cuSOLVER take (2^31 - 1): split the batch");
  }
  return static_cast<int>(v);
}

// The generic device loop (def/gufunc.cuh) of one signature, which a hand-written loop hands the
// sizes the device loops serve.
struct Generic {
  DeviceGufuncLoop loop = nullptr;
  const void* data = nullptr;
  void operator()(const GufuncCall& c) const { loop(c, data); }
};

// Loop<T>::run for the input dtype of a loop (the four dtypes linalg has on cuda).
template <template <class> class Loop>
DeviceGufuncLoop pick(DType t) {
  switch (t) {
    case DType::float32:
      return &Loop<float>::run;
    case DType::float64:
      return &Loop<double>::run;
    case DType::complex64:
      return &Loop<cuda::std::complex<float>>::run;
    default:
      return &Loop<cuda::std::complex<double>>::run;
  }
}

// Replaces every loop of `op` by pick(input dtype), a hand-written loop (`what`, for loom-info)
// whose data is the Generic it replaced.
template <class Pick>
void replace_all(Registrar& reg, const std::string& op, const char* what, Pick pick) {
  static std::deque<Generic> keep;  // plugin lifetime
  for (auto& d : reg.staged()) {
    if (d.name != op) continue;
    std::vector<std::pair<std::string, LoopImpl>> repl;
    for (auto& l : d.loops) {
      const LoopImpl& old = l.impl[static_cast<int>(Family::cuda)];
      keep.push_back({old.device_gufunc, old.data});
      LoopImpl impl;
      impl.device_gufunc = pick(l.sig.inputs[0]);
      impl.data = &keep.back();
      impl.hand_written = what;
      repl.emplace_back(l.sig.str(), impl);
    }
    for (auto& [sig, impl] : repl) reg.replace_loop(op, sig, impl);
    return;
  }
  throw PluginError("linalg: no op '" + op + "' to replace the loops of");
}

template <class S>
struct input_of;
template <class R, class A>
struct input_of<R(A)> {
  using type = A;
};

// Adds an op whose cuda loops are all hand-written toolkit loops, no device functor: Args gives
// the argument shapes the descriptor checks (def/desc.hpp), Loop<T>::run the loop of input dtype T.
template <class Args, template <class> class Loop, class... Sigs>
void add_toolkit_op(Registrar& reg, const char* name, const char* layout, const char* doc,
                    const char* what) {
  reg.add(def::gufunc_desc<Args, Sigs...>(name, layout, doc, [what](LoopImpl* impl, auto sig) {
    using T = typename input_of<typename decltype(sig)::type>::type;
    LoopImpl& l = impl[static_cast<int>(Family::cuda)];
    l.device_gufunc = &Loop<T>::run;
    l.hand_written = what;
  }));
}

}  // namespace loom::linalg::batch
