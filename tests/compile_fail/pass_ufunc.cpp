// Functors the ufunc checks must accept: a template (also for SIMD), exact non-template types,
// non-template overloads, a template per input type, another output type (a comparison), an
// `auto` result of the right type, const& inputs, several outputs (template and exact types).
#include <cstdint>

#include "loom/def/ufunc.hpp"

namespace {
struct Add {
  static constexpr bool vectorize = true;
  template <class T>
  T operator()(T x, T y) const {
    return x + y;
  }
};
struct Exact {
  double operator()(std::int32_t a, std::int32_t b) const { return static_cast<double>(a) / b; }
};
struct Overloads {
  float operator()(float x) const { return -x; }
  double operator()(double x) const noexcept { return -x; }
};
struct Ldexp {
  template <class T, class I>
  T operator()(T x, I e) const {
    return x * static_cast<T>(e);
  }
};
struct Less {
  template <class T>
  bool operator()(T x, T y) const {
    return x < y;
  }
};
struct Same {
  template <class T>
  auto operator()(T x) const {
    return x;
  }
};
struct ByConstRef {
  float operator()(const float& x, const float& y) const { return x * y; }
};
struct DivMod {
  template <class T>
  void operator()(T x, T y, T& q, T& r) const {
    q = x / y;
    r = x - q * y;
  }
};
struct Frexp {
  void operator()(double x, double& m, std::int32_t& e) const {
    m = x;
    e = 0;
  }
};

void register_ops(loom::Registrar& reg) {
  loom::def::ufunc<Add, std::int8_t(std::int8_t, std::int8_t), float(float, float),
                   double(double, double)>(reg, "add", "", loom::def::identity(0));
  loom::def::ufunc<Exact, double(std::int32_t, std::int32_t)>(reg, "ratio", "");
  loom::def::ufunc<Overloads, float(float), double(double)>(reg, "neg", "");
  loom::def::ufunc<Ldexp, float(float, std::int32_t), double(double, std::int64_t)>(reg, "ldexp",
                                                                                    "");
  loom::def::ufunc<Less, bool(float, float), bool(std::int64_t, std::int64_t)>(reg, "less", "");
  loom::def::ufunc<Same, std::int8_t(std::int8_t), double(double)>(reg, "same", "");
  loom::def::ufunc<ByConstRef, float(float, float)>(reg, "mul", "");
  loom::def::ufunc<DivMod, loom::def::outs<float, float>(float, float)>(reg, "divmod", "");
  loom::def::ufunc<Frexp, loom::def::outs<double, std::int32_t>(double)>(reg, "frexp", "");
}
}  // namespace
