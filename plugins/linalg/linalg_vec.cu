// The linalg plugin's CUDA loops of the vector group: norm, vecdot, cross (device_ops.cuh): a
// thread an instance, a warp an instance for vectors of 32 elements or more.
#include "cuda_table.hpp"
#include "device_ops.cuh"

namespace loom::linalg {

void register_vec_cuda(Registrar& reg) {
  using namespace cuda_types;
  using loom::def::gufunc;
  gufunc<dev::Norm, f32(f32), f64(f64), f32(c64), f64(c128)>(reg, "norm", "(n)->()", "2-norm");
  gufunc<dev::Vecdot, LOOM_LINALG_CUDA_SAME(LOOM_LINALG_CUDA_B)>(reg, "vecdot", "(n),(n)->()",
                                                                 "sum of conj(x) * y");
  gufunc<dev::Cross, LOOM_LINALG_CUDA_SAME(LOOM_LINALG_CUDA_B)>(reg, "cross", "(3),(3)->(3)",
                                                                "cross product");
}

}  // namespace loom::linalg
