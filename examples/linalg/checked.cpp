// docs/linalg.md's "Checked calls": loom::linalg::inv raises LinAlgError naming the failing batch
// index, where the gufunc inv gives NaN there, on any target. Run: linalg_checked [target].
#include <iostream>
#include <loom/linalg.hpp>
#include <loom/loom.hpp>
#include <string>

int main(int argc, char** argv) {
  loom::Runtime rt;
  const std::string target = argc > 1 ? argv[1] : rt.default_target();
  loom::Array a = loom::zeros({3, 4, 2, 2});  // a (3, 4) batch of 2x2 matrices, each 2 I
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 4; ++j) a.at<double>(i, j, 0, 0) = a.at<double>(i, j, 1, 1) = 2;
  }
  // Host arrays or device arrays alike; on cpu and parallel to_device gives a copy of `a`.
  loom::Array ainv = loom::linalg::inv(rt, rt.to_device(a, target), {.target = target});
  std::cout << rt.to_host(ainv).at<double>(2, 3, 1, 1) << "\n";  // 0.5

  a.at<double>(1, 2, 1, 1) = 0;  // instance (1, 2) is now singular
  try {
    loom::linalg::inv(rt, rt.to_device(a, target), {.target = target});
  } catch (const loom::LinAlgError& e) {
    std::cout << e.what() << "\n";  // inv: Singular matrix at batch index (1, 2) of a batch ...
    std::cout << e.batch_index()[0] << " " << e.batch_index()[1] << "\n";  // 1 2
  }
  // The gufunc itself, as NumPy's, gives NaN for that instance and the others' inverses.
  loom::Array g = rt.ufunc("inv")(a, {.target = target});
  std::cout << g.at<double>(1, 2, 0, 0) << " " << g.at<double>(0, 0, 0, 0) << "\n";  // nan 0.5
  return 0;
}
