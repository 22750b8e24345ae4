// libloom_testops: a test-only ops plugin (like NumPy's _umath_tests) so that the core tests do
// not depend on plugins/math. Every op is prefixed "t_" so that it never collides with a real
// plugin that shares the search path.
#include <cmath>
#include <cstdint>
#include <optional>
#include <type_traits>

#include "loom/def/gufunc.hpp"
#include "loom/def/reduce.hpp"
#include "loom/def/ufunc.hpp"
#include "loom/plugin.hpp"

namespace {

using loom::View;

// Marked `vectorize`: the float loops go through the xsimd path, as real plugins' do.
struct Add {
  static constexpr bool vectorize = true;
  template <class T>
  T operator()(T a, T b) const {
    return a + b;
  }
};

struct IntAdd {  // wraps like NumPy's integer add
  template <class T>
  T operator()(T a, T b) const {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  }
};

struct DivMod {  // Python's floor division and modulo
  template <class T>
  void operator()(T a, T b, T& q, T& r) const {
    q = std::floor(a / b);
    r = a - q * b;
  }
};

// Two outputs on the SIMD path: (a + b, a - b), and `lanes`, 1 where the batch code computed the
// element and 0 where the scalar code did, so a test can see which path every element took.
struct AddSub {
  static constexpr bool vectorize = true;
  template <class T>
  void operator()(T a, T b, T& sum, T& diff, T& lanes) const {
    sum = a + b;
    diff = a - b;
    lanes = T(std::is_arithmetic_v<T> ? 0 : 1);
  }
};

struct Max {
  template <class T>
  T operator()(T a, T b) const {
    return (a >= b || a != a) ? a : b;
  }
};

struct Dot {  // (n),(n)->()
  template <class T>
  void operator()(View<const T, 1> a, View<const T, 1> b, T& out) const {
    T s = 0;
    for (std::int64_t i = 0; i < a.shape[0]; ++i) s += a(i) * b(i);
    out = s;
  }
};

struct MatMul {  // (m,n),(n,p)->(m,p)
  template <class T>
  void operator()(View<const T, 2> a, View<const T, 2> b, View<T, 2> c) const {
    for (std::int64_t i = 0; i < a.shape[0]; ++i) {
      for (std::int64_t j = 0; j < b.shape[1]; ++j) {
        T s = 0;
        for (std::int64_t k = 0; k < a.shape[1]; ++k) s += a(i, k) * b(k, j);
        c(i, j) = s;
      }
    }
  }
};

struct Cross {  // (3),(3)->(3)
  template <class T>
  void operator()(View<const T, 1> a, View<const T, 1> b, View<T, 1> c) const {
    c(0) = a(1) * b(2) - a(2) * b(1);
    c(1) = a(2) * b(0) - a(0) * b(2);
    c(2) = a(0) * b(1) - a(1) * b(0);
  }
};

struct Fill {  // ()->(k): k comes only from out=
  template <class T>
  void operator()(T x, View<T, 1> out) const {
    for (std::int64_t i = 0; i < out.shape[0]; ++i) out(i) = x;
  }
};

struct Poly5 {  // five inputs: a + b*x + c*x^2 + d*x^3 (x first), for calls past three inputs
  template <class T>
  T operator()(T x, T a, T b, T c, T d) const {
    return a + x * (b + x * (c + x * d));
  }
};

void register_ops(loom::Registrar& r) {
  namespace def = loom::def;
  using def::outs;
  using std::int16_t, std::int32_t, std::int64_t, std::int8_t;
  def::ufunc<Add, float(float, float), double(double, double)>(r, "t_add", "a + b");
  def::ufunc<IntAdd, int8_t(int8_t, int8_t), int16_t(int16_t, int16_t), int32_t(int32_t, int32_t),
             int64_t(int64_t, int64_t)>(r, "t_iadd", "a + b on integers, wrapping");
  def::ufunc<DivMod, outs<float, float>(float, float), outs<double, double>(double, double)>(
      r, "t_divmod", "floor(a / b), a - floor(a / b) * b");
  def::ufunc<AddSub, outs<float, float, float>(float, float),
             outs<double, double, double>(double, double)>(r, "t_addsub",
                                                           "a + b, a - b, 1 on the SIMD path");
  def::reduce<Add, float(float, float), double(double, double)>(r, "t_sum", 0.0, "sum");
  def::reduce<Max, float(float, float), double(double, double)>(r, "t_max", def::reorderable,
                                                                "max");
  def::gufunc<Dot, float(float, float), double(double, double)>(r, "t_dot", "(n),(n)->()", "");
  def::gufunc<MatMul, float(float, float), double(double, double)>(r, "t_matmul",
                                                                   "(m,n),(n,p)->(m,p)", "");
  def::gufunc<Cross, double(double, double)>(r, "t_cross", "(3),(3)->(3)", "");
  def::gufunc<Fill, double(double)>(r, "t_fill", "()->(k)", "");
  def::ufunc<Poly5, double(double, double, double, double, double)>(
      r, "t_poly5", "a + b*x + c*x^2 + d*x^3 (five inputs)");
}

}  // namespace

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "testops", loom::Family::host, &register_ops,
                              nullptr}))
