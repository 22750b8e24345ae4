// clang-format off
// expect: loom::def::ufunc: the functor's parameter 2 is not the signature's input type at that position
// clang-format on
// A template instantiated with the signature's types still takes (T, T): the int64 input of
// float(float, int64) would be converted to float.
#include <cstdint>

#include "loom/def/ufunc.hpp"

struct Add {
  template <class T>
  T operator()(T x, T y) const {
    return x + y;
  }
};

void register_ops(loom::Registrar& reg) {
  loom::def::ufunc<Add, float(float, std::int64_t)>(reg, "add_mixed", "");
}
