// The linalg plugin's CUDA table: the ops of table.hpp that run on cuda, over the same dtypes
// (complex as cuda::std::complex, loom/def/complex.cuh), one group per translation unit
// (linalg_<group>.cu). Only included by .cu files.
#pragma once
#include <cuda/std/complex>

#include "loom/def/complex.cuh"
#include "loom/def/gufunc.cuh"
#include "loom/registry.hpp"

namespace loom::linalg::cuda_types {
using f32 = float;
using f64 = double;
using c64 = cuda::std::complex<float>;
using c128 = cuda::std::complex<double>;
using loom::def::outs;
}  // namespace loom::linalg::cuda_types

namespace loom::linalg {

#define LOOM_LINALG_CUDA_SAME(M) M(f32), M(f64), M(c64), M(c128)
#define LOOM_LINALG_CUDA_U(T) T(T)
#define LOOM_LINALG_CUDA_B(T) T(T, T)

void register_lu_cuda(Registrar& reg);      // det, slogdet, inv, solve, solve1
void register_eig_cuda(Registrar& reg);     // cholesky, eigh, eigvalsh
void register_qr_svd_cuda(Registrar& reg);  // qr, svdvals
void register_vec_cuda(Registrar& reg);     // norm, vecdot, cross
void register_matmul_cuda(Registrar& reg);  // matmul

inline void register_linalg_cuda(Registrar& reg) {
  register_lu_cuda(reg);
  register_eig_cuda(reg);
  register_qr_svd_cuda(reg);
  register_vec_cuda(reg);
  register_matmul_cuda(reg);
}

}  // namespace loom::linalg
