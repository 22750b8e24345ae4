// gufunc calls with NumPy's keywords on every host target: axes= (outputs' entries optional when
// they have no core dims), axis= (one shared core dim), keepdims= (inputs with equal core counts,
// outputs with none), flexible core dims as matmul's (m?,n),(n,p?)->(m?,p?), rank-0 View core
// arguments, weak scalars in gufunc calls; and the errors for each mismatch. The expected values
// are NumPy's (written out as loops: np.vecdot(a, b, axis=0) is the sum over axis 0, ...).
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "loom/def/gufunc.hpp"
#include "loom/def/kernel.hpp"
#include "loom/def/reduce.hpp"
#include "loom/def/ufunc.hpp"
#include "loom/error.hpp"
#include "loom/runtime.hpp"
// After the def headers: the table uses whichever loom::def functions are in scope.
#include "define_ops.hpp"

namespace loom {
namespace {

using V = std::vector<double>;

Runtime& rt() {
  static Runtime r;
  static const bool defined = (r.define("test_gufunc_options", define_test::define_ops), true);
  (void)defined;
  return r;
}

std::vector<std::string> host_targets() {
  std::vector<std::string> out;
  for (const auto& t : rt().targets()) {
    if (t.available && (t.target == "cpu" || t.target == "parallel")) out.push_back(t.target);
  }
  return out;
}

// 0, 1, 2, ... as float64 of `shape`: exact sums whatever the order.
Array iota(Shape shape) {
  V v(shape_size(shape));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i % 17) - 8;
  return from_vector(v, shape);
}

// The message of the loom::Error of class E that f throws (fails the test otherwise).
template <class E>
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception: " << e.what();
    return "";
  }
  ADD_FAILURE() << "nothing thrown";
  return "";
}

void expect_has(const std::string& msg, std::initializer_list<const char*> parts) {
  for (const char* p : parts) EXPECT_NE(msg.find(p), std::string::npos) << p << " in: " << msg;
}

// ---- axes= -----------------------------------------------------------------------------------

TEST(GufuncAxes, DotOverAxisZeroIsTheSumOverAxisZero) {
  const Array a = iota({3, 4}), b = iota({3, 4}).transpose().copy().transpose();
  V want(4, 0.0);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) want[j] += a.at<double>(i, j) * b.at<double>(i, j);
  for (const auto& t : host_targets()) {
    SCOPED_TRACE(t);
    const Array r = rt().gufunc("dot")(a, b, {.target = t, .axes = {{0}, {0}, {}}});
    EXPECT_EQ(r.shape(), (Shape{4}));
    EXPECT_EQ(r.to_vector<double>(), want);
    // The outputs' entries may be left out: dot's output has no core dims.
    EXPECT_EQ(rt().gufunc("dot")(a, b, {.target = t, .axes = {{0}, {0}}}).to_vector<double>(),
              want);
    // Negative axes count from the end, as in NumPy.
    EXPECT_EQ(rt().gufunc("dot")(a, b, {.target = t, .axes = {{-2}, {-2}}}).to_vector<double>(),
              want);
  }
}

TEST(GufuncAxes, CoreAxesInTheMiddleKeepTheOtherAxesInOrder) {
  const Array a = iota({2, 3, 4});
  const Array b = iota({3});
  for (const auto& t : host_targets()) {
    SCOPED_TRACE(t);
    const Array r = rt().gufunc("dot")(a, b, {.target = t, .axes = {{1}, {0}}});
    ASSERT_EQ(r.shape(), (Shape{2, 4}));
    for (int i = 0; i < 2; ++i)
      for (int k = 0; k < 4; ++k) {
        double s = 0;
        for (int j = 0; j < 3; ++j) s += a.at<double>(i, j, k) * b.at<double>(j);
        EXPECT_EQ(r.at<double>(i, k), s);
      }
  }
}

TEST(GufuncAxes, OutputAxesPlaceTheResultsCoreDimsAndTheResultIsCContiguous) {
  // matmul (m?,n),(n,p?)->(m?,p?) with a given as (n, m) and the result as (p, m): C^T = (A^T B)^T.
  const Array at = iota({3, 2}), b = iota({3, 4});
  for (const auto& t : host_targets()) {
    SCOPED_TRACE(t);
    const Array r = rt().gufunc("matmul")(at, b, {.target = t, .axes = {{1, 0}, {0, 1}, {1, 0}}});
    ASSERT_EQ(r.shape(), (Shape{4, 2}));
    EXPECT_TRUE(r.is_c_contiguous());
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 4; ++j) {
        double s = 0;
        for (int k = 0; k < 3; ++k) s += at.at<double>(k, i) * b.at<double>(k, j);
        EXPECT_EQ(r.at<double>(j, i), s);
      }
  }
}

