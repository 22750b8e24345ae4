// Interop without copies (docs/interop.md): an Eigen matrix as a loom array, a loom array as an
// Eigen map, and a DLPack export and import, all sharing one buffer.
#include <Eigen/Core>
#include <iostream>
#include <loom/array_interface.hpp>
#include <loom/dlpack.hpp>
#include <loom/eigen.hpp>
#include <loom/loom.hpp>

int main() {
  loom::Runtime rt;
  // Eigen -> loom: a view of m's memory, with column-major strides (8, 16).
  Eigen::MatrixXd m(2, 3);
  m << 1, 2, 3, 4, 5, 6;
  loom::Array a = loom::as_array(m);
  rt.ufunc("multiply")(a, 10.0, {.out = {a}});  // writes m in place

  // loom -> Eigen: a Map with the array's strides, here of a transposed view (read-only map).
  auto t = loom::as_eigen<const Eigen::MatrixXd>(a.transpose());
  std::cout << m.sum() << " " << t(2, 1) << "\n";  // 210 60

  // DLPack: what a PyTorch or CuPy consumer would receive, imported back without a copy. loom
  // owns `dl` once from_dlpack returns: it runs dl's deleter when the last view of b goes.
  DLManagedTensorVersioned* dl = loom::to_dlpack_versioned(a);
  loom::Array b = loom::from_dlpack(dl);
  const loom::ArrayInterface i = loom::interface_of(b);
  std::cout << (i.data == a.data()) << " " << i.typestr << " " << loom::shape_str(i.strides)
            << "\n";  // 1 <f8 (8, 16)
}
