// clang-format off
// expect: loom::def::reduce: the functor takes a loom::ElementIndex, which only def::ufunc functors take
// clang-format on
#include "loom/def/reduce.hpp"

struct IndexedSum {
  double operator()(loom::ElementIndex e, double a, double b) const {
    return a + b + static_cast<double>(e.i);
  }
};

void register_ops(loom::Registrar& reg) {
  loom::def::reduce<IndexedSum, double(double, double)>(reg, "indexed_sum", {}, "");
}
