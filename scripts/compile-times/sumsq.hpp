// The op scripts/compile-times/run compiles: one ufunc, two signatures, as docs/plugins.md writes
// one (a binary T(T,T) op, so both halves also build its reduce, accumulate and at loops).
#pragma once
#include "loom/hd.hpp"
#include "loom/registry.hpp"

struct SumSq {
  static constexpr bool vectorize = true;
  template <class T>
  LOOM_HD T operator()(T a, T b) const {
    return a * a + b * b;
  }
};

namespace sumsq {
inline void register_ops(loom::Registrar& reg) {
  loom::def::ufunc<SumSq, float(float, float), double(double, double)>(reg, "sumsq", "a*a + b*b");
}
}  // namespace sumsq
