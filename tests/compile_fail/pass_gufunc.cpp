// Functors the gufunc checks must accept: a template instantiated with each signature's own
// types (also when the first input is not T), one template parameter per operand, a non-template
// functor, a scalar int64 parameter, View<T, 0> outputs and a team overload beside the plain one.
#include <cstdint>

#include "loom/def/gufunc.hpp"

namespace {
struct Dot {
  template <class T>
  void operator()(loom::View<const T, 1> a, loom::View<const T, 1> b, T& out) const {
    out = a(0) * b(0);
  }
};
struct Scale {  // the first input is an int64 scalar, T comes from the second
  template <class T>
  void operator()(std::int64_t k, loom::View<const T, 1> x, loom::View<T, 1> out) const {
    out(0) = x(0) * static_cast<T>(k);
  }
};
struct MixedDot {
  template <class A, class B, class R>
  void operator()(loom::View<const A, 1> a, loom::View<const B, 1> b, R& out) const {
    out = static_cast<R>(a(0)) * static_cast<R>(b(0));
  }
};
struct DotF {
  void operator()(loom::View<const float, 1> a, loom::View<const float, 1> b, float& out) const {
    out = a(0) * b(0);
  }
};
struct SumTeam {
  template <class T>
  void operator()(loom::View<const T, 1> a, loom::View<T, 0> out) const {
    out() = a(0);
  }
  template <class T, class Team>
  void operator()(const Team&, loom::View<const T, 1> a, loom::View<T, 0> out) const {
    out() = a(0);
  }
};

void register_ops(loom::Registrar& reg) {
  loom::def::gufunc<Dot, float(float, float), double(double, double)>(reg, "dot", "(n),(n)->()",
                                                                      "");
  loom::def::gufunc<Scale, float(std::int64_t, float), double(std::int64_t, double)>(
      reg, "scale", "(),(n)->(n)", "");
  loom::def::gufunc<MixedDot, double(float, std::int32_t)>(reg, "mixed_dot", "(n),(n)->()", "");
  loom::def::gufunc<DotF, float(float, float)>(reg, "dot_f", "(n),(n)->()", "");
  loom::def::gufunc<SumTeam, float(float), double(double)>(reg, "first", "(n)->()", "");
}
}  // namespace
