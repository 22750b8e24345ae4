// The linalg plugin's CUDA loops of the LU group: det, slogdet, inv, solve, solve1. n <= kSmall:
// the device loops (device_ops.cuh, a thread a matrix); larger n: the batch gathered column-major
// and factorized by cuBLAS's batched LU (getrfBatched: partial pivoting, info > 0 at an exactly
// zero pivot, LAPACK's rule as on the host), or from n = kBlockedMin by cuSOLVER's getrf a matrix
// at a time, then getriBatched / getrsBatched (cuSOLVER's getrs after getrf) or a kernel over the
// pivots.
#include "batch.cuh"
#include "cuda_table.hpp"
#include "device_ops.cuh"
#include "toolkit.cuh"

namespace loom::linalg {

namespace {

using batch::Operand;
using dev::kSmall;
using dev::real_t;

// From this n the LU is cuSOLVER's blocked getrf, a matrix at a time: cuBLAS's getrfBatched is
// unblocked, meant for small matrices (a 4096 x 4096 solve took 2.3 s with it on an H100, against
// CuPy's 16 ms through getrf).
constexpr std::int64_t kBlockedMin = 128;

// The batch's LU: A (column-major, lda = n) factorized in place, pivots and info per instance.
template <class T>
struct BatchLu {
  std::int64_t n, count;
  cudaStream_t s;
  tk::Scratch<T> a;
  tk::Scratch<T*> ptrs;
  tk::Scratch<int> piv, info;

