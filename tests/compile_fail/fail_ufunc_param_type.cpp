// clang-format off
// expect: loom::def::ufunc: the functor's parameter 2 is not the signature's input type at that position
// clang-format on
// A float(float, float) loop on a functor whose second parameter is int64: each element would be
// converted (silently, and for a gufunc read as 8 bytes of a 4-byte float).
#include <cstdint>

#include "loom/def/ufunc.hpp"

struct Scale {
  float operator()(float x, std::int64_t k) const { return x * static_cast<float>(k); }
};

void register_ops(loom::Registrar& reg) {
  loom::def::ufunc<Scale, float(float, float)>(reg, "scale", "");
}
