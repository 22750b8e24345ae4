// A tiny ops plugin for the parallel backend's tests, so that they do not depend on plugins/math.
// Names start with "t_" so that they never clash with a real plugin's ops.
#include <cmath>
#include <cstdint>
#include <optional>
#include <type_traits>

#include "loom/def/gufunc.hpp"
#include "loom/def/reduce.hpp"
#include "loom/def/ufunc.hpp"
#include "loom/plugin.hpp"

namespace {

// Integers wrap modulo 2^bits as NumPy's loops do (the tests' integer sums overflow on purpose;
// signed overflow itself would be undefined, and UBSan stops on it).
template <class T>
using wrap_t = std::make_unsigned_t<T>;

struct Add {
  static constexpr bool vectorize = true;
  template <class T>
  T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      return static_cast<T>(static_cast<wrap_t<T>>(a) + static_cast<wrap_t<T>>(b));
    } else {
      return a + b;
    }
  }
};

struct Sub {
  template <class T>
  T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      return static_cast<T>(static_cast<wrap_t<T>>(a) - static_cast<wrap_t<T>>(b));
    } else {
      return a - b;
    }
  }
};

struct SinExp {
  static constexpr bool vectorize = true;
  template <class T>
  T operator()(T a, T b) const {
    using std::exp;
    using std::sin;
    return sin(a) * exp(b);
  }
};

struct Max {
  template <class T>
  T operator()(T a, T b) const {
    return (a >= b || a != a) ? a : b;
  }
};

struct SumRow {
  template <class T>
  void operator()(loom::View<const T, 2> a, loom::View<T, 1> out) const {
    for (std::int64_t i = 0; i < a.shape[0]; ++i) {
      T s = 0;
      for (std::int64_t j = 0; j < a.shape[1]; ++j) s += a(i, j);
      out(i) = s;
    }
  }
};

struct Dot {
  template <class T>
  void operator()(loom::View<const T, 1> a, loom::View<const T, 1> b, T& out) const {
    T s = 0;
    for (std::int64_t i = 0; i < a.shape[0]; ++i) s += a(i) * b(i);
    out = s;
  }
};

void register_ops(loom::Registrar& r) {
  using loom::def::gufunc;
  using loom::def::reduce;
  using loom::def::ufunc;
  ufunc<Add, float(float, float), double(double, double)>(r, "t_add", "a + b");
  ufunc<SinExp, float(float, float), double(double, double)>(r, "t_sinexp", "sin(a) * exp(b)");
  // The ufunc methods' three kinds of op, as NumPy declares add, subtract and maximum.
  using i32 = std::int32_t;
  using i64 = std::int64_t;
  ufunc<Add, i32(i32, i32), i64(i64, i64), float(float, float), double(double, double)>(
      r, "t_plus", "a + b (identity 0)", loom::def::identity(0));
  ufunc<Sub, i32(i32, i32), i64(i64, i64), float(float, float), double(double, double)>(
      r, "t_minus", "a - b (not reorderable)");
  ufunc<Max, i64(i64, i64), float(float, float), double(double, double)>(
      r, "t_maximum", "larger of a and b (reorderable, no identity)", loom::def::reorderable);
  reduce<Add, float(float, float), double(double, double)>(r, "t_sum", 0.0, "sum");
  reduce<Max, float(float, float), double(double, double)>(r, "t_max", loom::def::reorderable,
                                                           "maximum");
  gufunc<SumRow, float(float), double(double)>(r, "t_sum_row", "(n,m)->(n)", "row sums");
  gufunc<Dot, float(float, float), double(double, double)>(r, "t_dot", "(n),(n)->()", "dot");
}

}  // namespace

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "tbbtest_ops", loom::Family::host, &register_ops,
                              nullptr}))