  BatchLu(const GufuncCall& c, std::int64_t n_, cudaStream_t s_)
      : n(n_),
        count(c.outer.size()),
        s(s_),
        a(count * n * n, s),
        ptrs(count, s),
        piv(count * n, s),
        info(count, s) {
    const int ni = batch::as_int(n, "n"), bi = batch::as_int(count, "the batch");
    batch::gather_into(batch::operand(c, 0, n, n, c.core_steps[0], c.core_steps[1]), a.p, count, s);
    batch::pointers_into(ptrs.p, a.p, n * n, count, s);
    if (blocked()) {
      const cusolverDnHandle_t h = tk::solver(s);
      int lwork = 0;
      tk::check(tk::getrf_size(a.p, h, ni, ni, tk::lib(a.p), ni, &lwork),
                "cusolverDn<t>getrf_bufferSize");
      tk::Scratch<T> work(std::max(lwork, 1), s);
      for (std::int64_t b = 0; b < count; ++b) {
        tk::check(tk::getrf(a.p, h, ni, ni, tk::lib(a.p + b * n * n), ni, tk::lib(work.p),
                            piv.p + b * n, info.p + b),
                  "cusolverDn<t>getrf");
      }
      return;
    }
    tk::check(tk::getrf_batched(a.p, tk::blas(s), ni, tk::libs(ptrs.p), ni, piv.p, info.p, bi),
              "cublas<t>getrfBatched");
  }
  bool blocked() const { return n >= kBlockedMin; }
};

// det and slogdet from the batch's LU: the diagonal, the pivots (1-based) and info.
template <class T>
__global__ void det_from_lu(const T* lu, const int* piv, const int* info, std::int64_t n,
                            std::int64_t count, Operand det) {
  const std::int64_t step = std::int64_t{gridDim.x} * blockDim.x;
  for (std::int64_t b = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; b < count; b += step) {
    T d = T(1);
    for (std::int64_t i = 0; i < n; ++i) {
      d *= lu[b * n * n + i * n + i];
      if (piv[b * n + i] != i + 1) d = -d;
    }
    *reinterpret_cast<T*>(det.at(b)) = info[b] != 0 ? T(0) : d;
  }
}
template <class T>
__global__ void slogdet_from_lu(const T* lu, const int* piv, const int* info, std::int64_t n,
                                std::int64_t count, Operand sign, Operand logdet) {
  using R = real_t<T>;
  const std::int64_t step = std::int64_t{gridDim.x} * blockDim.x;
  for (std::int64_t b = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; b < count; b += step) {
    T sg = T(1);
    R l = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      const T u = lu[b * n * n + i * n + i];
      const R au = dev::abs_of(u);
      sg *= u / T(au);
      l += log(au);
      if (piv[b * n + i] != i + 1) sg = -sg;
    }
    if (info[b] != 0) sg = T(0), l = -cuda::std::numeric_limits<R>::infinity();
    *reinterpret_cast<T*>(sign.at(b)) = sg;
    *reinterpret_cast<R*>(logdet.at(b)) = l;
  }
}

std::int64_t n_of(const GufuncCall& c) { return c.core_dims[0]; }

template <class T>
void det_loop(const GufuncCall& c, const void* data) {
  const std::int64_t n = n_of(c);
  if (n <= kSmall || c.outer.size() == 0) return (*static_cast<const batch::Generic*>(data))(c);
  const cudaStream_t s = def::cu::stream_of(c.stream);
  BatchLu<T> lu(c, n, s);
  det_from_lu<T><<<batch::blocks_for(lu.count), 256, 0, s>>>(
      lu.a.p, lu.piv.p, lu.info.p, n, lu.count, batch::operand(c, 1, 1, 1, 0, 0));
  def::cu::check_launch("linalg: det from the LU");
}

template <class T>
void slogdet_loop(const GufuncCall& c, const void* data) {
  const std::int64_t n = n_of(c);
  if (n <= kSmall || c.outer.size() == 0) return (*static_cast<const batch::Generic*>(data))(c);
  const cudaStream_t s = def::cu::stream_of(c.stream);
  BatchLu<T> lu(c, n, s);
  slogdet_from_lu<T><<<batch::blocks_for(lu.count), 256, 0, s>>>(
      lu.a.p, lu.piv.p, lu.info.p, n, lu.count, batch::operand(c, 1, 1, 1, 0, 0),
      batch::operand(c, 2, 1, 1, 0, 0));
  def::cu::check_launch("linalg: slogdet from the LU");
}

template <class T>
void inv_loop(const GufuncCall& c, const void* data) {
  const std::int64_t n = n_of(c);
  if (n <= kSmall || c.outer.size() == 0) return (*static_cast<const batch::Generic*>(data))(c);
  const cudaStream_t s = def::cu::stream_of(c.stream);
  BatchLu<T> lu(c, n, s);
  tk::Scratch<T> inv(lu.count * n * n, s);
  tk::Scratch<T*> iptrs(lu.count, s);
  tk::Scratch<int> info2(lu.count, s);
  batch::pointers_into(iptrs.p, inv.p, n * n, lu.count, s);
  const int ni = static_cast<int>(n), bi = static_cast<int>(lu.count);
  tk::check(tk::getri_batched(inv.p, tk::blas(s), ni, tk::libs(lu.ptrs.p), ni, lu.piv.p,
                              tk::libs(iptrs.p), ni, info2.p, bi),
            "cublas<t>getriBatched");
  batch::scatter_from(inv.p, batch::operand(c, 1, n, n, c.core_steps[2], c.core_steps[3]), lu.count,
                      lu.info.p, s);
}

// solve (b: n x k, core steps 2, 3) and solve1 (b: a vector, n x 1): b gathered column-major,
// solved in place by getrsBatched, scattered into x.
template <class T, bool kVector>
void solve_loop(const GufuncCall& c, const void* data) {
  const std::int64_t n = n_of(c);
  if (n <= kSmall || c.outer.size() == 0) return (*static_cast<const batch::Generic*>(data))(c);
  const std::int64_t k = kVector ? 1 : c.core_dims[1];
  if (k == 0) return;
  const cudaStream_t s = def::cu::stream_of(c.stream);
  BatchLu<T> lu(c, n, s);
  const auto& st = c.core_steps;  // a: 0, 1; b: 2 (, 3); x: then
  const Operand b =
      kVector ? batch::operand(c, 1, n, 1, st[2], 0) : batch::operand(c, 1, n, k, st[2], st[3]);
  const Operand x =
      kVector ? batch::operand(c, 2, n, 1, st[3], 0) : batch::operand(c, 2, n, k, st[4], st[5]);
  tk::Scratch<T> rhs(lu.count * n * k, s);
  tk::Scratch<T*> rptrs(lu.count, s);
  batch::gather_into(b, rhs.p, lu.count, s);
  batch::pointers_into(rptrs.p, rhs.p, n * k, lu.count, s);
  const int ni = static_cast<int>(n), bi = static_cast<int>(lu.count);
  if (lu.blocked()) {  // cuSOLVER's getrs with the blocked LU, a matrix at a time
    const cusolverDnHandle_t h = tk::solver(s);
    tk::Scratch<int> arg(1, s);  // bad arguments only: an invalid call is a bug here
    for (std::int64_t q = 0; q < lu.count; ++q) {
      tk::check(
          tk::getrs(rhs.p, h, CUBLAS_OP_N, ni, batch::as_int(k, "k"), tk::lib(lu.a.p + q * n * n),
                    ni, lu.piv.p + q * n, tk::lib(rhs.p + q * n * k), ni, arg.p),
          "cusolverDn<t>getrs");
    }
    return batch::scatter_from(rhs.p, x, lu.count, lu.info.p, s);
  }
  int arg_info = 0;  // getrsBatched reports bad arguments here (host memory), not singularity
  tk::check(
      tk::getrs_batched(rhs.p, tk::blas(s), CUBLAS_OP_N, ni, batch::as_int(k, "k"),
                        tk::libs(lu.ptrs.p), ni, lu.piv.p, tk::libs(rptrs.p), ni, &arg_info, bi),
      "cublas<t>getrsBatched");
  if (arg_info != 0) {
    throw DeviceError("linalg: cublas<t>getrsBatched refused argument " +
                      std::to_string(-arg_info));
  }
  batch::scatter_from(rhs.p, x, lu.count, lu.info.p, s);
}

template <class T>
struct DetL {
  static void run(const GufuncCall& c, const void* d) { det_loop<T>(c, d); }
};
template <class T>
struct SlogdetL {
  static void run(const GufuncCall& c, const void* d) { slogdet_loop<T>(c, d); }
};
template <class T>
struct InvL {
  static void run(const GufuncCall& c, const void* d) { inv_loop<T>(c, d); }
};
template <class T>
struct SolveL {
  static void run(const GufuncCall& c, const void* d) { solve_loop<T, false>(c, d); }
};
template <class T>
struct Solve1L {
  static void run(const GufuncCall& c, const void* d) { solve_loop<T, true>(c, d); }
};

}  // namespace

