// NumPy's reduction rules and ufunc methods (reduce, accumulate, reduceat, outer, at) as a user of
// the math plugin meets them, on `cpu` and, where the tbb backend is loaded, `parallel`. Each test
// states the rule it checks; expected values are derived from NumPy's definition in the test (or
// are NumPy's documented examples), never from loom itself. docs/methods.md is the prose.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "host_runtime.hpp"
#include "loom/error.hpp"
#include "loom/runtime.hpp"

namespace loom {
namespace {

using V = std::vector<double>;
using I64 = std::vector<std::int64_t>;
using U64 = std::vector<std::uint64_t>;

// Every library of the build's lib/loom (serial, math, tbb when built) and the test ops.
using loom::test::host_targets;
using loom::test::rt;

bool same_bytes(const Array& a, const Array& b) {
  const Array ca = a.copy(), cb = b.copy();
  return ca.dtype() == cb.dtype() && ca.shape() == cb.shape() &&
         std::memcmp(ca.data(), cb.data(), ca.size() * itemsize(ca.dtype())) == 0;
}

class Methods : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    // The math plugin is built with the rest of lib/loom (ninja all); these tests need it.
    ASSERT_TRUE(rt().registry().find("subtract"))
        << "the math plugin (libloom_math.so) is not in " << LOOM_TEST_SERIAL_DIR
        << ": build it (ninja loom_math)";
  }
  const std::string& target() const { return GetParam(); }
  Ufunc op(const char* name) const { return rt().ufunc(name); }
  Reduce red(const char* name) const { return rt().reduce(name); }
};

// ---- reduce: order and axes ----

// NumPy: subtract.reduce(x, axis=k) is the left fold (((x0 - x1) - x2) - ...) along k; no other
// grouping is allowed since subtract is not reorderable.
TEST_P(Methods, SubtractReduceIsTheLeftFoldAlongOneAxis) {
  const std::int64_t rows = 64, cols = 5000;  // large enough for parallel to split over rows
  std::vector<double> v(rows * cols);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = std::sin(0.001 * static_cast<double>(i)) * 1e3;
  const Array x = from_vector(v, {rows, cols});

  const Array r1 = op("subtract").reduce(x, {.target = target(), .axis = 1});
  ASSERT_EQ(r1.shape(), (Shape{rows}));
  const V got1 = r1.to_vector<double>();
  for (std::int64_t i = 0; i < rows; ++i) {
    double acc = v[i * cols];
    for (std::int64_t j = 1; j < cols; ++j) acc -= v[i * cols + j];
    EXPECT_EQ(got1[i], acc) << "row " << i;  // the same operations in the same order: same bits
  }
  const Array r0 = op("subtract").reduce(x, {.target = target(), .axis = 0});
  const V got0 = r0.to_vector<double>();
  for (std::int64_t j = 0; j < cols; j += 499) {
    double acc = v[j];
    for (std::int64_t i = 1; i < rows; ++i) acc -= v[i * cols + j];
    EXPECT_EQ(got0[j], acc) << "column " << j;
  }
  // Along a transposed view: the fold follows the logical axis, not memory.
  const Array rt1 = op("subtract").reduce(x.transpose(), {.target = target(), .axis = 0});
  EXPECT_TRUE(same_bytes(rt1, r1));
}

// Same rule for divide, with values whose quotients are exact: (((64 / 2) / 4) / 8) = 1, where a
// tree would give 64 / (2 / (4 / 8)) = 16 or similar.
TEST_P(Methods, DivideReduceFoldsInOrder) {
  const Array x = from_vector(V{64, 2, 4, 8, 1, 2, 4, 8}, {2, 4});
  EXPECT_EQ(op("divide").reduce(x, {.target = target(), .axis = 1}).to_vector<double>(),
            (V{1, 1.0 / 64}));
  // axis not given: axis 0, as np.divide.reduce.
  EXPECT_EQ(op("divide").reduce(x, {.target = target()}).to_vector<double>(), (V{64, 1, 1, 1}));
}