TEST(GufuncAxes, OutGivenInTheCallersLayoutIsWrittenAndReturned) {
  const Array a = iota({3, 5}), b = iota({3, 5});
  for (const auto& t : host_targets()) {
    SCOPED_TRACE(t);
    Array out = zeros({5});
    const Array r = rt().gufunc("dot")(a, b, {.target = t, .out = {out}, .axes = {{0}, {0}, {}}});
    EXPECT_EQ(r.data(), out.data());
    EXPECT_EQ(out.to_vector<double>(),
              rt().gufunc("dot")(a.transpose(), b.transpose(), {.target = t}).to_vector<double>());
    // An output with core dims: its axes entry says where they are in out=.
    Array mo = zeros({4, 2});
    rt().gufunc("matmul")(iota({2, 3}), iota({3, 4}),
                          {.target = t, .out = {mo}, .axes = {{0, 1}, {0, 1}, {1, 0}}});
    EXPECT_EQ(mo.transpose().copy().to_vector<double>(),
              rt().gufunc("matmul")(iota({2, 3}), iota({3, 4}), {.target = t}).to_vector<double>());
  }
}

TEST(GufuncAxes, Errors) {
  const Array a = iota({3, 4}), b = iota({3, 4});
  const V before = a.to_vector<double>();
  auto dot = [&](CallOptions o) { rt().gufunc("dot")(a, b, o); };
  expect_has(error_of<ValueError>([&] { dot({.axes = {{0}}}); }),
             {"gufunc 'dot'", "axes= has 1 entries", "each of the 3 operands"});
  expect_has(error_of<ValueError>([&] {
               dot({.axes = {{0, 1}, {0}}});
             }),
             {"axes= entry 0 (0, 1)", "names 2 axes", "argument 0 has 1 core dimension(s)"});
  expect_has(error_of<ValueError>([&] {
               dot({.axes = {{0}, {2}}});
             }),
             {"axes= entry 1", "axis 2 is out of bounds", "dimension 2"});
  expect_has(error_of<ValueError>([&] {
               dot({.axes = {{0}, {0}, {0}}});
             }),
             {"axes= entry 2 (0,)", "names 1 axes", "argument 2 has 0 core dimension(s)"});
  expect_has(
      error_of<ValueError>([&] {
        rt().gufunc("matmul")(iota({3, 3}), iota({3, 3}), {.axes = {{0, -2}, {0, 1}, {0, 1}}});
      }),
      {"axes= entry 0 (0, -2)", "names axis 0 twice"});
  // matmul's output has core dims: its entry cannot be left out.
  expect_has(error_of<ValueError>([&] {
               rt().gufunc("matmul")(iota({3, 3}), iota({3, 3}), {.axes = {{0, 1}, {0, 1}}});
             }),
             {"axes= has 2 entries", "no output has core dimensions"});
  // Core sizes that disagree once moved: the operand, the dim, both sizes and the caller's axis.
  expect_has(error_of<ShapeError>([&] {
               dot({.axes = {{0}, {1}}});
             }),
             {"core dimension 'n' is 3 (from argument 0) but 4 in argument 1 (its axis 1)"});
  expect_has(error_of<TypeError>([&] {
               dot({.axes = {{0}, {0}}, .axis = 0});
             }),
             {"give axes= or axis=, not both"});
  // out= of the wrong shape is reported in the caller's layout, not the loop's.
  Array mo = zeros({1, 4, 2});
  expect_has(error_of<ShapeError>([&] {
               rt().gufunc("matmul")(iota({6, 2, 3}), iota({3, 4}),
                                     {.out = {mo}, .axes = {{1, 2}, {0, 1}, {2, 1}}});
             }),
             {"gufunc 'matmul': out= array 0 has shape (1, 4, 2) but the result has shape (6, 4, "
              "2)"});
  EXPECT_EQ(a.to_vector<double>(), before);
}

// ---- axis= -----------------------------------------------------------------------------------

TEST(GufuncAxis, MovesTheSharedCoreDimOfEveryOperand) {
  const Array a = iota({3, 4}), b = iota({3, 4});
  for (const auto& t : host_targets()) {
    SCOPED_TRACE(t);
    EXPECT_EQ(rt().gufunc("dot")(a, b, {.target = t, .axis = 0}).to_vector<double>(),
              rt().gufunc("dot")(a, b, {.target = t, .axes = {{0}, {0}}}).to_vector<double>());
    EXPECT_EQ(rt().gufunc("dot")(a, b, {.target = t, .axis = -1}).to_vector<double>(),
              rt().gufunc("dot")(a, b, {.target = t}).to_vector<double>());
  }
}