void register_lu_cuda(Registrar& reg) {
  using namespace cuda_types;
  using loom::def::gufunc;
  gufunc<dev::Det, LOOM_LINALG_CUDA_SAME(LOOM_LINALG_CUDA_U)>(reg, "det", "(n,n)->()",
                                                              "determinant");
  gufunc<dev::Slogdet, outs<f32, f32>(f32), outs<f64, f64>(f64), outs<c64, f32>(c64),
         outs<c128, f64>(c128)>(reg, "slogdet", "(n,n)->(),()", "sign and log|det|");
  gufunc<dev::Inv, LOOM_LINALG_CUDA_SAME(LOOM_LINALG_CUDA_U)>(reg, "inv", "(n,n)->(n,n)",
                                                              "inverse (NaN where singular)");
  gufunc<dev::Solve, LOOM_LINALG_CUDA_SAME(LOOM_LINALG_CUDA_B)>(
      reg, "solve", "(n,n),(n,k)->(n,k)", "x with a @ x = b (NaN where a is singular)");
  gufunc<dev::Solve1, LOOM_LINALG_CUDA_SAME(LOOM_LINALG_CUDA_B)>(reg, "solve1", "(n,n),(n)->(n)",
                                                                 "x with a @ x = b for a vector b");
  constexpr const char* kLu =
      "n <= 8: a thread a matrix; to 127: cublas<t>getrfBatched; larger: cusolverDn<t>getrf";
  batch::replace_all(reg, "det", kLu, batch::pick<DetL>);
  batch::replace_all(reg, "slogdet", kLu, batch::pick<SlogdetL>);
  batch::replace_all(reg, "inv",
                     "n <= 8: a thread a matrix; larger: LU (cublas batched, or cusolverDn from "
                     "128) + getriBatched",
                     batch::pick<InvL>);
  batch::replace_all(reg, "solve",
                     "n <= 8: a thread a matrix; to 127: cublas getrf/getrsBatched; larger: "
                     "cusolverDn getrf/getrs",
                     batch::pick<SolveL>);
  batch::replace_all(reg, "solve1",
                     "n <= 8: a thread a matrix; to 127: cublas getrf/getrsBatched; larger: "
                     "cusolverDn getrf/getrs",
                     batch::pick<Solve1L>);
}

}  // namespace loom::linalg
