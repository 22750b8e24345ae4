// Bad input (issue 2's list): each call fails with the exact loom::Error subclass, a message that
// names the offending values, and leaves every array the caller passed (inputs, out=) unchanged.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "loom/error.hpp"
#include "loom/layout.hpp"
#include "loom/runtime.hpp"
#include "loom/signature.hpp"

namespace loom {
namespace {

using V = std::vector<double>;

Runtime& rt() {
  static Runtime r(RuntimeOptions{.plugin_path = {LOOM_TEST_SERIAL_DIR, LOOM_TEST_GOOD_DIR},
                                  .use_default_path = false});
  return r;
}

// Every byte of the buffers behind the given arrays, to compare before and after a failed call.
std::vector<std::vector<unsigned char>> snapshot(const std::vector<Array>& arrays) {
  std::vector<std::vector<unsigned char>> out;
  for (const auto& a : arrays) {
    const auto* p = static_cast<const unsigned char*>(a.buffer()->data());
    out.emplace_back(p, p + a.buffer()->bytes());
  }
  return out;
}

// Runs f, expects error E whose message contains every string of `names`, and checks that the
// arrays are byte-for-byte unchanged.
template <class E>
void expect_error(const std::function<void()>& f, const std::vector<std::string>& names,
                  const std::vector<Array>& untouched = {}) {
  const auto before = snapshot(untouched);
  try {
    f();
    ADD_FAILURE() << "no error thrown";
  } catch (const E& e) {
    for (const auto& n : names) {
      EXPECT_NE(std::string(e.what()).find(n), std::string::npos)
          << "message lacks '" << n << "': " << e.what();
    }
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type: " << e.what();
  }
  EXPECT_EQ(snapshot(untouched), before) << "the caller's arrays changed";
}

Array vec(V v, Shape s = {}) { return from_vector(v, std::move(s)); }

TEST(BadInput, NoLoopForDtypesListsDtypesAndSignatures) {
  Array a = zeros({2}, DType::complex128), b = vec({1, 2}), out = vec({7, 7});
  expect_error<TypeError>(
      [&] { rt().ufunc("t_add")(a, b, {.out = {out}}); },
      {"t_add", "(complex128, float64)", "float32(float32,float32)", "float64(float64,float64)"},
      {a, b, out});
}

TEST(BadInput, NoLoopForIntOpWithFloats) {
  Array a = vec({1.5});
  expect_error<TypeError>([&] { rt().ufunc("t_iadd")(a, a); },
                          {"(float64, float64)", "int8(int8,int8)", "int64(int64,int64)"}, {a});
}

TEST(BadInput, ShapesThatDoNotBroadcastNameBothShapes) {
  Array a = vec({1, 2, 3}), b = zeros({2, 2}), out = zeros({2, 3});
  expect_error<ShapeError>([&] { rt().ufunc("t_add")(a, b, {.out = {out}}); }, {"(3,)", "(2, 2)"},
                           {a, b, out});
}

TEST(BadInput, GufuncCoreDimMismatchNamesDimAndSizes) {
  Array a = vec({1, 2, 3}), b = vec({1, 2, 3, 4}), out = Array(5.0).as_strong();
  expect_error<ShapeError>([&] { rt().gufunc("t_dot")(a, b, {.out = {out}}); },
                           {"(n),(n)->()", "'n'", "3", "4"}, {a, b, out});
}

TEST(BadInput, GufuncFixedDimMismatchNamesTheFixedSize) {
  Array a = vec({1, 2}), b = vec({1, 2, 3});
  expect_error<ShapeError>([&] { rt().gufunc("t_cross")(a, b); },
                           {"(3),(3)->(3)", "fixed by the layout", "2"}, {a, b});
}

TEST(BadInput, GufuncInputWithTooFewDimsNamesTheCount) {
  Array a = vec({1, 2, 3, 4}, {2, 2}), b = vec({1, 2});
  expect_error<ShapeError>([&] { rt().gufunc("t_matmul")(a, b); },
                           {"argument 1", "1 dimension(s)", "2 core"}, {a, b});
}

TEST(BadInput, WrongNumberOfInputsNamesExpectedAndGiven) {
  Array a = vec({1, 2});
  expect_error<ValueError>([&] { rt().ufunc("t_add")(a); }, {"t_add", "2 input(s)", "got 1"}, {a});
  expect_error<ValueError>([&] { rt().ufunc("t_add")(a, a, a); }, {"got 3"}, {a});
}

TEST(BadInput, WrongNumberOfOutArraysNamesTheCounts) {
  Array a = vec({1, 2}), q = zeros({2});
  expect_error<ValueError>(
      [&] {
        rt().ufunc("t_divmod").call({a, a}, {.out = {q}});
      },
      {"2 output(s)", "gave 1"}, {a, q});
}

TEST(BadInput, OutOfWrongShapeNamesBothShapes) {
  Array a = vec({1, 2, 3}), out = zeros({1});
  expect_error<ShapeError>([&] { rt().ufunc("t_add")(a, a, {.out = {out}}); },
                           {"out=", "(1,)", "(3,)"}, {a, out});
}

TEST(BadInput, OutThatDoesNotBroadcastWithInputsIsShapeError) {
  Array a = vec({1, 2, 3}), out = zeros({4});
  expect_error<ShapeError>([&] { rt().ufunc("t_add")(a, a, {.out = {out}}); }, {"(3,)", "(4,)"},
                           {a, out});
}

TEST(BadInput, GufuncOutOfWrongCoreShapeNamesTheShapes) {
  Array a = vec({1, 0, 0}), out = zeros({4});
  expect_error<ShapeError>([&] { rt().gufunc("t_cross")(a, a, {.out = {out}}); }, {"3", "4"},
                           {a, out});
}

TEST(BadInput, WhereOnAGufuncIsValueError) {
  Array a = vec({1, 2}), out = Array(3.0).as_strong();
  Array mask = from_vector(std::vector<bool>{true});
  expect_error<ValueError>([&] { rt().gufunc("t_dot")(a, a, {.out = {out}, .where = mask}); },
                           {"t_dot", "where="}, {a, out, mask});
}

TEST(BadInput, OutDtypeThatCannotBeCastNamesBothDtypesAndRule) {
  Array a = vec({1.5, 2.5}), out = zeros({2}, DType::int64);
  expect_error<TypeError>([&] { rt().ufunc("t_add")(a, a, {.out = {out}}); },
                          {"float64", "int64", "same_kind"}, {a, out});
}

TEST(BadInput, SecondOutDtypeThatCannotBeCastLeavesFirstOutUntouched) {
  Array a = vec({5, 6}), q = vec({-1, -1}), m = zeros({2}, DType::int32);
  expect_error<TypeError>(
      [&] {
        rt().ufunc("t_divmod").call({a, a}, {.out = {q, m}});
      },
      {"output 1", "int32"}, {a, q, m});
}

// Not an error (NumPy's rule): a reduction's result goes into out= cast unsafely.
TEST(BadInput, ReduceOutOfAnotherDtypeIsCastUnsafely) {
  Array a = vec({1.5, 2.5}), out = Array(std::int32_t{9});
  rt().reduce("t_sum")(a, {.out = out, .dtype = DType::float64});
  EXPECT_EQ(out.item<std::int32_t>(), 4);
}

TEST(BadInput, UnknownTargetListsKnownTargets) {
  Array a = vec({1, 2});
  expect_error<TargetError>([&] { rt().ufunc("t_add")(a, a, {.target = "gpu"}); },
                            {"'gpu'", "cpu", "parallel", "cuda"}, {a});
}

TEST(BadInput, MalformedDeviceIndexInTargetIsTargetError) {
  Array a = vec({1, 2});
  expect_error<TargetError>([&] { rt().ufunc("t_add")(a, a, {.target = "cuda:x"}); }, {"cuda:x"},
                            {a});
}

// A runtime that has libloom_testops but no backend at all: every target is unavailable.
Runtime& rt_without_backends() {
  static Runtime r(RuntimeOptions{.plugin_path = {LOOM_TEST_GOOD_DIR}, .use_default_path = false});
  return r;
}

TEST(BadInput, UnavailableParallelTargetSaysWhy) {
  Array a = vec({1, 2});
  expect_error<TargetError>(
      [&] { rt_without_backends().ufunc("t_add")(a, a, {.target = "parallel"}); },
      {"'parallel'", "unavailable", "libloom_tbb.so"}, {a});
}

TEST(BadInput, UnavailableCudaTargetSaysWhy) {
  Array a = vec({1, 2});
  expect_error<TargetError>(
      [&] { rt_without_backends().ufunc("t_add")(a, a, {.target = "cuda:1"}); },
      {"'cuda:1'", "unavailable", "libloom_cuda.so"}, {a});
}

TEST(BadInput, UnavailableTargetsAreListedWithTheirReason) {
  for (const auto& t : rt_without_backends().targets()) {
    EXPECT_FALSE(t.available) << t.target;
    EXPECT_NE(t.reason.find("not found on the search path"), std::string::npos) << t.reason;
  }
}

TEST(BadInput, ReduceOfEmptyWithoutIdentityNamesOpAndRemedy) {
  Array a = zeros({0, 3}), out = vec({7, 7, 7});
  expect_error<ValueError>([&] { rt().reduce("t_max")(a, {.axis = {0}, .out = out}); },
                           {"t_max", "zero-size", "initial="}, {a, out});
}

TEST(BadInput, ReduceAxisOutOfRangeNamesAxisAndDimension) {
  Array a = zeros({2, 3});
  expect_error<ValueError>([&] { rt().reduce("t_sum")(a, {.axis = {2}}); }, {"axis 2", "2"}, {a});
  expect_error<ValueError>([&] { rt().reduce("t_sum")(a, {.axis = {1, -1}}); }, {"twice"}, {a});
}

TEST(BadInput, MalformedSignatureOptionNamesStringAndPosition) {
  Array a = vec({1, 2}), out = zeros({2});
  expect_error<ParseError>(
      [&] { rt().ufunc("t_add")(a, a, {.out = {out}, .signature = "float64(float64 float64)"}); },
      {"'float64(float64 float64)'", "position 15"}, {a, out});
}

TEST(BadInput, UnknownDtypeInSignatureListsValidNames) {
  expect_error<ParseError>([] { Signature::parse("float(float)"); }, {"'float'", "float32"});
}

TEST(BadInput, MalformedLayoutNamesStringAndPosition) {
  expect_error<ParseError>([] { Layout::parse("(n),(n)->"); }, {"'(n),(n)->'", "position 9"});
  expect_error<ParseError>([] { Layout::parse("(n,)->()"); }, {"'(n,)->()'"});
  expect_error<ParseError>([] { Layout::parse("(0)->()"); }, {"> 0"});
}

TEST(BadInput, UnknownOpNameIsLookupErrorNamingIt) {
  expect_error<LookupError>([] { rt().ufunc("t_no_such_op"); }, {"'t_no_such_op'"});
  expect_error<LookupError>([] { rt().reduce("t_nope"); }, {"'t_nope'"});
}

TEST(BadInput, OpOfTheWrongKindIsLookupErrorSayingItsKind) {
  expect_error<LookupError>([] { rt().ufunc("t_sum"); }, {"'t_sum'", "reduction"});
  expect_error<LookupError>([] { rt().reduce("t_add"); }, {"'t_add'", "ufunc"});
}

TEST(BadInput, DefaultConstructedArrayIsValueError) {
  Array a = vec({1});
  expect_error<ValueError>([&] { rt().ufunc("t_add")(a, Array()); }, {"t_add"}, {a});
}

}  // namespace
}  // namespace loom
