// float16 reductions as NumPy's (on `cpu` and, where the tbb backend is loaded, `parallel`):
// add.reduce, multiply.reduce, np.sum and np.prod of float16 accumulate in float and round to
// float16 once (NumPy's HALF_add / HALF_multiply reduce loops), while accumulate rounds every
// step. Expected values are derived here from that definition (a double sum rounded once) and
// are NumPy 2's results: np.add.reduce(np.full(10000, 0.1, np.float16)) is 1000.0 where a loop
// rounding every step sticks at 256.0 (256 + 0.1 rounds back to 256), which np.add.accumulate
// shows.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "host_runtime.hpp"
#include "loom/float16.hpp"
#include "loom/runtime.hpp"

namespace loom {
namespace {

using loom::test::host_targets;
using loom::test::rt;

std::uint16_t bits_of(const Array& a, std::int64_t i = 0) {
  std::uint16_t b;
  std::memcpy(&b, a.data() + i * a.strides().back(), 2);
  return b;
}
std::uint16_t half_bits(double d) { return float16_t::from_double(d).bits; }

class Float16Methods : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(rt().registry().find("sum"))
        << "the math plugin (libloom_math.so) is not in " << LOOM_TEST_SERIAL_DIR;
  }
  const std::string& target() const { return GetParam(); }
};

TEST_P(Float16Methods, SumAccumulatesInFloatAndRoundsOnce) {
  const Array x = full({10000}, 0.1, DType::float16);
  const double h = static_cast<double>(static_cast<float>(float16_t(0.1f)));  // 0.0999755859375
  const std::uint16_t want = half_bits(10000 * h);                            // 1000.0
  ASSERT_EQ(want, half_bits(1000.0));
  for (const Array& r : {rt().reduce("sum")(x, {.target = target()}),
                         rt().ufunc("add").reduce(x, {.target = target()})}) {
    EXPECT_EQ(r.dtype(), DType::float16);  // np.sum(float16) is float16
    EXPECT_EQ(bits_of(r), want) << static_cast<float>(float16_t::from_bits(bits_of(r)));
  }
  // accumulate rounds every step, as NumPy's: it sticks at 256.
  const Array acc = rt().ufunc("add").accumulate(x, {.target = target()});
  EXPECT_EQ(bits_of(acc, 9999), half_bits(256.0));
  // Along the rows of a 2-D array (reduced dim innermost): each row's 4000 values, rounded once.
  const Array rows = full({3, 4000}, 0.1, DType::float16);
  const Array rs = rt().reduce("sum")(rows, {.target = target(), .axis = 1});
  ASSERT_EQ(rs.dtype(), DType::float16);
  for (std::int64_t i = 0; i < 3; ++i) EXPECT_EQ(bits_of(rs, i), half_bits(4000 * h));
  // Along an outer axis of a wide array, cpu adds whole rows elementwise, each step rounded to
  // float16, as NumPy does (np.add.reduce(np.full((4000, 40), 0.1, np.float16), axis=0) is 256.0
  // in each column; `parallel` cuts the rows into chunks, fewer steps each: nearer 400). With few
  // columns loom walks the reduced axis inside and rounds once (400.0; NumPy: 256.0, a difference
  // docs/catalogue.md states).
  if (target() == "cpu") {
    const Array wide =
        rt().reduce("sum")(full({4000, 40}, 0.1, DType::float16), {.target = target(), .axis = 0});
    for (std::int64_t i = 0; i < 40; ++i) EXPECT_EQ(bits_of(wide, i), half_bits(256.0));
  }
  const Array narrow =
      rt().reduce("sum")(full({4000, 3}, 0.1, DType::float16), {.target = target(), .axis = 0});
  for (std::int64_t i = 0; i < 3; ++i) EXPECT_EQ(bits_of(narrow, i), half_bits(4000 * h));
}

TEST_P(Float16Methods, ProdAccumulatesInFloatAndRoundsOnce) {
  const Array x = full({100}, 1.01, DType::float16);
  const double f = static_cast<double>(static_cast<float>(float16_t(1.01f)));  // 1.009765625
  const std::uint16_t want = half_bits(std::pow(f, 100));                      // 2.643 (NumPy)
  for (const Array& r : {rt().reduce("prod")(x, {.target = target()}),
                         rt().ufunc("multiply").reduce(x, {.target = target()})}) {
    EXPECT_EQ(r.dtype(), DType::float16);
    EXPECT_EQ(bits_of(r), want) << static_cast<float>(float16_t::from_bits(bits_of(r)));
  }
}

// The fold converts each element as it gathers it: a reversed or strided view gives the
// contiguous copy's bits.
TEST_P(Float16Methods, StridedSumsEqualContiguousOnes) {
  std::vector<double> v(30001);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = std::sin(0.37 * static_cast<double>(i));
  const Array x = from_vector(v).astype(DType::float16);
  for (const Array& view : {x.slice(0, 30000, -30002, -1), x.slice(0, 0, 30001, 3)}) {
    const Array a = rt().reduce("sum")(view, {.target = target()});
    const Array b = rt().reduce("sum")(view.copy(), {.target = target()});
    EXPECT_EQ(bits_of(a), bits_of(b));
  }
}

