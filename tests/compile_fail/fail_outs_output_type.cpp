// clang-format off
// expect: loom::def::ufunc: the functor's parameter 3 is not the signature's output type at that position
// clang-format on
#include <cstdint>

#include "loom/def/ufunc.hpp"

struct Frexp {
  void operator()(double x, double& m, std::int64_t& e) const {
    m = x;
    e = 0;
  }
};

void register_ops(loom::Registrar& reg) {
  loom::def::ufunc<Frexp, loom::def::outs<double, std::int32_t>(double)>(reg, "frexp", "");
}
