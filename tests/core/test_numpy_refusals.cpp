// Calls NumPy refuses although a loop of the op would take them, refused by loom too (issue 28):
// subtract and negative of bools, gcd/lcm/positive/sign of bools, Python (weak) scalars under
// casting='equiv', a ufunc method's dtype= without a loop of that dtype, and sum's initial=
// outside NumPy's narrow loop. Each refusal is a TypeError or ValueError that names what to do
// instead and leaves the caller's arrays as they were; the nearby calls NumPy answers still
// answer. The expected values are NumPy 2.4's.
#include <gtest/gtest.h>

#include <cstdint>
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

// Runs f, which must throw E whose message contains `part`.
template <class E, class F>
void expect_refused(F&& f, const std::string& part, const std::string& what) {
  try {
    f();
    ADD_FAILURE() << what << ": answered, NumPy refuses";
  } catch (const E& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos)
        << what << ": " << e.what() << "\n  (expected to contain: " << part << ")";
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": the wrong error: " << e.what();
  }
}

I64 ints(const Array& a) { return a.astype(DType::int64).to_vector<std::int64_t>(); }

class NumPyRefusals : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(rt().registry().find("subtract"))
        << "the math plugin (libloom_math.so) is not in " << LOOM_TEST_SERIAL_DIR;
  }
  const std::string& target() const { return GetParam(); }
  Ufunc op(const char* name) const { return rt().ufunc(name); }
};

Array bools() { return array({true, false, true}); }

// np.subtract(b, b) and np.negative(b): TypeError ("numpy boolean subtract, the `-` operator, is
// not supported"), with out= too, and through every method; a Python int makes it int64, dtype=
// an integer loop. loom subtracted in int8 (the first loop bools cast to) before.
TEST_P(NumPyRefusals, SubtractAndNegativeOfBools) {
  const std::string t = target();
  const Array b = bools();
  const Array out = full({3}, 7, DType::int8);
  expect_refused<TypeError>([&] { op("subtract")(b, b, {.target = t}); }, "boolean subtract",
                            "subtract(b, b)");
  expect_refused<TypeError>(
      [&] { op("subtract")(b, b, {.target = t, .out = {out}, .casting = Casting::unsafe}); },
      "bitwise_xor", "subtract(b, b, out=int8)");
  EXPECT_EQ(ints(out), (I64{7, 7, 7})) << "a refusal wrote out=";
  expect_refused<TypeError>([&] { op("subtract")(b, true, {.target = t}); }, "boolean subtract",
                            "subtract(b, True)");
  expect_refused<TypeError>([&] { op("subtract").reduce(b, {.target = t}); }, "boolean subtract",
                            "subtract.reduce(b)");
  expect_refused<TypeError>([&] { op("subtract").accumulate(b, {.target = t}); },
                            "boolean subtract", "subtract.accumulate(b)");
  expect_refused<TypeError>([&] { op("subtract").outer(b, b, {.target = t}); }, "boolean subtract",
                            "subtract.outer(b, b)");
  const Array a = bools();
  expect_refused<TypeError>([&] { op("subtract").at(a, array<std::int64_t>({0}), true); },
                            "boolean subtract", "subtract.at(b, [0], True)");
  EXPECT_EQ(ints(a), (I64{1, 0, 1})) << "a refusal wrote a";
  // dtype=bool of integers: NumPy's boolean subtract too.
  expect_refused<TypeError>(
      [&] {
        op("subtract")
            .accumulate(array<std::int32_t>({5, 3}), {.target = t, .dtype = DType::bool_});
      },
      "boolean subtract", "subtract.accumulate(int32, dtype=bool)");
  // What NumPy answers still answers.
  const Array r = op("subtract")(b, 1, {.target = t});  // a Python int: int64
  EXPECT_EQ(r.dtype(), DType::int64);
  EXPECT_EQ(ints(r), (I64{0, -1, 0}));
  const Array r8 =
      op("subtract")(b, array({false, true, true}), {.target = t, .dtype = DType::int8});
  EXPECT_EQ(r8.dtype(), DType::int8);
  EXPECT_EQ(ints(r8), (I64{1, -1, 0}));
  EXPECT_EQ(ints(op("bitwise_xor")(b, array({false, true, true}), {.target = t})), (I64{1, 1, 0}));

  expect_refused<TypeError>([&] { op("negative")(b, {.target = t}); }, "boolean negative",
                            "negative(b)");
  expect_refused<TypeError>([&] { op("negative")(b, {.target = t}); }, "logical_not",
                            "negative(b) again (a refusal is not cached as a loop)");
  const Array n8 = op("negative")(b, {.target = t, .dtype = DType::int8});
  EXPECT_EQ(ints(n8), (I64{-1, 0, -1}));
}

