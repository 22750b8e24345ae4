// clang-format off
// expect: loom::def::ufunc: the functor's parameter 3 is an output not taken as a non-const reference
// clang-format on
// Outputs taken by value: the results would never reach the arrays.
#include "loom/def/ufunc.hpp"

struct DivMod {
  template <class T>
  void operator()(T x, T y, T q, T r) const {
    q = x / y;
    r = x - q * y;
  }
};

void register_ops(loom::Registrar& reg) {
  loom::def::ufunc<DivMod, loom::def::outs<float, float>(float, float)>(reg, "divmod", "");
}
