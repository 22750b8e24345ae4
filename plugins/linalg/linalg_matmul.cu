// The linalg plugin's CUDA loop of matmul: small products (m n p < kGemmMin) the device loop (a
// thread an instance, device_ops.cuh); larger ones cuBLAS's gemmStridedBatched when every matrix
// is row- or column-major and the batch steps are constant (one call per batch, or per slice of
// the outer loop dims), else the device loop.
#include "batch.cuh"
#include "cuda_table.hpp"
#include "device_ops.cuh"
#include "toolkit.cuh"

namespace loom::linalg {

namespace {

// Below 16^3 multiply-adds an instance, a thread an instance beats cuBLAS's dispatch.
constexpr std::int64_t kGemmMin = 16 * 16 * 16;
// More outer slices than this (a batch that does not coalesce into one loop dim): the device loop.
constexpr std::int64_t kMaxSlices = 64;

// A rows x cols matrix with element strides s0, s1 as cuBLAS sees it: row-major data is its
// transpose in column-major order (op N gives the transpose), column-major data is itself (op T
// gives the transpose). A dim of size 1 may have any stride (a dropped m or p has stride 0).
struct Blas {
  bool ok = false;
  cublasOperation_t op = CUBLAS_OP_N;  // the op that gives the matrix's transpose
  std::int64_t ld = 1;
};
Blas transposed(std::int64_t rows, std::int64_t cols, std::int64_t s0, std::int64_t s1) {
  if ((cols == 1 || s1 == 1) && (rows == 1 || s0 >= cols)) {
    return {true, CUBLAS_OP_N, rows == 1 ? cols : s0};
  }
  if ((rows == 1 || s0 == 1) && (cols == 1 || s1 >= rows)) {
    return {true, CUBLAS_OP_T, cols == 1 ? rows : s1};
  }
  return {};
}

template <class T>
bool gemm(const GufuncCall& c) {
  constexpr auto kSize = static_cast<std::int64_t>(sizeof(T));
  const std::int64_t m = c.core_dims[0], n = c.core_dims[1], p = c.core_dims[2];
  const auto& st = c.core_steps;  // a: 0, 1; b: 2, 3; c: 4, 5 (bytes)
  for (auto s : st)
    if (s % kSize != 0) return false;
  const StridedIter& it = c.outer;
  for (int a = 0; a < 3; ++a)
    for (auto s : it.strides[a])
      if (s % kSize != 0) return false;
  const Blas A = transposed(m, n, st[0] / kSize, st[1] / kSize);
  const Blas B = transposed(n, p, st[2] / kSize, st[3] / kSize);
  // The output must be row-major: cuBLAS writes C^T column-major.
  const std::int64_t c0 = st[4] / kSize, c1 = st[5] / kSize;
  const bool c_ok = (p == 1 || c1 == 1) && (m == 1 || c0 >= p);
  if (!A.ok || !B.ok || !c_ok) return false;
  const std::int64_t ldc = m == 1 ? p : c0;
  // The batch: the innermost loop dim in one call, the others slice by slice.
  const int nd = static_cast<int>(it.shape.size());
  const std::int64_t count = it.shape[nd - 1];
  const std::int64_t slices = it.size() / std::max<std::int64_t>(count, 1);
  if (count == 0) return true;
  if (slices > kMaxSlices) return false;
  for (int a = 0; a < 3; ++a)
    if (it.strides[a][nd - 1] < 0) return false;
  for (auto v : {m, n, p, A.ld, B.ld, ldc, count})
    if (v > 0x7fffffff) return false;
  const cudaStream_t s = def::cu::stream_of(c.stream);
  const cublasHandle_t h = tk::blas(s);
  const T one = T(1), zero = T(0);
  for (std::int64_t q = 0; q < slices; ++q) {
    char* base[3] = {it.base[0], it.base[1], it.base[2]};
    for (std::int64_t k = nd - 2, r = q; k >= 0; --k) {
      const std::int64_t i = r % it.shape[k];
      r /= it.shape[k];
      for (int a = 0; a < 3; ++a) base[a] += i * it.strides[a][k];
    }
    // C^T (p x m) = B^T (p x n) A^T (n x m), all column-major.
    tk::check(
        tk::gemm_strided_batched(
            reinterpret_cast<T*>(base[2]), h, B.op, A.op, static_cast<int>(p), static_cast<int>(m),
            static_cast<int>(n), tk::lib(&one), tk::lib(reinterpret_cast<const T*>(base[1])),
            static_cast<int>(B.ld), static_cast<long long>(it.strides[1][nd - 1] / kSize),
            tk::lib(reinterpret_cast<const T*>(base[0])), static_cast<int>(A.ld),
            static_cast<long long>(it.strides[0][nd - 1] / kSize), tk::lib(&zero),
            tk::lib(reinterpret_cast<T*>(base[2])), static_cast<int>(ldc),
            static_cast<long long>(it.strides[2][nd - 1] / kSize), static_cast<int>(count)),
        "cublas<t>gemmStridedBatched");
  }
  return true;
}

template <class T>
struct MatmulL {
  static void run(const GufuncCall& c, const void* data) {
    const std::int64_t m = c.core_dims[0], n = c.core_dims[1], p = c.core_dims[2];
    if (m * n * p >= kGemmMin && n > 0 && gemm<T>(c)) return;
    (*static_cast<const batch::Generic*>(data))(c);
  }
};

}  // namespace

void register_matmul_cuda(Registrar& reg) {
  using namespace cuda_types;
  def::gufunc<dev::Matmul, LOOM_LINALG_CUDA_SAME(LOOM_LINALG_CUDA_B)>(
      reg, "matmul", "(m?,n),(n,p?)->(m?,p?)", "matrix product (np.matmul)");
  batch::replace_all(reg, "matmul",
                     "m n p < 16^3: a thread a product; larger: cublas<t>gemmStridedBatched",
                     batch::pick<MatmulL>);
}

}  // namespace loom::linalg
