// The linalg plugin's CUDA loops of the QR and SVD group, cuSOLVER only (no device loop), one
// matrix after another on the call's stream: qr by geqrf (Householder, as the host's Eigen
// HouseholderQR and LAPACK) then orgqr / ungqr for the reduced Q; svdvals by gesvd (bidiagonal QR
// iteration; it takes m >= n, so a wide matrix goes as its transpose, which has the same singular
// values). The call sizes k = min(m, n) (the layout's rule); the NaN for another k is a guard.
#include <algorithm>

#include "batch.cuh"
#include "cuda_table.hpp"
#include "device_ops.cuh"
#include "toolkit.cuh"

namespace loom::linalg {

namespace shapes {

// The argument shapes of qr and svdvals for the descriptor's checks (def/desc.hpp); their loops
// are QrL and SvdvalsL, never an instance functor (declared only).
struct QrArgs {
  template <class T>
  void operator()(View<const T, 2>, View<T, 2>, View<T, 2>) const;
};
struct SvdvalsArgs {
  template <class T>
  void operator()(View<const T, 2>, View<dev::real_t<T>, 1>) const;
};

}  // namespace shapes

namespace {

using batch::Operand;
using dev::real_t;

template <class T>
__device__ bool finite_value(T x) {
  if constexpr (dev::is_complex<T>) {
    return isfinite(x.real()) && isfinite(x.imag());
  } else {
    return isfinite(x);
  }
}

// bad[b] = whether matrix b (packed, `per` elements) holds NaN or Inf: one block a matrix.
template <class T>
__global__ void mark_nonfinite(const T* a, std::int64_t per, int* bad) {
  __shared__ int any;
  if (threadIdx.x == 0) any = 0;
  __syncthreads();
  const T* m = a + std::int64_t{blockIdx.x} * per;
  for (std::int64_t i = threadIdx.x; i < per; i += blockDim.x) {
    if (!finite_value(m[i])) any = 1;
  }
  __syncthreads();
  if (threadIdx.x == 0) bad[blockIdx.x] = any;
}

// info[b] |= bad[b]: a non-finite matrix counts as not converged.
__global__ void or_into(int* info, const int* bad, std::int64_t count) {
  const std::int64_t b = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (b < count && bad[b]) info[b] = 1;
}

// "(m,n)->(m,k=min(m,n)),(k,n)": dims m, n, k; core steps a: 0, 1; q: 2, 3; r: 4, 5.
template <class T>
void qr_loop(const GufuncCall& c, const void*) {
  const std::int64_t m = c.core_dims[0], n = c.core_dims[1], k = c.core_dims[2];
  const std::int64_t count = c.outer.size();
  if (count == 0) return;
  const cudaStream_t s = def::cu::stream_of(c.stream);
  const auto& st = c.core_steps;
  const Operand q = batch::operand(c, 1, m, k, st[2], st[3]);
  const Operand r = batch::operand(c, 2, k, n, st[4], st[5]);
  if (k != std::min(m, n)) {
    batch::fill_nan_in<T>(q, count, s);
    return batch::fill_nan_in<T>(r, count, s);
  }
  if (k == 0) return;
  const int mi = batch::as_int(m, "m"), ni = batch::as_int(n, "n"), ki = static_cast<int>(k);
  tk::Scratch<T> a(count * m * n, s), tau(count * k, s);
  tk::Scratch<int> info(count, s);
  batch::gather_into(batch::operand(c, 0, m, n, st[0], st[1]), a.p, count, s);
  const cusolverDnHandle_t h = tk::solver(s);
  int lq = 0, lo = 0;
  tk::check(tk::geqrf_size(a.p, h, mi, ni, tk::lib(a.p), mi, &lq), "cusolverDn<t>geqrf_bufferSize");
  tk::check(tk::orgqr_size(a.p, h, mi, ki, ki, tk::lib(a.p), mi, tk::lib(tau.p), &lo),
            "cusolverDn<t>orgqr_bufferSize");
  const int lwork = std::max(lq, lo);
  tk::Scratch<T> work(lwork, s);
  for (std::int64_t b = 0; b < count; ++b) {
    tk::check(tk::geqrf(a.p, h, mi, ni, tk::lib(a.p + b * m * n), mi, tk::lib(tau.p + b * k),
                        tk::lib(work.p), lwork, info.p + b),
              "cusolverDn<t>geqrf");
  }
  // R: the upper triangle of the factorization's first k rows, before orgqr overwrites them.
  batch::scatter_from(a.p, r, count, nullptr, s, batch::Part::upper, {m, m * n});
  for (std::int64_t b = 0; b < count; ++b) {
    tk::check(tk::orgqr(a.p, h, mi, ki, ki, tk::lib(a.p + b * m * n), mi, tk::lib(tau.p + b * k),
                        tk::lib(work.p), lwork, info.p + b),
              "cusolverDn<t>orgqr");
  }
  batch::scatter_from(a.p, q, count, nullptr, s, batch::Part::all, {m, m * n});
}

// "(m,n)->(k=min(m,n))": dims m, n, k; core steps a: 0, 1; s: 2.
template <class T>
void svdvals_loop(const GufuncCall& c, const void*) {
  using R = real_t<T>;
  const std::int64_t m = c.core_dims[0], n = c.core_dims[1], k = c.core_dims[2];
  const std::int64_t count = c.outer.size();
  if (count == 0) return;
  const cudaStream_t s = def::cu::stream_of(c.stream);
  const auto& st = c.core_steps;
  const Operand sv = batch::operand(c, 1, k, 1, st[2], 0);
  if (k != std::min(m, n)) return batch::fill_nan_in<R>(sv, count, s);
  if (k == 0) return;
  // gesvd takes rows >= cols: a wide matrix goes as its transpose (the same singular values).
  const bool wide = m < n;
  const std::int64_t rows = wide ? n : m, cols = k;
  const int ri = batch::as_int(rows, "max(m, n)"), ci = static_cast<int>(cols);
  tk::Scratch<T> a(count * rows * cols, s);
  tk::Scratch<R> out(count * cols, s), rwork(cols, s);
  tk::Scratch<int> info(count, s);
  batch::gather_into(
      wide ? batch::operand(c, 0, n, m, st[1], st[0]) : batch::operand(c, 0, m, n, st[0], st[1]),
      a.p, count, s);
  // NaN or Inf in a matrix: no singular values (NumPy: "SVD did not converge"), whatever gesvd
  // leaves; marked before gesvd overwrites the copy.
  tk::Scratch<int> bad(count, s);
  mark_nonfinite<T><<<static_cast<unsigned>(count), 256, 0, s>>>(a.p, rows * cols, bad.p);
  def::cu::check_launch("linalg svdvals: finding non-finite matrices");
  const cusolverDnHandle_t h = tk::solver(s);
  int lwork = 0;
  tk::check(tk::gesvd_size(a.p, h, ri, ci, &lwork), "cusolverDn<t>gesvd_bufferSize");
  tk::Scratch<T> work(lwork, s);
  for (std::int64_t b = 0; b < count; ++b) {
    tk::check(tk::gesvd(a.p, h, static_cast<signed char>('N'), static_cast<signed char>('N'), ri,
                        ci, tk::lib(a.p + b * rows * cols), ri, out.p + b * cols,
                        static_cast<tk::lib_t<T>*>(nullptr), 1, static_cast<tk::lib_t<T>*>(nullptr),
                        1, tk::lib(work.p), lwork, rwork.p, info.p + b),
              "cusolverDn<t>gesvd");
  }
  or_into<<<static_cast<unsigned>((count + 255) / 256), 256, 0, s>>>(info.p, bad.p, count);
  def::cu::check_launch("linalg svdvals: marking non-finite matrices");
  // info > 0: the iteration did not converge (or the matrix was not finite): NaN, as eigh's.
  batch::scatter_from(out.p, sv, count, info.p, s);
}

template <class T>
struct QrL {
  static void run(const GufuncCall& c, const void* d) { qr_loop<T>(c, d); }
};
template <class T>
struct SvdvalsL {
  static void run(const GufuncCall& c, const void* d) { svdvals_loop<T>(c, d); }
};

}  // namespace

void register_qr_svd_cuda(Registrar& reg) {
  using namespace cuda_types;
  batch::add_toolkit_op<shapes::QrArgs, QrL, outs<f32, f32>(f32), outs<f64, f64>(f64),
                        outs<c64, c64>(c64), outs<c128, c128>(c128)>(
      reg, "qr", "(m,n)->(m,k=min(m,n)),(k,n)", "reduced QR, k = min(m, n)",
      "cusolverDn<t>geqrf + orgqr per matrix");
  batch::add_toolkit_op<shapes::SvdvalsArgs, SvdvalsL, f32(f32), f64(f64), f32(c64), f64(c128)>(
      reg, "svdvals", "(m,n)->(k=min(m,n))", "singular values, k = min(m, n)",
      "cusolverDn<t>gesvd per matrix");
}

}  // namespace loom::linalg