TEST(GufuncAxis, Errors) {
  const Array a = iota({3, 4});
  // NumPy: axis= only for a single distinct core dim.
  expect_has(error_of<TypeError>([&] { rt().gufunc("matmul")(a, a.transpose(), {.axis = 0}); }),
             {"gufunc 'matmul'", "does not take axis=", "not the 3 distinct one(s)", "use axes="});
  expect_has(error_of<TypeError>([&] { rt().gufunc("sum_row")(a, {.axis = 0}); }),
             {"does not take axis="});
  expect_has(error_of<ValueError>([&] { rt().gufunc("dot")(a, a, {.axis = 2}); }),
             {"axis= for argument 0", "axis 2 is out of bounds for an operand of dimension 2"});
}

// ---- keepdims= -------------------------------------------------------------------------------

TEST(GufuncKeepdims, KeepsTheCoreDimsWithSizeOne) {
  const Array a = iota({3, 4}), b = iota({3, 4});
  for (const auto& t : host_targets()) {
    SCOPED_TRACE(t);
    const V plain = rt().gufunc("dot")(a, b, {.target = t}).to_vector<double>();
    const Array k = rt().gufunc("dot")(a, b, {.target = t, .keepdims = true});
    EXPECT_EQ(k.shape(), (Shape{3, 1}));
    EXPECT_EQ(k.to_vector<double>(), plain);
    EXPECT_EQ(rt().gufunc("dot")(a, b, {.target = t, .keepdims = false}).shape(), (Shape{3}));
    // With axis=: np.vecdot(a, b, axis=0, keepdims=True) has shape (1, 4).
    const Array k0 = rt().gufunc("dot")(a, b, {.target = t, .axis = 0, .keepdims = true});
    EXPECT_EQ(k0.shape(), (Shape{1, 4}));
    EXPECT_EQ(k0.to_vector<double>(),
              rt().gufunc("dot")(a, b, {.target = t, .axis = 0}).to_vector<double>());
    // With axes=: the output's entry places its kept dim (NumPy: axes=[0, 0, 0]).
    EXPECT_EQ(
        rt().gufunc("dot")(a, b, {.target = t, .axes = {{0}, {0}, {0}}, .keepdims = true}).shape(),
        (Shape{1, 4}));
    // Outputs' entries left out: the kept dim goes last (NumPy: axes=[0, 0], keepdims=True).
    EXPECT_EQ(rt().gufunc("dot")(a, b, {.target = t, .axes = {{0}, {0}}, .keepdims = true}).shape(),
              (Shape{4, 1}));
    Array out = zeros({3, 1});
    rt().gufunc("dot")(a, b, {.target = t, .out = {out}, .keepdims = true});
    EXPECT_EQ(out.to_vector<double>(), plain);
  }
}

TEST(GufuncKeepdims, Errors) {
  const Array a = iota({3, 3});
  // NumPy refuses keepdims= (even false) where an output has core dims.
  expect_has(error_of<TypeError>([&] { rt().gufunc("matmul")(a, a, {.keepdims = false}); }),
             {"gufunc 'matmul'", "does not take keepdims=", "output 0 has 2 core dimension(s)"});
  expect_has(error_of<TypeError>([&] { rt().ufunc("add")(a, a, {.keepdims = true}); }),
             {"ufunc 'add' does not take keepdims="});
  expect_has(error_of<TypeError>([&] { rt().ufunc("add")(a, a, {.axis = 0}); }),
             {"ufunc 'add' does not take axis="});
  expect_has(error_of<TypeError>([&] {
               rt().ufunc("add")(a, a, {.axes = {{}, {}, {}}});
             }),
             {"ufunc 'add' does not take axes="});
  Array out = full({3, 2}, 7.0);
  expect_has(
      error_of<ShapeError>([&] { rt().gufunc("dot")(a, a, {.out = {out}, .keepdims = true}); }),
      {"out= array 0 has size 2 on axis 1, which keepdims=true keeps with size 1"});
  EXPECT_EQ(out.to_vector<double>(), V(6, 7.0));
}

// ---- flexible core dims (m?,n),(n,p?)->(m?,p?) -----------------------------------------------

V matmul_ref(const Array& a, const Array& b, int m, int n, int p) {
  const V av = a.to_vector<double>(), bv = b.to_vector<double>();
  V c(m * p, 0.0);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < p; ++j)
      for (int k = 0; k < n; ++k) c[i * p + j] += av[i * n + k] * bv[k * p + j];
  return c;
}

