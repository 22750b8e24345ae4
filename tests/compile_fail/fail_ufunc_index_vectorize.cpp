// clang-format off
// expect: loom::def::ufunc: the functor takes a loom::ElementIndex and declares `vectorize = true`
// clang-format on
#include "loom/def/ufunc.hpp"

struct Jitter {
  static constexpr bool vectorize = true;
  template <class T>
  T operator()(loom::ElementIndex e, T x) const {
    return x + static_cast<T>(e.i);
  }
};

void register_ops(loom::Registrar& reg) {
  loom::def::ufunc<Jitter, float(float)>(reg, "jitter", "");
}
