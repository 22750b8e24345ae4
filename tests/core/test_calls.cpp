// Tests of calls with NumPy's semantics on target cpu, through libloom_testops: ufunc
// broadcasting, out= (in place, cast, overlapping), where=, several outputs; gufunc core
// dimensions; reductions over axes with keepdims, initial and identity; strided inputs.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "loom/error.hpp"
#include "loom/runtime.hpp"

namespace loom {
namespace {

using V = std::vector<double>;
using VF = std::vector<float>;

Runtime& rt() {
  static Runtime r(RuntimeOptions{.plugin_path = {LOOM_TEST_SERIAL_DIR, LOOM_TEST_GOOD_DIR},
                                  .use_default_path = false});
  return r;
}
Ufunc op(const char* name) { return rt().ufunc(name); }
Reduce red(const char* name) { return rt().reduce(name); }

Array vec(V v, Shape s = {}) { return from_vector(v, std::move(s)); }
V vals(const Array& a) { return a.to_vector<double>(); }

// ---- ufuncs ----

TEST(UfuncCall, BroadcastsRowAgainstColumn) {
  Array r = op("t_add")(vec({0, 10}, {2, 1}), vec({1, 2, 3}));
  EXPECT_EQ(r.shape(), (Shape{2, 3}));
  EXPECT_EQ(vals(r), (V{1, 2, 3, 11, 12, 13}));
}

TEST(UfuncCall, ZeroDimInputsGiveZeroDimResult) {
  Array r = op("t_add")(Array(1.5).as_strong(), Array(2.0).as_strong());
  EXPECT_EQ(r.ndim(), 0);
  EXPECT_EQ(r.item<double>(), 3.5);
}

TEST(UfuncCall, EmptyInputGivesEmptyResult) {
  Array r = op("t_add")(zeros({0, 3}), vec({1, 2, 3}));
  EXPECT_EQ(r.shape(), (Shape{0, 3}));
}

TEST(UfuncCall, OutIsWrittenInPlaceAndReturned) {
  Array out = zeros({3});
  Array r = op("t_add")(vec({1, 2, 3}), vec({10, 20, 30}), {.out = {out}});
  EXPECT_EQ(r.data(), out.data());
  EXPECT_EQ(vals(out), (V{11, 22, 33}));
}

TEST(UfuncCall, OutBroadcastsTheInputsToItsShape) {
  Array out = zeros({2, 2});
  op("t_add")(vec({1, 2}), 1.0, {.out = {out}});
  EXPECT_EQ(vals(out), (V{2, 3, 2, 3}));
}

TEST(UfuncCall, OutOfNarrowerFloatIsFilledWithSameKindCast) {
  Array out = zeros({2}, DType::float32);
  Array r = op("t_add")(vec({1, 2}), vec({0.5, 0.25}), {.out = {out}});
  EXPECT_EQ(r.data(), out.data());
  EXPECT_EQ(out.to_vector<float>(), (VF{1.5f, 2.25f}));
}

TEST(UfuncCall, OutOfIntFromFloatLoopIsTypeErrorAndUntouched) {
  Array out = full({2}, std::int32_t{7});
  EXPECT_THROW(op("t_add")(vec({1, 2}), vec({3, 4}), {.out = {out}}), TypeError);
  EXPECT_EQ(out.to_vector<int>(), (std::vector<int>{7, 7}));
}

TEST(UfuncCall, OutOfIntWithUnsafeCastingTruncates) {
  Array out = zeros({2}, DType::int32);
  op("t_add")(vec({1.5, 2.75}), vec({0, 0}), {.out = {out}, .casting = Casting::unsafe});
  EXPECT_EQ(out.to_vector<int>(), (std::vector<int>{1, 2}));
}

TEST(UfuncCall, OutShiftedOverInputGivesNumPysAnswer) {
  // np.add(x[:-1], 1, out=x[1:]) reads every input before writing: [0, 1, 2, 3, 4] -> x[1:] = 1..4
  Array x = arange(0.0, 5.0);
  op("t_add")(x.slice(0, 0, -1), 1.0, {.out = {x.slice(0, 1, 5)}});
  EXPECT_EQ(vals(x), (V{0, 1, 2, 3, 4}));
  Array y = arange(0.0, 5.0);
  op("t_add")(y.slice(0, 1, 5), y.slice(0, -1, -100, -1).slice(0, 0, 4),
              {.out = {y.slice(0, 0, 4)}});
  EXPECT_EQ(vals(y), (V{5, 5, 5, 5, 4}));
}

TEST(UfuncCall, OutMayBeAStridedView) {
  Array x = zeros({6});
  op("t_add")(vec({1, 2, 3}), 1.0, {.out = {x.slice(0, 5, -100, -2)}});
  EXPECT_EQ(vals(x), (V{0, 4, 0, 3, 0, 2}));
}

TEST(UfuncCall, OutIdenticalToAnInputIsInPlace) {
  Array x = vec({1, 2, 3});
  op("t_add")(x, x, {.out = {x}});
  EXPECT_EQ(vals(x), (V{2, 4, 6}));
}

TEST(UfuncCall, WhereKeepsMaskedElementsOfOut) {
  Array out = vec({-1, -1, -1, -1});
  Array mask = from_vector(std::vector<bool>{true, false, true, false});
  op("t_add")(vec({1, 2, 3, 4}), 10.0, {.out = {out}, .where = mask});
  EXPECT_EQ(vals(out), (V{11, -1, 13, -1}));
}

TEST(UfuncCall, WhereBroadcastsTheMask) {
  Array out = zeros({2, 2});
  Array mask = from_vector(std::vector<bool>{false, true});
  op("t_add")(vec({1, 2, 3, 4}, {2, 2}), 0.0, {.out = {out}, .where = mask});
  EXPECT_EQ(vals(out), (V{0, 2, 0, 4}));
}

TEST(UfuncCall, SeveralOutputsAreAllReturned) {
  auto r = op("t_divmod").call({vec({7, -7, 7.5}), vec({2, 2, 2})});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(vals(r[0]), (V{3, -4, 3}));
  EXPECT_EQ(vals(r[1]), (V{1, 1, 1.5}));
}

TEST(UfuncCall, SeveralOutputsIntoOut) {
  Array q = zeros({2}), m = zeros({2}, DType::float32);
  auto r = op("t_divmod").call({vec({5, 6}), vec({4, 4})}, {.out = {q, m}});
  EXPECT_EQ(r[0].data(), q.data());
  EXPECT_EQ(vals(q), (V{1, 1}));
  EXPECT_EQ(m.to_vector<float>(), (VF{1, 2}));
}

TEST(UfuncCall, CallOperatorOnTwoOutputOpIsValueError) {
  EXPECT_THROW(op("t_divmod")(vec({1}), vec({1})), ValueError);
}

TEST(UfuncCall, TransposedAndReversedInputs) {
  Array a = vec({0, 1, 2, 3, 4, 5}, {2, 3});
  Array b = vec({0, 10, 20, 30, 40, 50}, {3, 2});
  Array r = op("t_add")(a.transpose(), b.slice(0, -1, -100, -1));
  EXPECT_EQ(vals(r), (V{40, 53, 21, 34, 2, 15}));
}

TEST(UfuncCall, StridedFloat32InputsMatchContiguous) {
  Array x = linspace(0.0, 1.0, 1001, true, DType::float32);
  Array s = x.slice(0, 0, 1001, 3);
  Array strided = op("t_add")(s, s);
  Array contiguous = op("t_add")(s.copy(), s.copy());
  EXPECT_EQ(strided.to_vector<float>(), contiguous.to_vector<float>());
  EXPECT_EQ(strided.to_vector<float>()[10], 2 * x.to_vector<float>()[30]);
}

// ---- gufuncs ----

TEST(GufuncCall, DotBindsNAndGivesScalar) {
  Array r = op("t_dot")(vec({1, 2, 3}), vec({4, 5, 6}));
  EXPECT_EQ(r.ndim(), 0);
  EXPECT_EQ(r.item<double>(), 32);
}

TEST(GufuncCall, DotBroadcastsLoopDims) {
  Array a = vec({1, 0, 0, 1, 1, 1}, {3, 1, 2});  // loop (3, 1)
  Array b = vec({1, 2, 3, 4}, {2, 2});           // loop (2,)
  Array r = op("t_dot")(a, b);
  EXPECT_EQ(r.shape(), (Shape{3, 2}));
  EXPECT_EQ(vals(r), (V{1, 3, 2, 4, 3, 7}));
}

TEST(GufuncCall, MatmulBindsMNP) {
  Array a = vec({1, 2, 3, 4, 5, 6}, {2, 3});
  Array b = vec({1, 0, 0, 1, 1, 1}, {3, 2});
  Array r = op("t_matmul")(a, b);
  EXPECT_EQ(r.shape(), (Shape{2, 2}));
  EXPECT_EQ(vals(r), (V{4, 5, 10, 11}));
}

TEST(GufuncCall, MatmulOnTransposedViewsAndStack) {
  Array a = vec({1, 2, 3, 4}, {2, 2});
  Array stack = vec({1, 0, 0, 1, 2, 0, 0, 2}, {2, 2, 2});
  Array r = op("t_matmul")(a.transpose(), stack);
  EXPECT_EQ(r.shape(), (Shape{2, 2, 2}));
  EXPECT_EQ(vals(r), (V{1, 3, 2, 4, 2, 6, 4, 8}));
}

TEST(GufuncCall, MatmulFloat32StaysFloat32) {
  Array r = op("t_matmul")(full({2, 2}, 1.0f), full({2, 2}, 2.0f));
  EXPECT_EQ(r.dtype(), DType::float32);
  EXPECT_EQ(r.to_vector<float>(), (VF{4, 4, 4, 4}));
}

TEST(GufuncCall, FixedDimCrossProduct) {
  Array r = op("t_cross")(vec({1, 0, 0, 0, 1, 0}, {2, 3}), vec({0, 1, 0}));
  EXPECT_EQ(r.shape(), (Shape{2, 3}));
  EXPECT_EQ(vals(r), (V{0, 0, 1, 0, 0, 0}));
}

TEST(GufuncCall, OutputDimBoundOnlyByOut) {
  Array out = zeros({2, 4});
  Array r = op("t_fill")(vec({1, 2}), {.out = {out}});
  EXPECT_EQ(r.data(), out.data());
  EXPECT_EQ(vals(out), (V{1, 1, 1, 1, 2, 2, 2, 2}));
}

TEST(GufuncCall, OutputDimWithoutOutIsValueError) {
  EXPECT_THROW(op("t_fill")(vec({1, 2})), ValueError);
}

TEST(GufuncCall, OutOverlappingInputIsCopiedFirst) {
  Array x = vec({1, 0, 0, 0, 1, 0});
  Array a = x.slice(0, 0, 3), b = x.slice(0, 3, 6);
  op("t_cross")(a, b, {.out = {a}});
  EXPECT_EQ(vals(x), (V{0, 0, 1, 0, 1, 0}));
}

TEST(GufuncCall, EmptyLoopDimsGiveEmptyResult) {
  EXPECT_EQ(op("t_dot")(zeros({0, 3}), vec({1, 2, 3})).shape(), (Shape{0}));
}

// ---- reductions ----

Array m23() { return vec({1, 2, 3, 4, 5, 6}, {2, 3}); }

TEST(ReduceCall, AllAxesByDefault) {
  Array r = red("t_sum")(m23());
  EXPECT_EQ(r.ndim(), 0);
  EXPECT_EQ(r.item<double>(), 21);
}

TEST(ReduceCall, OneAxis) {
  EXPECT_EQ(vals(red("t_sum")(m23(), {.axis = {0}})), (V{5, 7, 9}));
  EXPECT_EQ(vals(red("t_sum")(m23(), {.axis = {1}})), (V{6, 15}));
}

TEST(ReduceCall, NegativeAxis) { EXPECT_EQ(vals(red("t_sum")(m23(), {.axis = {-1}})), (V{6, 15})); }

TEST(ReduceCall, SeveralAxes) {
  Array x = arange(0.0, 24.0).reshape({2, 3, 4});
  EXPECT_EQ(vals(red("t_sum")(x, {.axis = {0, 2}})), (V{60, 92, 124}));
}

TEST(ReduceCall, KeepDims) {
  Array r = red("t_sum")(m23(), {.axis = {1}, .keepdims = true});
  EXPECT_EQ(r.shape(), (Shape{2, 1}));
  EXPECT_EQ(red("t_sum")(m23(), {.keepdims = true}).shape(), (Shape{1, 1}));
}

TEST(ReduceCall, InitialJoinsTheReduction) {
  EXPECT_EQ(red("t_sum")(m23(), {.initial = 100}).item<double>(), 121);
  EXPECT_EQ(vals(red("t_max")(m23(), {.axis = {0}, .initial = 5})), (V{5, 5, 6}));
}

TEST(ReduceCall, WithoutIdentityStartsFromTheData) {
  EXPECT_EQ(vals(red("t_max")(vec({-3, -1, -2, -8, -9, -7}, {2, 3}), {.axis = {1}})), (V{-1, -7}));
  EXPECT_EQ(red("t_max")(vec({-3, -1, -2})).item<double>(), -1);
}

TEST(ReduceCall, EmptyWithIdentityGivesIdentity) {
  EXPECT_EQ(red("t_sum")(zeros({0})).item<double>(), 0);
  EXPECT_EQ(vals(red("t_sum")(zeros({0, 2}), {.axis = {0}})), (V{0, 0}));
}

TEST(ReduceCall, EmptyWithoutIdentityIsValueError) {
  EXPECT_THROW(red("t_max")(zeros({0})), ValueError);
}

TEST(ReduceCall, EmptyWithoutIdentityButInitialGivesInitial) {
  EXPECT_EQ(red("t_max")(zeros({0}), {.initial = -1}).item<double>(), -1);
}

TEST(ReduceCall, EmptyOnlyAlongKeptAxesNeedsNoIdentity) {
  EXPECT_EQ(red("t_max")(zeros({0, 3}), {.axis = {1}}).shape(), (Shape{0}));
}

TEST(ReduceCall, TransposedAndStridedInputs) {
  EXPECT_EQ(vals(red("t_sum")(m23().transpose(), {.axis = {1}})), (V{5, 7, 9}));
  EXPECT_EQ(red("t_sum")(arange(0.0, 10.0).slice(0, 9, -100, -3)).item<double>(), 18);
}

TEST(ReduceCall, Float32StaysFloat32AndInt32UsesFloat64Loop) {
  EXPECT_EQ(red("t_sum")(full({4}, 0.5f)).dtype(), DType::float32);
  Array r = red("t_sum")(array({1, 2, 3}));
  EXPECT_EQ(r.dtype(), DType::float64);
  EXPECT_EQ(r.item<double>(), 6);
}

TEST(ReduceCall, DtypeOptionPicksTheLoop) {
  Array r = red("t_sum")(full({3}, 0.5f), {.dtype = DType::float64});
  EXPECT_EQ(r.dtype(), DType::float64);
  EXPECT_EQ(r.item<double>(), 1.5);
}

TEST(ReduceCall, LongSumIsExact) {
  Array x = full({100000}, 1.0f);
  EXPECT_EQ(red("t_sum")(x).item<float>(), 100000.0f);
}

TEST(ReduceCall, OutIsFilledAndReturned) {
  Array out = zeros({3}, DType::float32);
  Array r = red("t_sum")(m23(), {.axis = {0}, .out = out});
  EXPECT_EQ(r.data(), out.data());
  EXPECT_EQ(out.to_vector<float>(), (VF{5, 7, 9}));
}

// Calls past three inputs (issue 13): operator() takes up to eight, options last, with NumPy's
// broadcasting and Python scalars as for fewer; call({...}) gives the same.
TEST(ManyInputs, FiveInputsBroadcastWithScalarsAndOptions) {
  const Array x = array({0.0, 1.0, 2.0, -1.0});
  const V want{1.0, 10.0, 49.0, -2.0};  // 1 + 2x + 3x^2 + 4x^3
  EXPECT_EQ(op("t_poly5")(x, 1.0, array({2.0}), 3.0, 4.0).to_vector<double>(), want);
  Array out = zeros({4});
  op("t_poly5")(x, 1.0, 2.0, 3.0, 4.0, {.out = {out}});
  EXPECT_EQ(out.to_vector<double>(), want);
  EXPECT_EQ(op("t_poly5").call({x, 1.0, 2.0, 3.0, 4.0})[0].to_vector<double>(), want);
}

}  // namespace
}  // namespace loom