TEST(GufuncFlexible, AMissingDimIsDroppedFromTheResultAsNumPysMatmul) {
  const Array A = iota({2, 3}), B = iota({3, 4}), x = iota({3}), y = iota({3});
  for (const auto& t : host_targets()) {
    SCOPED_TRACE(t);
    auto mm = [&](const Array& a, const Array& b) {
      return rt().gufunc("app_matmul")(a, b, {.target = t});
    };
    const Array ab = mm(A, B), ax = mm(A, x), xb = mm(x, B), xy = mm(x, y);
    EXPECT_EQ(ab.shape(), (Shape{2, 4}));
    EXPECT_EQ(ax.shape(), (Shape{2}));
    EXPECT_EQ(xb.shape(), (Shape{4}));
    EXPECT_EQ(xy.shape(), (Shape{}));
    EXPECT_EQ(ab.to_vector<double>(), matmul_ref(A, B, 2, 3, 4));
    EXPECT_EQ(ax.to_vector<double>(), matmul_ref(A, x, 2, 3, 1));
    EXPECT_EQ(xb.to_vector<double>(), matmul_ref(x, B, 1, 3, 4));
    EXPECT_EQ(xy.to_vector<double>(), matmul_ref(x, y, 1, 3, 1));
    // Loop dims broadcast as usual: (5, 2, 3) @ (3,) -> (5, 2).
    EXPECT_EQ(mm(iota({5, 2, 3}), x).shape(), (Shape{5, 2}));
    // out= of the result's shape, without the dropped dim.
    Array out = zeros({2});
    rt().gufunc("app_matmul")(A, x, {.target = t, .out = {out}});
    EXPECT_EQ(out.to_vector<double>(), ax.to_vector<double>());
    // With axes=: an operand that dropped a dim names only the dims it has (NumPy's rule).
    EXPECT_EQ(rt().gufunc("app_matmul")(A.transpose(), x, {.target = t, .axes = {{1, 0}, {0}, {0}}})
                  .to_vector<double>(),
              ax.to_vector<double>());
  }
}

TEST(GufuncFlexible, ErrorsNameTheOperandAndTheDim) {
  expect_has(error_of<ShapeError>([&] {
               rt().gufunc("app_matmul")(iota({2, 3}), iota({4}));
             }),
             {"gufunc 'app_matmul' with layout (m?,n),(n,p?)->(m?,p?)", "core dimension 'n' is 3",
              "but 4 in argument 1 (its axis 0)"});
  expect_has(error_of<ShapeError>([&] { rt().gufunc("app_matmul")(Array(2.0), iota({3})); }),
             {"argument 0 has 0 dimension(s) but needs at least 1 core dimension(s)"});
}

// ---- rank-0 View core arguments and weak scalars ----------------------------------------------

TEST(GufuncScalars, RankZeroViewArgumentsAndWeakLiterals) {
  for (const auto& t : host_targets()) {
    SCOPED_TRACE(t);
    // int32 is the only loop: the weak literal 10 takes it, as it does for a ufunc.
    const Array r = rt().gufunc("app_twice")(10, {.target = t});
    EXPECT_EQ(r.dtype(), DType::int32);
    EXPECT_EQ(r.item<std::int32_t>(), 20);
    const Array v = from_vector(std::vector<std::int32_t>{1, -2, 3});
    EXPECT_EQ(rt().gufunc("app_twice")(v, {.target = t}).to_vector<std::int32_t>(),
              (std::vector<std::int32_t>{2, -4, 6}));
    EXPECT_EQ(rt().gufunc("app_scale_by")(2.0, iota({2, 3}), {.target = t}).to_vector<double>(),
              rt().ufunc("multiply")(2.0, iota({2, 3}), {.target = t}).to_vector<double>());
  }
  // A ufunc with only an int32 loop takes weak literals the same way; add(2, 3) keeps int64.
  Runtime r;
  r.define("test_weak", [](Registrar& reg) {
    def::ufunc<define_test::Plus, std::int32_t(std::int32_t, std::int32_t)>(reg, "plus32", "x + y");
  });
  const Array p = r.ufunc("plus32")(10, 20);
  EXPECT_EQ(p.dtype(), DType::int32);
  EXPECT_EQ(p.item<std::int32_t>(), 30);
  EXPECT_EQ(r.ufunc("add")(2, 3).dtype(), DType::int64);
  // A typed int64 scalar is strong: no safe cast to int32 (NumPy's rule for np.int64(10)).
  expect_has(error_of<TypeError>([&] { rt().gufunc("app_twice")(std::int64_t{10}); }),
             {"has no loop for input dtypes (int64)"});
}

}  // namespace
}  // namespace loom