// subtract and divide fold float16 in float too (NumPy's HALF_subtract / HALF_divide reduce
// loops): a partial past float16's largest finite value (65504) that comes back down stays
// finite. NumPy 2.4: np.divide.reduce(np.array([60000, 0.5, 4], np.float16)) is 30000.0, and
// np.subtract.reduce([-60000, 10000, -10000]) is -60000.0 (rounding every step gives inf).
TEST_P(Float16Methods, SubtractAndDivideFoldInFloat) {
  const Array q = from_vector(std::vector<double>{60000, 0.5, 4}).astype(DType::float16);
  const Array d = from_vector(std::vector<double>{-60000, 10000, -10000}).astype(DType::float16);
  EXPECT_EQ(bits_of(rt().ufunc("divide").reduce(q, {.target = target()})), half_bits(30000));
  EXPECT_EQ(bits_of(rt().ufunc("subtract").reduce(d, {.target = target()})), half_bits(-60000));
  // accumulate still rounds every step, as NumPy's: its middle element overflows.
  const Array acc = rt().ufunc("divide").accumulate(q, {.target = target()});
  EXPECT_TRUE(std::isinf(static_cast<float>(float16_t::from_bits(bits_of(acc, 1)))));
}

// Down an outer axis NumPy's float16 divide is elementwise steps, each rounded: the same column
// as above down axis 0 of a (3, 2) array overflows (np.divide.reduce(a, axis=0)[0] is inf).
TEST_P(Float16Methods, DivideDownAnOuterAxisRoundsEveryStep) {
  const Array a = from_vector(std::vector<double>{60000, 1, 0.5, 1, 4, 1})
                      .astype(DType::float16)
                      .reshape({3, 2});
  const Array r = rt().ufunc("divide").reduce(a, {.target = target(), .axis = 0});
  EXPECT_TRUE(std::isinf(static_cast<float>(float16_t::from_bits(bits_of(r, 0)))));
  EXPECT_EQ(bits_of(r, 1), half_bits(1));
}

// reduceat folds each segment along its axis, whichever axis that is, as a reduction does (and
// NumPy's reduceat, whose inner loop runs along the axis): float16 add then accumulates in float
// down axis 0 of a (3, 2) array. NumPy 2.4: np.add.reduceat(a, [0], axis=0) is [[2050, 3]];
// stepping over the other axis with the elementwise loop rounded 2048 + 1 back to 2048 twice.
TEST_P(Float16Methods, ReduceatFoldsAlongItsAxis) {
  const Array a =
      from_vector(std::vector<double>{2048, 1, 1, 1, 1, 1}).astype(DType::float16).reshape({3, 2});
  const Array r = rt().ufunc("add").reduceat(a, from_vector(std::vector<std::int64_t>{0}),
                                             {.target = target(), .axis = 0});
  ASSERT_EQ(r.shape(), (Shape{1, 2}));
  EXPECT_EQ(bits_of(r, 0), half_bits(2050));
  EXPECT_EQ(bits_of(r, 1), half_bits(3));
}

// The walk follows memory, as NumPy's iterator does: down axis 0 of a transposed C array the
// reduced axis is the innermost in memory, so divide folds in float there (NumPy 2.4:
// np.divide.reduce(a.T, axis=0) is [30000, 1] for a = [[60000, 0.5, 4], [1, 1, 1]]).
TEST_P(Float16Methods, DivideAlongTheInnermostInMemoryFoldsInFloat) {
  const Array a = from_vector(std::vector<double>{60000, 0.5, 4, 1, 1, 1})
                      .astype(DType::float16)
                      .reshape({2, 3});
  const Array r = rt().ufunc("divide").reduce(a.transpose(), {.target = target(), .axis = 0});
  EXPECT_EQ(bits_of(r, 0), half_bits(30000));
  EXPECT_EQ(bits_of(r, 1), half_bits(1));
}

// The same for divide, whose reduceat segments fold in float too (np.divide.reduceat(a, [0],
// axis=0) is [[30000, 1]], where reducing down axis 0 overflows).
TEST_P(Float16Methods, DivideReduceatFoldsInFloat) {
  const Array a = from_vector(std::vector<double>{60000, 1, 0.5, 1, 4, 1})
                      .astype(DType::float16)
                      .reshape({3, 2});
  const Array r = rt().ufunc("divide").reduceat(a, from_vector(std::vector<std::int64_t>{0}),
                                                {.target = target(), .axis = 0});
  ASSERT_EQ(r.shape(), (Shape{1, 2}));
  EXPECT_EQ(bits_of(r, 0), half_bits(30000));
  EXPECT_EQ(bits_of(r, 1), half_bits(1));
}

INSTANTIATE_TEST_SUITE_P(HostTargets, Float16Methods, ::testing::ValuesIn(host_targets()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace loom
