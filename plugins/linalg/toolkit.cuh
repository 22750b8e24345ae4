// cuBLAS and cuSOLVER for the linalg plugin's CUDA half: one handle of each per host thread and
// device (creating one costs milliseconds; a handle is not to be shared between threads), bound to
// the call's stream, and the typed entry points over loom's element types (cuda::std::complex has
// cuComplex's layout). Only included by .cu files.
#pragma once
#include <cublas_v2.h>
#include <cusolverDn.h>

#include <cuda/std/complex>
#include <string>
#include <unordered_map>

#include "loom/def/launch.cuh"
#include "loom/error.hpp"

namespace loom::linalg::tk {

inline void check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) {
    throw DeviceError(std::string("linalg: ") + what + " failed: " + cublasGetStatusString(s));
  }
}
inline void check(cusolverStatus_t s, const char* what) {
  if (s != CUSOLVER_STATUS_SUCCESS) {
    throw DeviceError(std::string("linalg: ") + what + " failed with cusolverStatus_t " +
                      std::to_string(static_cast<int>(s)));
  }
}

// The handles live as long as the thread and are never destroyed: at process exit the CUDA
// runtime may already be gone, and destroying a handle then crashes.
inline cublasHandle_t blas(cudaStream_t stream) {
  thread_local std::unordered_map<int, cublasHandle_t> handles;
  int dev = 0;
  def::cu::check(cudaGetDevice(&dev), "cudaGetDevice");
  auto [it, fresh] = handles.try_emplace(dev, nullptr);
  if (fresh) {
    try {
      check(cublasCreate(&it->second), "cublasCreate");
    } catch (...) {
      handles.erase(it);
      throw;
    }
  }
  check(cublasSetStream(it->second, stream), "cublasSetStream");
  return it->second;
}

inline cusolverDnHandle_t solver(cudaStream_t stream) {
  thread_local std::unordered_map<int, cusolverDnHandle_t> handles;
  int dev = 0;
  def::cu::check(cudaGetDevice(&dev), "cudaGetDevice");
  auto [it, fresh] = handles.try_emplace(dev, nullptr);
  if (fresh) {
    try {
      check(cusolverDnCreate(&it->second), "cusolverDnCreate");
    } catch (...) {
      handles.erase(it);
      throw;
    }
  }
  check(cusolverDnSetStream(it->second, stream), "cusolverDnSetStream");
  return it->second;
}

