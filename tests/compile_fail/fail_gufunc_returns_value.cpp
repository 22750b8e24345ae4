// clang-format off
// expect: loom::def::gufunc: the functor's operator() returns a value, which the loop would drop
// clang-format on
#include "loom/def/gufunc.hpp"

// Computes the sum but returns it instead of writing `out`: the loop would drop the value.
struct SumRow {
  template <class T>
  T operator()(loom::View<const T, 1> a, loom::View<T, 0> out) const {
    T s = 0;
    for (std::int64_t i = 0; i < a.shape(0); ++i) s += a(i);
    return s;
  }
};

void register_ops(loom::Registrar& reg) {
  loom::def::gufunc<SumRow, double(double)>(reg, "sum_row1", "(n)->()", "");
}
