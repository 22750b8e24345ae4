// A weak int (a C++ int, NumPy's Python int) that the integer dtype of its loop input cannot
// hold is refused, as NumPy 2 raises OverflowError ("Python integer 300 out of bounds for int8");
// loom converted it with C++ semantics before (int8 + 300 computed with 44). Comparisons compare
// it by value, and outer takes it as a strong int64, as NumPy does. The expected values are NumPy
// 2.4's.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "host_runtime.hpp"
#include "loom/error.hpp"
#include "loom/runtime.hpp"

namespace loom {
namespace {

using loom::test::host_targets;
using loom::test::rt;
using I64 = std::vector<std::int64_t>;

template <class F>
void expect_out_of_bounds(F&& f, const std::string& part, const std::string& what) {
  try {
    f();
    ADD_FAILURE() << what << ": answered, NumPy raises OverflowError";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos)
        << what << ": " << e.what() << "\n  (expected to contain: " << part << ")";
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": the wrong error: " << e.what();
  }
}

I64 ints(const Array& a) { return a.astype(DType::int64).to_vector<std::int64_t>(); }

class WeakIntRange : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(rt().registry().find("add"))
        << "the math plugin (libloom_math.so) is not in " << LOOM_TEST_SERIAL_DIR;
  }
  const std::string& target() const { return GetParam(); }
  Ufunc op(const char* name) const { return rt().ufunc(name); }
};

TEST_P(WeakIntRange, OutOfTheLoopDtypeIsRefused) {
  const std::string t = target();
  const Array x = array<std::int8_t>({1, 2, 3, 4});
  const Array out = full({4}, 7, DType::int16);
  // Small contiguous calls (the fast path) and strided views (the general path).
  for (const Array& v : {x, x.slice(0, 0, 4, 2)}) {
    expect_out_of_bounds([&] { op("add")(v, 300, {.target = t}); },
                         "the weak int 300 (input 1, a Python int to NumPy) is out of bounds for "
                         "the loop's dtype int8",
                         "add(int8, 300)");
    expect_out_of_bounds([&] { op("add")(-129, v, {.target = t}); }, "-129", "add(-129, int8)");
    expect_out_of_bounds([&] { op("maximum")(v, 128, {.target = t}); }, "128",
                         "maximum(int8, 128)");
  }
  expect_out_of_bounds([&] { op("add")(x, 300, {.target = t, .out = {out}}); }, "int8",
                       "add(int8, 300, out=int16)");
  EXPECT_EQ(ints(out), (I64{7, 7, 7, 7})) << "a refusal wrote out=";
  EXPECT_EQ(ints(x), (I64{1, 2, 3, 4}));
  const Array u = array<std::uint8_t>({1, 2});
  expect_out_of_bounds([&] { op("add")(u, -1, {.target = t}); }, "uint8", "add(uint8, -1)");
  expect_out_of_bounds([&] { op("bitwise_and")(u, -1, {.target = t}); }, "uint8",
                       "bitwise_and(uint8, -1)");
  // Refused before any element is read: where= all false and empty arrays too.
  expect_out_of_bounds(
      [&] { op("multiply")(x, 300, {.target = t, .where = full({4}, false, DType::bool_)}); },
      "300", "multiply(int8, 300, where=False)");
  expect_out_of_bounds([&] { op("add")(empty({0}, DType::int8), 300, {.target = t}); }, "300",
                       "add(int8[0], 300)");
  // A forced loop: dtype= or all-weak inputs.
  expect_out_of_bounds(
      [&] {
        op("subtract")(array<std::int16_t>({1}), -5,
                       {.target = t, .dtype = DType::uint64, .casting = Casting::unsafe});
      },
      "the loop's dtype uint64", "subtract(int16, -5, dtype=uint64, casting=unsafe)");
  expect_out_of_bounds([&] { op("add")(300, 5, {.target = t, .dtype = DType::int8}); }, "int8",
                       "add(300, 5, dtype=int8)");
}

TEST_P(WeakIntRange, WhatNumPyAnswersStillAnswers) {
  const std::string t = target();
  const Array x = array<std::int8_t>({1, 2});
  EXPECT_EQ(ints(op("add")(x, 127, {.target = t})), (I64{-128, -127}));  // fits; the sum wraps
  EXPECT_EQ(ints(op("add")(x, -128, {.target = t})), (I64{-127, -126}));
  const Array w = op("add")(x, 300, {.target = t, .dtype = DType::int16});
  EXPECT_EQ(w.dtype(), DType::int16);
  EXPECT_EQ(ints(w), (I64{301, 302}));
  EXPECT_EQ(ints(op("add")(x, 300, {.target = t, .dtype = DType::float32})), (I64{301, 302}));
  // A bool loop takes any int for its truth; a float16 one converts (70000 is inf).
  const Array b =
      op("add")(x, 300, {.target = t, .dtype = DType::bool_, .casting = Casting::unsafe});
  EXPECT_EQ(ints(b), (I64{1, 1}));
  const Array h = op("add")(array<std::int8_t>({1}).astype(DType::float16), 70000, {.target = t});
  EXPECT_EQ(h.dtype(), DType::float16);
  EXPECT_EQ(h.astype(DType::float64).item<double>(), std::numeric_limits<double>::infinity());
  EXPECT_EQ(ints(op("logical_and")(x, 300, {.target = t})), (I64{1, 1}));
  // A typed scalar is strong: it takes the int64 loop.
  EXPECT_EQ(op("add")(x, std::int64_t{300}, {.target = t}).dtype(), DType::int64);
}

