// Ops a test program defines itself (Runtime::define), one table for both families as a plugin's
// table.hpp: test_define.cpp includes it after the host def headers, the CUDA test's .cu after
// the .cuh ones. It includes no def header.
#pragma once
#include <cstdint>

#include "loom/hd.hpp"
#include "loom/registry.hpp"
#include "loom/thread_ctx.hpp"
#include "loom/view.hpp"

namespace define_test {

// 2x + y: 2x is exact, so a fused multiply-add (nvcc contracts) rounds as the host's two steps.
struct Affine {
  static constexpr bool vectorize = true;
  template <class T>
  LOOM_HD T operator()(T x, T y) const {
    return x * T(2) + y;
  }
};

// Two outputs: (x + y, x - y).
struct SumDiff {
  template <class T>
  LOOM_HD void operator()(T x, T y, T& sum, T& diff) const {
    sum = x + y;
    diff = x - y;
  }
};

struct Plus {
  template <class T>
  LOOM_HD T operator()(T x, T y) const {
    return x + y;
  }
};

struct Larger {
  template <class T>
  LOOM_HD T operator()(T x, T y) const {
    return x < y ? y : x;
  }
};

// (n),(n)->(): strictly in order, as the plain loop the tests compare with.
struct Dot {
  template <class T>
  LOOM_HD void operator()(loom::View<const T, 1> a, loom::View<const T, 1> b, T& out) const {
    T s = 0;
    for (std::int64_t i = 0; i < a.shape[0]; ++i) s += a(i) * b(i);
    out = s;
  }
};

// matmul's layout (m?,n),(n,p?)->(m?,p?): a dropped m or p reaches the views with size 1, so one
// functor serves matrix @ matrix, vector @ matrix, matrix @ vector and vector @ vector.
struct MatmulFlex {
  template <class T>
  LOOM_HD void operator()(loom::View<const T, 2> a, loom::View<const T, 2> b,
                          loom::View<T, 2> c) const {
    for (std::int64_t i = 0; i < a.shape[0]; ++i) {
      for (std::int64_t j = 0; j < b.shape[1]; ++j) {
        T s = 0;
        for (std::int64_t k = 0; k < a.shape[1]; ++k) s += a(i, k) * b(k, j);
        c(i, j) = s;
      }
    }
  }
};

// ()->() with its input taken as a rank-0 View (read as x()), int32 only: twice(10) must resolve
// the weak literal to this loop as a ufunc call does.
struct Twice {
  LOOM_HD void operator()(loom::View<const std::int32_t, 0> x, std::int32_t& out) const {
    out = 2 * x();
  }
};

// (),(n)->(n): a scale factor as a rank-0 View beside a vector.
struct ScaleBy {
  template <class T>
  LOOM_HD void operator()(loom::View<const T, 0> a, loom::View<const T, 1> x,
                          loom::View<T, 1> out) const {
    for (std::int64_t i = 0; i < x.shape[0]; ++i) out(i) = a() * x(i);
  }
};

// (n)->(n): doubles the first half of x into out and leaves out's second half alone, so that
// an out= keeps what it held there on every target (cuda copies small instances through shared
// memory and must copy them back unchanged).
struct FirstHalf {
  template <class T>
  LOOM_HD void operator()(loom::View<const T, 1> x, loom::View<T, 1> out) const {
    for (std::int64_t i = 0; i < x.shape[0] / 2; ++i) out(i) = 2 * x(i);
  }
};

// out[i] = a * x[i] with a grid-stride loop.
template <class T>
struct Scale {
  LOOM_HD void operator()(const loom::ThreadCtx& t, loom::View<const T> x, T a,
                          loom::View<T> out) const {
    for (std::int64_t i = t.grid(), n = out.size(); i < n; i += t.gridsize()) out(i) = a * x(i);
  }
};

// Internal linkage: the host test and the CUDA test's .cu both define this table with other
// def:: functions in scope; two external definitions of one name would be an ODR violation (the
// linker keeps one). Plugins do not meet this: each build is a library of its own.
namespace {

void define_ops(loom::Registrar& reg) {
  using loom::def::outs;
  loom::def::ufunc<Affine, float(float, float), double(double, double)>(reg, "app_affine",
                                                                        "2x + y");
  loom::def::ufunc<SumDiff, outs<float, float>(float, float), outs<double, double>(double, double)>(
      reg, "app_sumdiff", "(x + y, x - y)");
  loom::def::ufunc<Plus, std::int64_t(std::int64_t, std::int64_t), double(double, double)>(
      reg, "app_plus", "x + y", loom::def::identity(0));
  loom::def::ufunc<Larger, double(double, double)>(reg, "app_larger", "max(x, y)",
                                                   loom::def::reorderable);
  loom::def::gufunc<Dot, double(double, double)>(reg, "app_dot", "(n),(n)->()", "dot product");
  loom::def::gufunc<MatmulFlex, float(float, float), double(double, double)>(
      reg, "app_matmul", "(m?,n),(n,p?)->(m?,p?)", "matrix product, NumPy's matmul layout");
  loom::def::gufunc<Twice, std::int32_t(std::int32_t)>(reg, "app_twice", "()->()", "2x, int32");
  loom::def::gufunc<ScaleBy, double(double, double)>(reg, "app_scale_by", "(),(n)->(n)", "a * x");
  loom::def::gufunc<FirstHalf, float(float), double(double)>(reg, "app_first_half", "(n)->(n)",
                                                             "2x on the first half, out as it was");
  loom::def::reduce<Plus, std::int64_t(std::int64_t, std::int64_t), double(double, double)>(
      reg, "app_total", loom::def::identity(0), "sum of the elements");
  loom::def::kernel<Scale<float>, Scale<double>>(reg, "app_scale", "out[i] = a * x[i]");
}

}  // namespace

}  // namespace define_test
