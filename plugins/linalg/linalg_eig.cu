// The linalg plugin's CUDA loops of the Cholesky and Hermitian eigen group. cholesky: n <= kSmall
// the device loop (device_ops.cuh), larger n cuSOLVER's potrfBatched. eigh, eigvalsh: cuSOLVER
// only (no device loop): Jacobi's syevjBatched for n <= 32 (its limit), divide and conquer (syevd)
// one matrix after another above. Lower triangle, ascending eigenvalues, NaN where cuSOLVER
// reports failure (not positive definite; no convergence), as the host loops.
#include "batch.cuh"
#include "cuda_table.hpp"
#include "device_ops.cuh"
#include "toolkit.cuh"

namespace loom::linalg {

namespace shapes {

// The argument shapes of eigh and eigvalsh for the descriptor's checks (def/desc.hpp); their
// loops are eigh_loop (EighL, EigvalshL), never an instance functor (declared only; named, not
// anonymous, so that nvcc does not warn about declarations it never sees referenced).
struct EighArgs {
  template <class T>
  void operator()(View<const T, 2>, View<dev::real_t<T>, 1>, View<T, 2>) const;
};
struct EigvalshArgs {
  template <class T>
  void operator()(View<const T, 2>, View<dev::real_t<T>, 1>) const;
};

}  // namespace shapes

namespace {

using batch::Operand;
using dev::real_t;

// syevjBatched's limit on n.
constexpr std::int64_t kJacobiMax = 32;

template <class T>
void cholesky_loop(const GufuncCall& c, const void* data) {
  const std::int64_t n = c.core_dims[0], count = c.outer.size();
  if (n <= dev::kSmall || count == 0) return (*static_cast<const batch::Generic*>(data))(c);
  const cudaStream_t s = def::cu::stream_of(c.stream);
  const auto& st = c.core_steps;
  tk::Scratch<T> a(count * n * n, s);
  tk::Scratch<T*> ptrs(count, s);
  tk::Scratch<int> info(count, s);
  batch::gather_into(batch::operand(c, 0, n, n, st[0], st[1]), a.p, count, s);
  batch::pointers_into(ptrs.p, a.p, n * n, count, s);
  const int ni = batch::as_int(n, "n");
  tk::check(tk::potrf_batched(a.p, tk::solver(s), CUBLAS_FILL_MODE_LOWER, ni, tk::libs(ptrs.p), ni,
                              info.p, batch::as_int(count, "the batch")),
            "cusolverDn<t>potrfBatched");
  batch::scatter_from(a.p, batch::operand(c, 1, n, n, st[2], st[3]), count, info.p, s,
                      batch::Part::lower);
}

// Jacobi's parameters (tolerance: machine precision, 100 sweeps, sorted values): cuSOLVER's
// defaults, one object per thread, kept (its host-side settings are read by each call).
inline syevjInfo_t jacobi_params() {
  thread_local syevjInfo_t p = [] {
    syevjInfo_t q = nullptr;
    tk::check(cusolverDnCreateSyevjInfo(&q), "cusolverDnCreateSyevjInfo");
    return q;
  }();
  return p;
}

template <class T, bool kVectors>
void eigh_loop(const GufuncCall& c, const void*) {
  using R = real_t<T>;
  const std::int64_t n = c.core_dims[0], count = c.outer.size();
  if (n == 0 || count == 0) return;
  const cudaStream_t s = def::cu::stream_of(c.stream);
  const auto& st = c.core_steps;  // a: 0, 1; w: 2; v: 3, 4
  tk::Scratch<T> a(count * n * n, s);
  tk::Scratch<R> w(count * n, s);
  tk::Scratch<int> info(count, s);
  batch::gather_into(batch::operand(c, 0, n, n, st[0], st[1]), a.p, count, s);
  const cusolverDnHandle_t h = tk::solver(s);
  const auto jobz = kVectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const auto uplo = CUBLAS_FILL_MODE_LOWER;
  const int ni = batch::as_int(n, "n");
  int lwork = 0;
  if (n <= kJacobiMax) {
    const int bi = batch::as_int(count, "the batch");
    const syevjInfo_t params = jacobi_params();
    tk::check(
        tk::syevj_batched_size(a.p, h, jobz, uplo, ni, tk::lib(a.p), ni, w.p, &lwork, params, bi),
        "cusolverDn<t>syevjBatched_bufferSize");
    tk::Scratch<T> work(lwork, s);
    tk::check(tk::syevj_batched(a.p, h, jobz, uplo, ni, tk::lib(a.p), ni, w.p, tk::lib(work.p),
                                lwork, info.p, params, bi),
              "cusolverDn<t>syevjBatched");
  } else {
    tk::check(tk::syevd_size(a.p, h, jobz, uplo, ni, tk::lib(a.p), ni, w.p, &lwork),
              "cusolverDn<t>syevd_bufferSize");
    tk::Scratch<T> work(lwork, s);
    for (std::int64_t b = 0; b < count; ++b) {
      tk::check(tk::syevd(a.p, h, jobz, uplo, ni, tk::lib(a.p + b * n * n), ni, w.p + b * n,
                          tk::lib(work.p), lwork, info.p + b),
                "cusolverDn<t>syevd");
    }
  }
  batch::scatter_from(w.p, batch::operand(c, 1, n, 1, st[2], 0), count, info.p, s);
  if constexpr (kVectors) {
    batch::scatter_from(a.p, batch::operand(c, 2, n, n, st[3], st[4]), count, info.p, s);
  }
}

template <class T>
struct EighL {
  static void run(const GufuncCall& c, const void* d) { eigh_loop<T, true>(c, d); }
};
template <class T>
struct EigvalshL {
  static void run(const GufuncCall& c, const void* d) { eigh_loop<T, false>(c, d); }
};

template <class T>
struct CholeskyL {
  static void run(const GufuncCall& c, const void* d) { cholesky_loop<T>(c, d); }
};

}  // namespace

void register_eig_cuda(Registrar& reg) {
  using namespace cuda_types;
  def::gufunc<dev::Cholesky, LOOM_LINALG_CUDA_SAME(LOOM_LINALG_CUDA_U)>(
      reg, "cholesky", "(n,n)->(n,n)", "lower Cholesky factor (NaN where not positive definite)");
  batch::replace_all(reg, "cholesky",
                     "n <= 8: a thread a matrix; larger: cusolverDn<t>potrfBatched",
                     batch::pick<CholeskyL>);
  constexpr const char* kEigen = "cusolverDn syevjBatched (n <= 32), syevd per matrix above";
  batch::add_toolkit_op<shapes::EighArgs, EighL, outs<f32, f32>(f32), outs<f64, f64>(f64),
                        outs<f32, c64>(c64), outs<f64, c128>(c128)>(
      reg, "eigh", "(n,n)->(n),(n,n)", "eigenvalues and eigenvectors of a Hermitian matrix",
      kEigen);
  batch::add_toolkit_op<shapes::EigvalshArgs, EigvalshL, f32(f32), f64(f64), f32(c64), f64(c128)>(
      reg, "eigvalsh", "(n,n)->(n)", "eigenvalues of a Hermitian matrix", kEigen);
}

}  // namespace loom::linalg