// NumPy 2 compares a Python int with an integer array by value: int8 == 300 is false, where the
// int8 loop compared with 300 cast to 44.
// The logical ops take a weak int by its truth with dtype=bool too (NumPy 2.4:
// np.logical_not(256, dtype=bool) is False, np.logical_and(int8 [1, 0], 300, dtype=bool) is
// [True, False]); through the int8 loop 256 would be 0 (found by numpy_diff, seed 3344).
TEST_P(WeakIntRange, LogicalOpsTakeTheIntByItsTruth) {
  const std::string t = target();
  const Array x = array<std::int8_t>({1, 0});
  EXPECT_EQ(ints(op("logical_not")(256, {.target = t, .dtype = DType::bool_})), (I64{0}));
  EXPECT_EQ(ints(op("logical_not")(300, {.target = t, .dtype = DType::bool_})), (I64{0}));
  EXPECT_EQ(ints(op("logical_and")(x, 300, {.target = t, .dtype = DType::bool_})), (I64{1, 0}));
  EXPECT_EQ(ints(op("logical_or")(x, -1000, {.target = t, .dtype = DType::bool_})), (I64{1, 1}));
  EXPECT_EQ(ints(op("logical_xor")(256, 1, {.target = t, .dtype = DType::bool_})), (I64{0}));
}

TEST_P(WeakIntRange, ComparisonsAreByValue) {
  const std::string t = target();
  const Array x = array<std::int8_t>({1, 44, -128});
  EXPECT_EQ(ints(op("equal")(x, 300, {.target = t})), (I64{0, 0, 0}));
  EXPECT_EQ(ints(op("not_equal")(x, 300, {.target = t, .casting = Casting::no})), (I64{1, 1, 1}));
  EXPECT_EQ(ints(op("less")(x, 300, {.target = t})), (I64{1, 1, 1}));
  EXPECT_EQ(ints(op("greater")(x, -300, {.target = t, .casting = Casting::equiv})), (I64{1, 1, 1}));
  EXPECT_EQ(ints(op("greater_equal")(x.slice(0, 0, 3, 2), 300, {.target = t})), (I64{0, 0}));
  const Array u = array<std::uint64_t>({0, std::numeric_limits<std::uint64_t>::max()});
  EXPECT_EQ(ints(op("less")(u, -1, {.target = t})), (I64{0, 0}));
  EXPECT_EQ(ints(op("equal")(u, -1, {.target = t})), (I64{0, 0}));
  EXPECT_EQ(ints(op("greater")(array<std::uint8_t>({0, 255}), -1, {.target = t})), (I64{1, 1}));
  const Array o = full({3}, 7, DType::int8);
  op("equal")(x, 44, {.target = t, .out = {o}, .casting = Casting::unsafe});
  EXPECT_EQ(ints(o), (I64{0, 1, 0}));
  // A signature names the int8 loop: NumPy raises OverflowError there.
  expect_out_of_bounds([&] { op("equal")(x, 300, {.target = t, .signature = "bool(int8,int8)"}); },
                       "int8", "equal(int8, 300, signature=bool(int8,int8))");
}

// np.add.outer(int8 x, 300) takes 300 through np.asarray: a strong int64, result int64 [301, 302].
TEST_P(WeakIntRange, OuterTakesTheIntStrong) {
  const std::string t = target();
  const Array x = array<std::int8_t>({1, 2});
  const Array r = op("add").outer(x, 300, {.target = t});
  EXPECT_EQ(r.dtype(), DType::int64);
  EXPECT_EQ(ints(r), (I64{301, 302}));
  EXPECT_EQ(op("add").outer(x, 5, {.target = t}).dtype(), DType::int64);
  EXPECT_EQ(op("multiply").outer(x, 2.0, {.target = t}).dtype(), DType::float64);
  EXPECT_EQ(ints(op("subtract").outer(-1, array<std::uint8_t>({1}), {.target = t})), (I64{-2}));
}

INSTANTIATE_TEST_SUITE_P(HostTargets, WeakIntRange, ::testing::ValuesIn(host_targets()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace loom