// NumPy: a reduction of a non-reorderable op over several axes, or over axis=None of an N-d
// input, is a ValueError; over axis=None of a 1-d input it is the ordinary fold.
TEST_P(Methods, NonReorderableOpsRefuseSeveralAxes) {
  const Array x = from_vector(V{1, 2, 3, 4, 5, 6}, {2, 3});
  const Array before = x.copy();
  for (const Axes& axes : {Axes{0, 1}, all_axes}) {
    try {
      op("subtract").reduce(x, {.target = target(), .axis = axes});
      ADD_FAILURE() << "subtract.reduce over two axes was accepted";
    } catch (const ValueError& e) {
      EXPECT_NE(std::string(e.what()).find("'subtract' is not reorderable"), std::string::npos)
          << e.what();
    }
  }
  EXPECT_TRUE(same_bytes(x, before));
  EXPECT_EQ(op("subtract").reduce(from_vector(V{10, 1, 2}), {.axis = all_axes}).item<double>(), 7);
  // maximum is reorderable (no identity): several axes are fine.
  EXPECT_EQ(op("maximum").reduce(x, {.target = target(), .axis = {0, 1}}).item<double>(), 6);
}

// NumPy: axis=() reduces over no axis: every element is folded alone into the start value, so the
// result is x itself (in the loop's dtype), or op(initial, x) elementwise.
TEST_P(Methods, EmptyAxisTupleReducesNothing) {
  const Array x = from_vector(V{1, 2, 3, 4, 5, 6}, {2, 3});
  const Array r = op("subtract").reduce(x, {.target = target(), .axis = no_axes});
  EXPECT_EQ(r.shape(), (Shape{2, 3}));
  EXPECT_EQ(r.to_vector<double>(), (V{1, 2, 3, 4, 5, 6}));
  const Array s = op("subtract").reduce(x, {.target = target(), .axis = no_axes, .initial = 10});
  EXPECT_EQ(s.to_vector<double>(), (V{9, 8, 7, 6, 5, 4}));
  EXPECT_EQ(red("sum")(x, {.target = target(), .axis = no_axes}).to_vector<double>(),
            (V{1, 2, 3, 4, 5, 6}));
}

