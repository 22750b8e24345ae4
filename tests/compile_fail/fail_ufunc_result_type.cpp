// clang-format off
// expect: loom::def::ufunc: the functor's operator() returns another type than the signature's output
// clang-format on
// `auto` deduces int from int8 + int8: the int8 loop would narrow every result.
#include <cstdint>

#include "loom/def/ufunc.hpp"

struct Twice {
  template <class T>
  auto operator()(T x) const {
    return x + x;
  }
};

void register_ops(loom::Registrar& reg) {
  loom::def::ufunc<Twice, std::int8_t(std::int8_t)>(reg, "twice", "");
}