// np.gcd(b, b), np.lcm, np.positive, np.sign of bools: NumPy's uniform resolver runs the loop
// of the common dtype, bool, which they lack (UFuncTypeError); a bool with an int8 array, or
// dtype=int8, takes the int8 loop. loom answered through int8 before.
TEST_P(NumPyRefusals, GcdLcmPositiveSignOfBools) {
  const std::string t = target();
  const Array b = bools();
  for (const char* name : {"gcd", "lcm"}) {
    expect_refused<TypeError>([&] { op(name)(b, b, {.target = t}); }, "of bool inputs is refused",
                              std::string(name) + "(b, b)");
    expect_refused<TypeError>([&] { op(name).reduce(b, {.target = t}); }, "has none",
                              std::string(name) + ".reduce(b)");
  }
  for (const char* name : {"positive", "sign"}) {
    expect_refused<TypeError>([&] { op(name)(b, {.target = t}); }, "dtype= of an integer dtype",
                              std::string(name) + "(b)");
  }
  const Array g = op("gcd")(b, array<std::int8_t>({4, 6, 0}), {.target = t});
  EXPECT_EQ(g.dtype(), DType::int8);
  EXPECT_EQ(ints(g), (I64{1, 6, 1}));
  EXPECT_EQ(ints(op("gcd")(b, b, {.target = t, .dtype = DType::int8})), (I64{1, 0, 1}));
  EXPECT_EQ(ints(op("sign")(b, {.target = t, .dtype = DType::int8})), (I64{1, 0, 1}));
}

// NumPy 2 casts a Python scalar under casting='equiv' only into its own dtype: np.add(int32 x, 3,
// casting='equiv') is "cannot cast Python int to int32 under the casting rule 'equiv'", while
// 'no' answers and an int64 x answers. loom's weak int and double are Python's int and float.
TEST_P(NumPyRefusals, WeakScalarsUnderCastingEquiv) {
  const std::string t = target();
  const Array x32 = array<std::int32_t>({1, 2});
  const Array out = full({2}, 9, DType::int32);
  expect_refused<TypeError>(
      [&] { op("add")(x32, 3, {.target = t, .out = {out}, .casting = Casting::equiv}); },
      "under the casting rule 'equiv'", "add(int32, 3, equiv)");
  EXPECT_EQ(ints(out), (I64{9, 9})) << "a refusal wrote out=";
  expect_refused<TypeError>(
      [&] { op("add")(array<float>({1.f}), 2.0, {.target = t, .casting = Casting::equiv}); },
      "weak float scalar", "add(float32, 2.0, equiv)");
  expect_refused<TypeError>(
      [&] { op("multiply")(-2.0, 5, {.target = t, .casting = Casting::equiv}); },
      "to float64 under the casting rule 'equiv'", "multiply(-2.0, 5, equiv)");
  expect_refused<TypeError>(
      [&] { op("add")(x32, 3, {.target = t, .dtype = DType::int32, .casting = Casting::equiv}); },
      "weak int scalar", "add(int32, 3, dtype=int32, equiv)");
  // Answered: 'no', an int64 array, a typed scalar, two Python ints.
  EXPECT_EQ(ints(op("add")(x32, 3, {.target = t, .casting = Casting::no})), (I64{4, 5}));
  EXPECT_EQ(
      ints(op("add")(array<std::int64_t>({1, 2}), 3, {.target = t, .casting = Casting::equiv})),
      (I64{4, 5}));
  EXPECT_EQ(
      ints(op("add")(x32, Array(3).astype(DType::int32), {.target = t, .casting = Casting::equiv})),
      (I64{4, 5}));
  // NumPy compares a Python int with an integer array without a cast, and the logical ops take
  // any input for its truth; a float array compared with a Python int casts it, and is refused.
  const Array x8 = array<std::int8_t>({2, 0});
  EXPECT_EQ(ints(op("equal")(x8, 2, {.target = t, .casting = Casting::equiv})), (I64{1, 0}));
  EXPECT_EQ(ints(op("logical_and")(x8, 2.5, {.target = t, .casting = Casting::equiv})),
            (I64{1, 0}));
  expect_refused<TypeError>(
      [&] { op("less")(array<float>({1.f}), 3, {.target = t, .casting = Casting::equiv}); },
      "to float32 under the casting rule 'equiv'", "less(float32, 3, equiv)");
  const Array two = op("add")(2, 5, {.target = t, .casting = Casting::equiv});
  EXPECT_EQ(two.dtype(), DType::int64);
  EXPECT_EQ(two.item<std::int64_t>(), 7);
}

