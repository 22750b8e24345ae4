// clang-format off
// expect: loom::def::gufunc: the functor's parameter 2 is not of the signature's dtype at that position
// clang-format on
// The case that compiled and read 8 bytes from each 4-byte float: float(float, float) declared,
// the second parameter an int64.
#include <cstdint>

#include "loom/def/gufunc.hpp"

struct Power {
  template <class T>
  void operator()(loom::View<const T, 1> x, std::int64_t k, loom::View<T, 1> out) const {
    for (std::int64_t i = 0; i < x.shape[0]; ++i) out(i) = x(i) * static_cast<T>(k);
  }
};

void register_ops(loom::Registrar& reg) {
  loom::def::gufunc<Power, float(float, float)>(reg, "power_n", "(n),()->(n)", "");
}
