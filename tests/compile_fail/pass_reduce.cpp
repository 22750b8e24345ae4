// Functors the reduction checks must accept: a template and exact non-template types.
#include <cstdint>

#include "loom/def/reduce.hpp"

namespace {
struct Add {
  template <class T>
  T operator()(T x, T y) const {
    return x + y;
  }
};
struct MaxI64 {
  std::int64_t operator()(std::int64_t x, std::int64_t y) const { return x > y ? x : y; }
};

void register_ops(loom::Registrar& reg) {
  loom::def::reduce<Add, std::int64_t(std::int64_t, std::int64_t), float(float, float),
                    double(double, double)>(reg, "total", loom::def::identity(0), "");
  loom::def::reduce<MaxI64, std::int64_t(std::int64_t, std::int64_t)>(reg, "largest",
                                                                      loom::def::reorderable, "");
}
}  // namespace
