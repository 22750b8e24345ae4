// An op defined in the program itself, no plugin: the shortest program that defines a ufunc with
// loom's def:: tables and calls it (README.md, "Define an op in your program").
#include <iostream>
#include <loom/def/ufunc.hpp>
#include <loom/loom.hpp>

struct Cube {
  template <class T>
  T operator()(T x) const {
    return x * x * x;
  }
};

int main() {
  loom::Runtime rt;
  rt.define("myapp", [](loom::Registrar& reg) {
    loom::def::ufunc<Cube, float(float), double(double)>(reg, "cube", "x**3");
  });
  auto y = rt.ufunc("cube")(loom::arange(0.0, 5.0));  // also {.target = "parallel"}
  for (double v : y.to_vector<double>()) std::cout << v << " ";
  std::cout << "\n";  // 0 1 8 27 64
}
