// clang-format off
// expect: loom::def::reduce: the functor's parameter 1 is not the signature's input type at that position
// clang-format on
#include "loom/def/reduce.hpp"

struct AddF {
  float operator()(float x, float y) const { return x + y; }
};

void register_ops(loom::Registrar& reg) {
  loom::def::reduce<AddF, double(double, double)>(reg, "total", loom::def::identity(0), "");
}