// Device memory for one call, freed in stream order after the work queued on it.
template <class T>
struct Scratch {
  T* p = nullptr;
  cudaStream_t stream;
  Scratch(std::int64_t count, cudaStream_t s) : stream(s) {
    if (count > 0) {
      def::cu::check(cudaMallocAsync(reinterpret_cast<void**>(&p), count * sizeof(T), stream),
                     "cudaMallocAsync (linalg scratch)");
    }
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  ~Scratch() {
    if (p) (void)cudaFreeAsync(p, stream);
  }
};

// The library's own element type of T (cuComplex for cuda::std::complex<float>).
template <class T>
struct lib_of {
  using type = T;
};
template <>
struct lib_of<cuda::std::complex<float>> {
  using type = cuComplex;
};
template <>
struct lib_of<cuda::std::complex<double>> {
  using type = cuDoubleComplex;
};
template <class T>
using lib_t = typename lib_of<T>::type;
template <class T>
lib_t<T>* lib(T* p) {
  return reinterpret_cast<lib_t<T>*>(p);
}
template <class T>
const lib_t<T>* lib(const T* p) {
  return reinterpret_cast<const lib_t<T>*>(p);
}
// An array of matrix pointers (the batched LU's and Cholesky's).
template <class T>
lib_t<T>** libs(T** p) {
  return reinterpret_cast<lib_t<T>**>(p);
}

// One overload set per entry point, picked by the element type; S, D, C, Z as LAPACK names them.
#define LOOM_TK_4(NAME, S, D, C, Z)                \
  template <class... A>                            \
  auto NAME(float*, A... a) {                      \
    return S(a...);                                \
  }                                                \
  template <class... A>                            \
  auto NAME(double*, A... a) {                     \
    return D(a...);                                \
  }                                                \
  template <class... A>                            \
  auto NAME(cuda::std::complex<float>*, A... a) {  \
    return C(a...);                                \
  }                                                \
  template <class... A>                            \
  auto NAME(cuda::std::complex<double>*, A... a) { \
    return Z(a...);                                \
  }

LOOM_TK_4(gemm_strided_batched, cublasSgemmStridedBatched, cublasDgemmStridedBatched,
          cublasCgemmStridedBatched, cublasZgemmStridedBatched)
LOOM_TK_4(getrf_batched, cublasSgetrfBatched, cublasDgetrfBatched, cublasCgetrfBatched,
          cublasZgetrfBatched)
LOOM_TK_4(getri_batched, cublasSgetriBatched, cublasDgetriBatched, cublasCgetriBatched,
          cublasZgetriBatched)
LOOM_TK_4(getrs_batched, cublasSgetrsBatched, cublasDgetrsBatched, cublasCgetrsBatched,
          cublasZgetrsBatched)
LOOM_TK_4(getrf_size, cusolverDnSgetrf_bufferSize, cusolverDnDgetrf_bufferSize,
          cusolverDnCgetrf_bufferSize, cusolverDnZgetrf_bufferSize)
LOOM_TK_4(getrf, cusolverDnSgetrf, cusolverDnDgetrf, cusolverDnCgetrf, cusolverDnZgetrf)
LOOM_TK_4(getrs, cusolverDnSgetrs, cusolverDnDgetrs, cusolverDnCgetrs, cusolverDnZgetrs)
LOOM_TK_4(potrf_batched, cusolverDnSpotrfBatched, cusolverDnDpotrfBatched, cusolverDnCpotrfBatched,
          cusolverDnZpotrfBatched)
LOOM_TK_4(syevj_batched_size, cusolverDnSsyevjBatched_bufferSize,
          cusolverDnDsyevjBatched_bufferSize, cusolverDnCheevjBatched_bufferSize,
          cusolverDnZheevjBatched_bufferSize)
LOOM_TK_4(syevj_batched, cusolverDnSsyevjBatched, cusolverDnDsyevjBatched, cusolverDnCheevjBatched,
          cusolverDnZheevjBatched)
LOOM_TK_4(syevd_size, cusolverDnSsyevd_bufferSize, cusolverDnDsyevd_bufferSize,
          cusolverDnCheevd_bufferSize, cusolverDnZheevd_bufferSize)
LOOM_TK_4(syevd, cusolverDnSsyevd, cusolverDnDsyevd, cusolverDnCheevd, cusolverDnZheevd)
LOOM_TK_4(geqrf_size, cusolverDnSgeqrf_bufferSize, cusolverDnDgeqrf_bufferSize,
          cusolverDnCgeqrf_bufferSize, cusolverDnZgeqrf_bufferSize)
LOOM_TK_4(geqrf, cusolverDnSgeqrf, cusolverDnDgeqrf, cusolverDnCgeqrf, cusolverDnZgeqrf)
LOOM_TK_4(orgqr_size, cusolverDnSorgqr_bufferSize, cusolverDnDorgqr_bufferSize,
          cusolverDnCungqr_bufferSize, cusolverDnZungqr_bufferSize)
LOOM_TK_4(orgqr, cusolverDnSorgqr, cusolverDnDorgqr, cusolverDnCungqr, cusolverDnZungqr)
LOOM_TK_4(gesvd_size, cusolverDnSgesvd_bufferSize, cusolverDnDgesvd_bufferSize,
          cusolverDnCgesvd_bufferSize, cusolverDnZgesvd_bufferSize)
LOOM_TK_4(gesvd, cusolverDnSgesvd, cusolverDnDgesvd, cusolverDnCgesvd, cusolverDnZgesvd)
#undef LOOM_TK_4

}  // namespace loom::linalg::tk