// The axis default: rt.reduce (np.sum, np.max) reduces every axis, Ufunc::reduce
// (np.add.reduce) axis 0.
TEST_P(Methods, AxisDefaultsFollowNumPy) {
  const Array x = from_vector(V{1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_EQ(red("sum")(x, {.target = target()}).item<double>(), 21);
  EXPECT_EQ(op("add").reduce(x, {.target = target()}).to_vector<double>(), (V{5, 7, 9}));
  EXPECT_EQ(op("add").reduce(x, {.target = target(), .axis = all_axes}).item<double>(), 21);
  const Array k = op("add").reduce(x, {.target = target(), .axis = -1, .keepdims = true});
  EXPECT_EQ(k.shape(), (Shape{2, 1}));
  EXPECT_EQ(k.to_vector<double>(), (V{6, 15}));
}

// ---- initial ----

// NumPy: initial=None removes the start value even where the op has an identity: a non-empty
// reduction is unchanged, an empty one is an error.
TEST_P(Methods, InitialNoneDropsTheIdentity) {
  EXPECT_EQ(
      op("add").reduce(full({3}, 1.0), {.target = target(), .initial = no_initial}).item<double>(),
      3);
  EXPECT_THROW(op("add").reduce(zeros({0}), {.target = target(), .initial = no_initial}),
               ValueError);
  // Without initial=None the identity answers for empty input.
  EXPECT_EQ(op("add").reduce(zeros({0}), {.target = target()}).item<double>(), 0);
  EXPECT_EQ(op("multiply").reduce(zeros({0}), {.target = target()}).item<double>(), 1);
}

// NumPy: initial= joins the reduction as one more element (max(1, 5, 3, initial=10) = 10), and a
// float initial for an integer loop is truncated (sum([1, 1], initial=-2.9) = 0).
TEST_P(Methods, InitialJoinsAsOneMoreElement) {
  EXPECT_EQ(op("maximum")
                .reduce(from_vector(V{1, 5, 3}), {.target = target(), .initial = 10})
                .item<double>(),
            10);
  EXPECT_EQ(red("sum")(from_vector(I64{1, 1}), {.target = target(), .initial = -2.9})
                .item<std::int64_t>(),
            0);
  EXPECT_EQ(op("subtract")
                .reduce(from_vector(V{1, 2}), {.target = target(), .initial = 10})
                .item<double>(),
            7);  // (10 - 1) - 2
}

// initial= is kept exactly in the loop's dtype: 2^63 + 5 survives a uint64 reduction (a double
// would round it); a value outside the dtype's range is an error (NumPy: OverflowError) and the
// input is left unchanged.
TEST_P(Methods, InitialIsExactAndRangeChecked) {
  const std::uint64_t big = (std::uint64_t{1} << 63) + 5;
  EXPECT_EQ(red("sum")(zeros({0}, DType::uint64), {.target = target(), .initial = big})
                .item<std::uint64_t>(),
            big);
  const Array e = zeros({0}, DType::int32);
  EXPECT_THROW(red("max")(e, {.target = target(), .initial = 1e30}), ValueError);
  const Array u = from_vector(U64{1, 2});
  EXPECT_THROW(red("sum")(u, {.target = target(), .initial = -1}), ValueError);
  EXPECT_EQ(u.to_vector<std::uint64_t>(), (U64{1, 2}));
}

// ---- dtypes ----

// Integer reductions run in their integer loops: max([2^63 + 1, 1]) is the element 2^63 + 1 and
// sum([2^53 + 1]) is 2^53 + 1 (through float64 both would round).
TEST_P(Methods, Uint64AndInt64ReductionsAreExact) {
  const std::uint64_t big = (std::uint64_t{1} << 63) + 1;
  EXPECT_EQ(red("max")(from_vector(U64{big, 1}), {.target = target()}).item<std::uint64_t>(), big);
  EXPECT_EQ(
      red("sum")(from_vector(U64{9007199254740993ULL}), {.target = target()}).item<std::uint64_t>(),
      9007199254740993ULL);
  EXPECT_EQ(red("sum")(from_vector(I64{9007199254740993LL, -2}), {.target = target()})
                .item<std::int64_t>(),
            9007199254740991LL);
}

// NumPy: out= takes part in choosing the loop (resolved from out's and the input's dtypes), so a
// uint8 sum into a uint64 out= is exact: 300 x 200 = 60000, where a uint8 accumulator would wrap.
TEST_P(Methods, OutDtypeSelectsTheLoop) {
  const Array x = full({300}, 200.0, DType::uint8);
  Array out = zeros({}, DType::uint64);
  const Array r = op("add").reduce(x, {.target = target(), .out = out});
  EXPECT_EQ(r.data(), out.data());
  EXPECT_EQ(out.item<std::uint64_t>(), 60000u);
  Array out2 = zeros({}, DType::uint64);
  red("sum")(x, {.target = target(), .out = out2});
  EXPECT_EQ(out2.item<std::uint64_t>(), 60000u);
  // A float input into an int64 out=: (int64, float64) resolves to the float64 loop, whose
  // result 4.0 is cast into out= (np.add.reduce([1.5, 2.5], out=<int64>) is 4).
  Array out3 = zeros({}, DType::int64);
  op("add").reduce(from_vector(V{1.5, 2.5}), {.target = target(), .out = out3});
  EXPECT_EQ(out3.item<std::int64_t>(), 4);
}

// An out= that cannot hold the loop's dtype where NumPy passes values through it before the end
// (the start value, or partial results past its 8192-element buffer) is refused, out= unchanged:
// np.minimum.reduce(int16 [-3, 5], out=<uint8>) is 5 (-3 started in out= as 253), loom's fold then
// cast would give 253. The cases NumPy casts once at the end still answer (docs/methods.md).
TEST_P(Methods, ReduceRefusesAnOutThatNumPyWouldAccumulateThrough) {
  auto refused = [&](const std::function<void()>& f, const Array& out, double was) {
    try {
      f();
      ADD_FAILURE() << "not refused";
    } catch (const TypeError& e) {
      EXPECT_NE(std::string(e.what()).find("cannot hold every value of the loop's dtype"),
                std::string::npos)
          << e.what();
    }
    EXPECT_EQ(out.astype(DType::float64).to_vector<double>()[0], was);
  };
  Array u8 = full({}, 7.0, DType::uint8);
  refused(
      [&] {
        op("minimum").reduce(from_vector(std::vector<std::int16_t>{-3, 5}),
                             {.target = target(), .out = u8});
      },
      u8, 7);
  Array i32 = full({}, 7.0, DType::int32);
  refused(
      [&] {
        op("subtract").reduce(from_vector(V{5.5, 1.2}), {.target = target(), .out = i32});
      },
      i32, 7);
  refused(
      [&] {
        op("add").reduce(from_vector(V{1.5, 2.8}),
                         {.target = target(), .initial = 0.7, .out = i32});
      },
      i32, 7);
  Array i64 = full({}, 7.0, DType::int64);
  refused([&] { op("add").reduce(full({20000}, 0.3), {.target = target(), .out = i64}); }, i64, 7);
  // Answered: wrapping integer ops into a narrower integer out=, and accumulate (NumPy casts each
  // result once there too).
  Array i8 = zeros({}, DType::int8);
  op("add").reduce(from_vector(I64{100, 100}), {.target = target(), .out = i8});
  EXPECT_EQ(i8.item<std::int8_t>(), -56);
  Array acc = zeros({3}, DType::int32);
  op("add").accumulate(from_vector(V{1.5, 2.5, 1.5}), {.target = target(), .out = acc});
  EXPECT_EQ(acc.to_vector<int>(), (std::vector<int>{1, 4, 5}));
}

// NumPy: dtype= is the loop's dtype and the input is cast to it unsafely, also when that narrows:
// add.reduce([1.7, 2.9, -0.5], dtype=int32) = 1 + 2 + 0 = 3.
TEST_P(Methods, DtypeCastsTheInputUnsafely) {
  const Array x = from_vector(V{1.7, 2.9, -0.5});
  const Array r = op("add").reduce(x, {.target = target(), .dtype = DType::int32});
  EXPECT_EQ(r.dtype(), DType::int32);
  EXPECT_EQ(r.item<std::int32_t>(), 3);
  const Array f = op("add").reduce(x, {.target = target(), .dtype = DType::float32});
  EXPECT_EQ(f.dtype(), DType::float32);
  EXPECT_EQ(f.item<float>(), (1.7f + 2.9f) + -0.5f);
}

// NumPy: add and multiply reduce bools and integers narrower than 64 bits in 64 bits (signed
// to int64, unsigned to uint64), so small-int sums do not wrap; accumulate too.
TEST_P(Methods, AddAndMultiplyWidenSmallIntegers) {
  const Array i8 = full({3}, 100.0, DType::int8);
  const Array s = op("add").reduce(i8, {.target = target()});
  EXPECT_EQ(s.dtype(), DType::int64);
  EXPECT_EQ(s.item<std::int64_t>(), 300);
  const Array u8 = from_vector(std::vector<std::uint8_t>{200, 100});
  const Array a = op("add").accumulate(u8, {.target = target()});
  EXPECT_EQ(a.dtype(), DType::uint64);
  EXPECT_EQ(a.to_vector<std::uint64_t>(), (U64{200, 300}));
  const Array b = op("add").reduce(array<bool>({true, true, false}), {.target = target()});
  EXPECT_EQ(b.dtype(), DType::int64);
  EXPECT_EQ(b.item<std::int64_t>(), 2);
  EXPECT_EQ(op("add").reduce(full({2}, 1.0, DType::int32), {.target = target()}).dtype(),
            DType::int64);
}

// ---- where= ----

// NumPy: where= leaves the masked-out elements out of the reduction (the mask broadcasts against
// the input); ops without identity need initial=; the mask must be boolean.
TEST_P(Methods, WhereLeavesMaskedElementsOut) {
  const Array x = from_vector(V{1, 2, 3, 4, 5, 6}, {2, 3});
  const Array m = array<bool>({true, false, true});  // broadcast over the rows
  EXPECT_EQ(op("add").reduce(x, {.target = target(), .axis = 1, .where = m}).to_vector<double>(),
            (V{1 + 3, 4 + 6}));
  EXPECT_EQ(op("maximum")
                .reduce(from_vector(V{1, 5, 3}), {.target = target(), .initial = -10, .where = m})
                .item<double>(),
            3);
  // subtract (no identity, not reorderable): the selected elements folded in order into initial.
  EXPECT_EQ(op("subtract")
                .reduce(x, {.target = target(), .axis = 1, .initial = 0, .where = m})
                .to_vector<double>(),
            (V{0 - 1 - 3, 0 - 4 - 6}));
  EXPECT_THROW(op("maximum").reduce(x, {.target = target(), .where = m}), ValueError);
  EXPECT_THROW(op("add").reduce(x, {.target = target(), .where = from_vector(V{1, 0, 1})}),
               TypeError);
}

// NumPy: initial= counts once, whatever the mask: sum(x, initial=100, where=m) is 100 plus the
// selected elements.
TEST_P(Methods, WhereWithInitialCountsTheInitialOnce) {
  const Array x = from_vector(V{1, 2, 3, 4, 5, 6}, {2, 3});
  const Array m = array<bool>({true, false, true});
  EXPECT_EQ(red("sum")(x, {.target = target(), .initial = 100, .where = m}).item<double>(),
            100 + 1 + 3 + 4 + 6);
  EXPECT_EQ(op("add")
                .reduce(x, {.target = target(), .axis = 1, .initial = 100, .where = m})
                .to_vector<double>(),
            (V{100 + 1 + 3, 100 + 4 + 6}));
}

// NumPy's true divide of integers and bools is float64 (1/3 to double precision), not float16
// or float32; so are its reduce and accumulate. float16 inputs stay float16.
TEST_P(Methods, TrueDivideOfIntegersIsFloat64) {
  for (DType t : {DType::bool_, DType::int8, DType::uint8, DType::int16, DType::uint16}) {
    const Array one = full({2}, 1.0).astype(t),
                three = full({2}, t == DType::bool_ ? 1.0 : 3.0).astype(t);
    const Array q = op("divide")(one, three, {.target = target()});
    EXPECT_EQ(q.dtype(), DType::float64) << name(t);
    EXPECT_EQ(q.to_vector<double>()[0], t == DType::bool_ ? 1.0 : 1.0 / 3.0) << name(t);
  }
  EXPECT_EQ(op("true_divide")(array<std::int8_t>({1}), 3, {.target = target()}).item<double>(),
            1.0 / 3.0);
  const Array i8 = array<std::int8_t>({1, 3});
  EXPECT_EQ(op("divide").reduce(i8, {.target = target()}).item<double>(), 1.0 / 3.0);
  EXPECT_EQ(op("divide").accumulate(i8, {.target = target()}).dtype(), DType::float64);
  EXPECT_EQ(op("divide")(full({1}, 1.0).astype(DType::float16), i8, {.target = target()}).dtype(),
            DType::float16);
}

// NumPy folds only the selected elements into initial=: a masked-out element is not the
// identity combined with it. gcd(-1, 0) = 1 and hypot(-3, 0) = 3 would show if it were, and
// -0.0 + 0.0 = +0.0 loses the sign of initial=-0.0 (np.gcd.reduce([5], initial=-1,
// where=[False]) is -1, np.hypot.reduce([5.], initial=-3, where=[False]) is -3.0).
TEST_P(Methods, WhereKeepsInitialOfMaskedOutRowsExactly) {
  const Array none = array<bool>({false});
  EXPECT_EQ(op("gcd")
                .reduce(from_vector(I64{5}), {.target = target(), .initial = -1, .where = none})
                .item<std::int64_t>(),
            -1);
  EXPECT_EQ(op("hypot")
                .reduce(from_vector(V{5}), {.target = target(), .initial = -3, .where = none})
                .item<double>(),
            -3.0);
  for (const char* name : {"hypot", "add"}) {
    const double got =
        op(name)
            .reduce(from_vector(V{5}), {.target = target(), .initial = -0.0, .where = none})
            .item<double>();
    EXPECT_TRUE(got == 0 && std::signbit(got)) << name << " gave " << got;
  }
  // Rows with selected elements: gcd(gcd(-4, 6), 9) = 1 and gcd(-4, 8) = 4; a fully masked row
  // keeps -4; -0.0 + -0.0 stays -0.0 when the other element is masked out.
  const Array x = from_vector(I64{6, 5, 9, 8, 7, 7, 1, 2, 3}, {3, 3});
  const Array m =
      array<bool>({true, false, true, true, false, false, false, false, false}).reshape({3, 3});
  EXPECT_EQ(op("gcd")
                .reduce(x, {.target = target(), .axis = 1, .initial = -4, .where = m})
                .to_vector<std::int64_t>(),
            (I64{1, 4, -4}));
  const double z =
      op("add")
          .reduce(from_vector(V{-0.0, 5}),
                  {.target = target(), .initial = -0.0, .where = array<bool>({true, false})})
          .item<double>();
  EXPECT_TRUE(z == 0 && std::signbit(z)) << z;
}

// docs/decisions.md: where= on a ufunc call without out= gives zeros where the mask is false
// (NumPy leaves them uninitialised); with out= those elements keep out's values.
TEST_P(Methods, WhereOnCallsWithoutOutGivesZeros) {
  const Array x = from_vector(V{1, 2, 3});
  const Array m = array<bool>({true, false, true});
  EXPECT_EQ(op("add")(x, 10.0, {.target = target(), .where = m}).to_vector<double>(),
            (V{11, 0, 13}));
  Array out = full({3}, -1.0);
  op("add")(x, 10.0, {.target = target(), .out = {out}, .where = m});
  EXPECT_EQ(out.to_vector<double>(), (V{11, -1, 13}));
  EXPECT_THROW(op("add")(x, 10.0, {.target = target(), .where = from_vector(V{1, 0, 1})}),
               TypeError);
}

// ---- accumulate ----

// NumPy: accumulate(x)[i] = op(accumulate(x)[i-1], x[i]) along the axis, starting from x[0];
// strictly in order, so subtract.accumulate([10, 1, 2]) = [10, 9, 7].
TEST_P(Methods, AccumulateIsTheRunningFold) {
  EXPECT_EQ(op("subtract")
                .accumulate(from_vector(I64{10, 1, 2}), {.target = target()})
                .to_vector<std::int64_t>(),
            (I64{10, 9, 7}));
  const Array x = from_vector(V{0, 1, 2, 3, 4, 5}, {2, 3});
  EXPECT_EQ(op("add").accumulate(x, {.target = target(), .axis = 1}).to_vector<double>(),
            (V{0, 1, 3, 3, 7, 12}));
  EXPECT_EQ(op("add").accumulate(x, {.target = target()}).to_vector<double>(),
            (V{0, 1, 2, 3, 5, 7}));
  // A long line (parallel scans it in blocks): integers, so any order gives the exact prefix sums.
  const std::int64_t n = 1 << 20;
  const I64 got = op("add").accumulate(arange(n), {.target = target()}).to_vector<std::int64_t>();
  bool ok = true;
  for (std::int64_t i = 0; i < n; ++i) ok = ok && got[i] == i * (i + 1) / 2;
  EXPECT_TRUE(ok);
  // Non-reorderable over a long line: the left fold's bits.
  V v(100000);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = std::cos(static_cast<double>(i));
  const V s = op("subtract").accumulate(from_vector(v), {.target = target()}).to_vector<double>();
  double acc = v[0];
  bool same = s[0] == acc;
  for (std::size_t i = 1; i < v.size(); ++i) same = same && s[i] == (acc -= v[i]);
  EXPECT_TRUE(same);
}

// ---- reduceat ----

// NumPy: reduceat(x, idx)[i] = reduce(x[idx[i]:idx[i+1]]) when idx[i] < idx[i+1], else
// x[idx[i]]; the last index runs to the end; indices outside [0, n) are an IndexError. NumPy's
// documented example: add.reduceat(arange(8), [0, 4, 1, 5]) = [6, 4, 10, 18].
TEST_P(Methods, ReduceatFollowsNumPysIndexRules) {
  const Array x = arange(8);
  auto at = [&](I64 idx) {
    return op("add").reduceat(x, from_vector(idx), {.target = target()}).to_vector<std::int64_t>();
  };
  EXPECT_EQ(at({0, 4, 1, 5}), (I64{0 + 1 + 2 + 3, 4, 1 + 2 + 3 + 4, 5 + 6 + 7}));
  EXPECT_EQ(at({0, 0, 3}), (I64{0, 0 + 1 + 2, 3 + 4 + 5 + 6 + 7}));
  EXPECT_EQ(at({5, 2}), (I64{5, 2 + 3 + 4 + 5 + 6 + 7}));
  // In order for a non-reorderable op: [10 - 1, 2 - 3].
  EXPECT_EQ(
      op("subtract")
          .reduceat(from_vector(I64{10, 1, 2, 3}), from_vector(I64{0, 2}), {.target = target()})
          .to_vector<std::int64_t>(),
      (I64{9, -1}));
  const Array m = from_vector(V{0, 1, 2, 3, 4, 5}, {2, 3});
  EXPECT_EQ(op("add")
                .reduceat(m, from_vector(I64{0, 2}), {.target = target(), .axis = 1})
                .to_vector<double>(),
            (V{0 + 1, 2, 3 + 4, 5}));
  EXPECT_THROW(at({0, 8}), IndexError);
  EXPECT_THROW(at({-1}), IndexError);
}

// ---- outer ----

// NumPy: outer(a, b)[i..., j...] = op(a[i...], b[j...]), shape a.shape + b.shape.
TEST_P(Methods, OuterPairsEveryElement) {
  const Array r =
      op("subtract").outer(from_vector(V{1, 2}), from_vector(V{10, 20, 30}), {.target = target()});
  EXPECT_EQ(r.shape(), (Shape{2, 3}));
  EXPECT_EQ(r.to_vector<double>(), (V{1 - 10, 1 - 20, 1 - 30, 2 - 10, 2 - 20, 2 - 30}));
  EXPECT_EQ(op("add").outer(full({2, 2}, 1.0), full({3}, 1.0), {.target = target()}).shape(),
            (Shape{2, 2, 3}));
}

// ---- at ----

// NumPy: at(a, idx, b) does a[idx[j]] = op(a[idx[j]], b[j]) for each j in order, unbuffered: a
// repeated index is applied once per occurrence; negative indices count from the end.
TEST_P(Methods, AtAppliesEveryOccurrence) {
  Array a = zeros({4});
  op("add").at(a, from_vector(I64{0, 0, 1, -1}), 1.0, {.target = target()});
  EXPECT_EQ(a.to_vector<double>(), (V{2, 1, 0, 1}));
  Array s = from_vector(V{10, 20, 30});
  op("subtract").at(s, from_vector(I64{0, 0, -1}), from_vector(V{1, 2, 3}), {.target = target()});
  EXPECT_EQ(s.to_vector<double>(), (V{10 - 1 - 2, 20, 30 - 3}));
  // Rows of a 2-d array, b broadcast to indices.shape + a.shape[1:].
  Array m = zeros({3, 2});
  op("add").at(m, from_vector(I64{0, 2, 0}), from_vector(V{1, 2}, {1, 2}), {.target = target()});
  EXPECT_EQ(m.to_vector<double>(), (V{2, 4, 0, 0, 1, 2}));
  // NumPy casts b to a's dtype unsafely: adding 1.5 to an int64 element adds 1.
  Array i = zeros({2}, DType::int64);
  op("add").at(i, from_vector(I64{0}), 1.5, {.target = target()});
  EXPECT_EQ(i.to_vector<std::int64_t>(), (I64{1, 0}));
  // Many updates into few bins (parallel's atomic and bucketed paths): the exact counts.
  const std::int64_t n = 200000, bins = 100;
  I64 idx(n);
  for (std::int64_t j = 0; j < n; ++j) idx[j] = (j * 7919) % bins;
  Array h = zeros({bins}, DType::int64);
  op("add").at(h, from_vector(idx), std::int64_t{1}, {.target = target()});
  EXPECT_EQ(h.to_vector<std::int64_t>(), I64(bins, n / bins));
}

// NumPy's at takes b through np.asarray: a Python int is a strong int64 there, so a uint64 a
// meets the float64 loop (np.add.at(uint64 [2^63 + 3], [0], 4) stores 2^63, not 2^63 + 7). And a
// loop whose dtype cannot hold a's values (logical_or.at of uint8 runs the bool loop) changes
// only the rows it updates: np.logical_or.at(uint8 [6, 8, 0, 3], [2, 2], 5) is [6, 8, 1, 3]
// (every row became 0 or 1 before).
TEST_P(Methods, AtResolvesAPythonScalarAsNumPysAsarrayAndKeepsOtherRows) {
  Array u = from_vector(U64{(1ULL << 63) + 3, 5});
  op("add").at(u, from_vector(I64{0}), 4, {.target = target()});
  EXPECT_EQ(u.to_vector<std::uint64_t>(), (U64{1ULL << 63, 5}));
  Array b = from_vector(std::vector<std::uint8_t>{6, 8, 0, 3});
  op("logical_or").at(b, from_vector(I64{2, 2}), 5, {.target = target()});
  EXPECT_EQ(b.to_vector<int>(), (std::vector<int>{6, 8, 1, 3}));
  Array f = from_vector(V{0.0, 1.5, -1.75, 1.25, 5.0});
  op("logical_and")
      .at(f, from_vector(I64{-4, -3}), from_vector(V{-0.5, -7.0}), {.target = target()});
  EXPECT_EQ(f.to_vector<double>(), (V{0.0, 1.0, 1.0, 1.25, 5.0}));
}

// ---- refusals ----

// A refused call changes none of the caller's arrays: the input, out= and, for at, the array
// being updated (the bad index comes after good ones, which must not have been applied).
TEST_P(Methods, RefusalsLeaveTheArraysUnchanged) {
  const Array x = from_vector(V{1, 2, 3, 4, 5, 6}, {2, 3});
  const Array x0 = x.copy();
  Array out = full({}, 7.0);
  EXPECT_THROW(op("subtract").reduce(x, {.target = target(), .axis = {0, 1}, .out = out}),
               ValueError);
  EXPECT_THROW(red("max")(x, {.target = target(), .where = full({3}, true), .out = out}),
               ValueError);
  EXPECT_THROW(red("sum")(x, {.target = target(), .where = full({4}, true), .out = out}),
               ShapeError);
  EXPECT_THROW(
      op("add").reduce(
          x, {.target = target(), .axis = all_axes, .where = from_vector(V{1, 0, 1}), .out = out}),
      TypeError);
  EXPECT_EQ(out.item<double>(), 7);
  Array outi = full({}, 7.0, DType::int32);
  EXPECT_THROW(
      red("max")(zeros({0}, DType::int32), {.target = target(), .initial = 1e30, .out = outi}),
      ValueError);
  EXPECT_EQ(outi.item<std::int32_t>(), 7);
  Array acc_out = full({2, 3}, 7.0);
  EXPECT_THROW(op("add").accumulate(x, {.target = target(), .axis = 2, .out = acc_out}),
               ValueError);
  EXPECT_EQ(acc_out.to_vector<double>(), V(6, 7));
  EXPECT_THROW(op("add").reduceat(x, from_vector(I64{0, 3}), {.target = target(), .axis = 1}),
               IndexError);
  EXPECT_TRUE(same_bytes(x, x0));
  Array a = zeros({4});
  EXPECT_THROW(op("add").at(a, from_vector(I64{0, 1, 7}), 1.0, {.target = target()}), IndexError);
  EXPECT_THROW(
      op("add").at(a, from_vector(I64{0, 1}), from_vector(V{1, 2, 3}), {.target = target()}),
      ShapeError);
  EXPECT_EQ(a.to_vector<double>(), (V{0, 0, 0, 0}));
  EXPECT_THROW(op("sqrt").reduce(x, {.target = target()}), ValueError);
  EXPECT_TRUE(same_bytes(x, x0));
}

// ---- accuracy and determinism ----

// The error bound of a summation whose association tree has depth d: |s - exact| <= d·u·Σ|x|
// (u = 2^-24 for float32). loom's pairwise fold has depth <= 32 (a lane's sequential part within
// a 512-element block) + 4 (the tree over 16 lanes) + ceil(log2 n) (the halvings and the cascade
// over runs); a sequential sum has depth n, which is what a strided input used to get.
double pairwise_bound(std::int64_t n, double sum_abs) {
  const double depth = 36.0 + std::ceil(std::log2(static_cast<double>(n)));
  return depth * std::ldexp(1.0, -24) * sum_abs;
}

// The case: 2e7 x 0.1f read with step 2 summed to 1087937 (+8.8 %) through a sequential
// strided fold. NumPy gives 1000000.1; the exact sum of 10^7 float32 0.1f is 10^7 * 0.1f.
TEST_P(Methods, Float32SumOfAStridedInputKeepsThePairwiseBound) {
  const Array x = full({20'000'000}, 0.1f).slice(0, 0, 20'000'000, 2);
  ASSERT_EQ(x.size(), 10'000'000);
  const double exact = 1e7 * static_cast<double>(0.1f);
  const Array s = red("sum")(x, {.target = target()});
  ASSERT_EQ(s.dtype(), DType::float32);
  EXPECT_LE(std::fabs(static_cast<double>(s.item<float>()) - exact), pairwise_bound(1e7, exact))
      << "sum " << s.item<float>() << ", exact " << exact;
  // Deterministic: the same bits on a second run.
  EXPECT_TRUE(same_bytes(red("sum")(x, {.target = target()}), s));
}

// The second case: a transposed (2000, 2000) array of 0.1f summed to 384525 (-3.9 %);
// NumPy 400000.03. Also per column of the transposed view (each a strided run).
TEST_P(Methods, Float32SumOfATransposedInputKeepsThePairwiseBound) {
  const Array x = full({2000, 2000}, 0.1f).transpose();
  const double exact = 4e6 * static_cast<double>(0.1f);
  const Array s = red("sum")(x, {.target = target()});
  EXPECT_LE(std::fabs(static_cast<double>(s.item<float>()) - exact), pairwise_bound(4e6, exact))
      << "sum " << s.item<float>() << ", exact " << exact;
  EXPECT_TRUE(same_bytes(red("sum")(x, {.target = target()}), s));
  const std::vector<float> cols = red("sum")(x, {.target = target(), .axis = 0}).to_vector<float>();
  const double col_exact = 2000 * static_cast<double>(0.1f);
  double worst = 0;
  for (float c : cols) worst = std::max(worst, std::fabs(static_cast<double>(c) - col_exact));
  EXPECT_LE(worst, pairwise_bound(2000, col_exact));
}

INSTANTIATE_TEST_SUITE_P(HostTargets, Methods, ::testing::ValuesIn(host_targets()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace loom
