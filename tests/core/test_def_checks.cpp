// The gufunc loops call the operator() each signature's own types select (def/checks.hpp): a
// template instantiated with that signature's types, also when its first input is not the
// element type, one template parameter per operand, or a non-template functor. Until issue 13
// the functor was instantiated with the first input's type only. The compile-time refusals are
// tests/compile_fail.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "loom/def/gufunc.hpp"

namespace {

using loom::View;

// "(),(n)->(n)": out = k * x. The first input is the int64 scalar; T comes from the second.
struct Scale {
  template <class T>
  void operator()(std::int64_t k, View<const T, 1> x, View<T, 1> out) const {
    for (std::int64_t i = 0; i < x.shape[0]; ++i) out(i) = static_cast<T>(k) * x(i);
  }
};

// "(n),(n)->()": one template parameter per operand.
struct MixedDot {
  template <class A, class B, class R>
  void operator()(View<const A, 1> a, View<const B, 1> b, R& out) const {
    R s = 0;
    for (std::int64_t i = 0; i < a.shape[0]; ++i) s += static_cast<R>(a(i)) * static_cast<R>(b(i));
    out = s;
  }
};

// "(n)->()": not a template.
struct SumF {
  void operator()(View<const float, 1> a, float& out) const {
    float s = 0;
    for (std::int64_t i = 0; i < a.shape[0]; ++i) s += a(i);
    out = s;
  }
};

const loom::Loop& loop_of(loom::Registrar& reg, const std::string& sig) {
  for (const auto& l : reg.staged().back().loops)
    if (l.sig.str() == sig) return l;
  ADD_FAILURE() << "no loop " << sig;
  return reg.staged().back().loops.at(0);
}

// One outer instance: dims = {1, core dims...}; steps = {outer steps (0)..., core steps...}.
void call(const loom::Loop& l, std::vector<char*> args, std::vector<std::int64_t> core_dims,
          std::vector<std::int64_t> core_steps) {
  std::vector<std::int64_t> dims{1};
  dims.insert(dims.end(), core_dims.begin(), core_dims.end());
  std::vector<std::int64_t> steps(args.size(), 0);
  steps.insert(steps.end(), core_steps.begin(), core_steps.end());
  const auto& impl = l.impl[static_cast<int>(loom::Family::host)];
  impl.host(args.data(), dims.data(), steps.data(), impl.data);
}

TEST(DefChecks, GufuncTemplateUsesEachSignaturesTypes) {
  loom::Registrar reg(loom::Family::host);
  loom::def::gufunc<Scale, float(std::int64_t, float), double(std::int64_t, double)>(
      reg, "t_scale", "(),(n)->(n)", "");
  std::int64_t k = 3;
  float xf[4] = {1, 2, 3, 4}, of[4] = {};
  call(loop_of(reg, "float32(int64,float32)"),
       {reinterpret_cast<char*>(&k), reinterpret_cast<char*>(xf), reinterpret_cast<char*>(of)}, {4},
       {sizeof(float), sizeof(float)});
  EXPECT_EQ(std::vector<float>(of, of + 4), (std::vector<float>{3, 6, 9, 12}));
  double xd[3] = {0.5, -1, 2}, od[3] = {};
  k = -2;
  call(loop_of(reg, "float64(int64,float64)"),
       {reinterpret_cast<char*>(&k), reinterpret_cast<char*>(xd), reinterpret_cast<char*>(od)}, {3},
       {sizeof(double), sizeof(double)});
  EXPECT_EQ(std::vector<double>(od, od + 3), (std::vector<double>{-1, 2, -4}));
}

TEST(DefChecks, GufuncTemplatePerOperand) {
  loom::Registrar reg(loom::Family::host);
  loom::def::gufunc<MixedDot, double(float, std::int32_t)>(reg, "t_mixed_dot", "(n),(n)->()", "");
  float a[3] = {0.5f, 1.5f, 2};
  std::int32_t b[3] = {2, 4, -1};
  double out = 0;
  call(loop_of(reg, "float64(float32,int32)"),
       {reinterpret_cast<char*>(a), reinterpret_cast<char*>(b), reinterpret_cast<char*>(&out)}, {3},
       {sizeof(float), sizeof(std::int32_t)});
  EXPECT_EQ(out, 1.0 + 6.0 - 2.0);
}

TEST(DefChecks, GufuncNonTemplateFunctor) {
  loom::Registrar reg(loom::Family::host);
  loom::def::gufunc<SumF, float(float)>(reg, "t_sum_f", "(n)->()", "");
  float a[4] = {1, 2, 3, 4.5f}, out = 0;
  call(loop_of(reg, "float32(float32)"),
       {reinterpret_cast<char*>(a), reinterpret_cast<char*>(&out)}, {4}, {sizeof(float)});
  EXPECT_EQ(out, 10.5f);
}

}  // namespace