// A ufunc's reduce/accumulate/reduceat with a dtype= it has no loop of: NumPy refuses ("No loop
// matching the specified signature"); loom ran the first wider loop and cast back. rt.reduce's
// sum keeps taking dtype=int8 (it stands for add, which has an int8 loop in NumPy).
TEST_P(NumPyRefusals, UfuncMethodDtypeWithoutItsLoop) {
  const std::string t = target();
  const Array x = array<std::int32_t>({5, 3, 2});
  expect_refused<TypeError>([&] { op("fmod").reduce(x, {.target = t, .dtype = DType::bool_}); },
                            "no loop for dtype=bool", "fmod.reduce(dtype=bool)");
  expect_refused<TypeError>(
      [&] { op("floor_divide").accumulate(x, {.target = t, .dtype = DType::bool_}); },
      "no loop for dtype=bool", "floor_divide.accumulate(dtype=bool)");
  expect_refused<TypeError>(
      [&] {
        op("remainder")
            .reduceat(x, array<std::int64_t>({0, 2}), {.target = t, .dtype = DType::bool_});
      },
      "no loop for dtype=bool", "remainder.reduceat(dtype=bool)");
  EXPECT_EQ(op("add").reduce(x, {.target = t, .dtype = DType::int8}).item<std::int8_t>(), 10);
  EXPECT_EQ(rt().reduce("sum")(x, {.target = t, .dtype = DType::int8}).item<std::int8_t>(), 10);
}

// np.sum(int8 x, out=<int8>, initial=300): NumPy's loop is add's int8 one, so initial= is an
// OverflowError; loom's sum runs int64 and took 300 before. E-VALUE-INITIAL-RANGE now.
TEST_P(NumPyRefusals, SumInitialOutsideNumPysNarrowLoop) {
  const std::string t = target();
  const Array x = array<std::int8_t>({1, 2});
  const Array out = full({}, 5, DType::int8);
  expect_refused<ValueError>(
      [&] { rt().reduce("sum")(x, {.target = t, .initial = 300, .out = out}); },
      "initial=300 is out of bounds for the loop's dtype int8", "sum(int8, out=int8, initial=300)");
  EXPECT_EQ(out.item<std::int8_t>(), 5) << "a refusal wrote out=";
  rt().reduce("sum")(x, {.target = t, .initial = 100, .out = out});
  EXPECT_EQ(out.item<std::int8_t>(), 103);
  // prod of int8 into uint8: NumPy's loop is int16, which holds -1 (the result wraps to 254).
  const Array u = full({}, 0, DType::uint8);
  rt().reduce("prod")(x, {.target = t, .initial = -1, .out = u});
  EXPECT_EQ(u.item<std::uint8_t>(), 254);
}

INSTANTIATE_TEST_SUITE_P(HostTargets, NumPyRefusals, ::testing::ValuesIn(host_targets()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace loom
