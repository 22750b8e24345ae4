// Tests of the same-shape fast path of ufunc calls (ufunc_call.cpp, fast_call) and of the small
// allocations it makes: results as the general path gives them, and every case it must leave to
// the general path (overlap, casts, broadcasting, errors) still answered as before.
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

Array vec(V v, Shape s = {}) { return from_vector(v, std::move(s)); }
V vals(const Array& a) { return a.to_vector<double>(); }

TEST(SmallCalls, SmallHostArraysAre64ByteAlignedAndWritable) {
  for (std::int64_t n = 0; n <= 80; ++n) {  // 0 to 640 bytes: both sides of the malloc path
    Array a = empty({n});
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a.data()) % 64, 0u) << n;
    for (std::int64_t i = 0; i < n; ++i) a.data<double>()[i] = static_cast<double>(i);
    if (n > 0) {
      EXPECT_EQ(a.data<double>()[n - 1], static_cast<double>(n - 1));
    }
  }
}

TEST(SmallCalls, OneElementResultIsFreshEveryCall) {
  Array x = vec({1}), y = vec({2});
  Array r1 = op("t_add")(x, y), r2 = op("t_add")(x, y);
  EXPECT_NE(r1.data(), r2.data());
  EXPECT_EQ(r1.shape(), (Shape{1}));
  EXPECT_EQ(r1.strides(), (Shape{8}));
  EXPECT_TRUE(r1.writeable());
  EXPECT_FALSE(r1.weak());
  EXPECT_EQ(vals(r1), (V{3}));
  EXPECT_EQ(vals(x), (V{1}));
}

TEST(SmallCalls, StridedViewsOfOneShapeMatchTheirCopies) {
  Array a = vec({0, 1, 2, 3, 4, 5}, {2, 3});
  Array b = vec({0, 10, 20, 30, 40, 50}, {3, 2});
  Array at = a.transpose(), bs = b.slice(0, -1, -100, -1);  // both (3, 2), neither contiguous
  Array r = op("t_add")(at, bs);
  EXPECT_EQ(r.shape(), (Shape{3, 2}));
  EXPECT_EQ(vals(r), vals(op("t_add")(at.copy(), bs.copy())));
  Array out = zeros({2, 3});
  op("t_add")(at, bs, {.out = {out.transpose()}});  // a strided out= of the same shape
  EXPECT_EQ(vals(out.transpose()), vals(r));
}

TEST(SmallCalls, OutOverlappingAnInputShiftedIsReadFirst) {
  Array x = arange(0.0, 6.0);
  op("t_add")(x.slice(0, 0, 5), x.slice(0, 0, 5), {.out = {x.slice(0, 1, 6)}});
  EXPECT_EQ(vals(x), (V{0, 0, 2, 4, 6, 8}));
}

TEST(SmallCalls, ZeroSizeAndZeroDim) {
  Array e = op("t_add")(zeros({0, 2}), zeros({0, 2}));
  EXPECT_EQ(e.shape(), (Shape{0, 2}));
  Array s = op("t_add")(1.5, 2.0);  // two weak scalars: float64, as NumPy's Python floats
  EXPECT_EQ(s.ndim(), 0);
  EXPECT_EQ(s.dtype(), DType::float64);
  EXPECT_EQ(s.item<double>(), 3.5);
}

TEST(SmallCalls, AlternatingDtypesPickTheirOwnLoops) {
  Array f = full({2}, 1.5, DType::float32), d = full({2}, 1.5);
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(op("t_add")(f, f).dtype(), DType::float32);
    EXPECT_EQ(op("t_add")(d, d).dtype(), DType::float64);
    EXPECT_EQ(op("t_add")(f, d).dtype(), DType::float64);  // a cast: the general path
  }
  EXPECT_EQ(op("t_add")(f, f).to_vector<float>(), (VF{3, 3}));
}

TEST(SmallCalls, OutOfAnotherDtypeIsCastAsBefore) {
  Array out = zeros({2}, DType::float32);
  op("t_add")(vec({1, 2}), vec({3, 4}), {.out = {out}});
  EXPECT_EQ(out.to_vector<float>(), (VF{4, 6}));
  Array iout = zeros({2}, DType::int64);
  EXPECT_THROW(op("t_add")(vec({1, 2}), vec({3, 4}), {.out = {iout}}), TypeError);
}

TEST(SmallCalls, ScalarsBroadcastAndTakeTheLoopsDtype) {
  Array f = linspace(0.0, 1.0, 7, true, DType::float32);
  Array r = op("t_add")(f, 0.1);  // weak 0.1 becomes float32 0.1f, as in NumPy 2
  EXPECT_EQ(r.dtype(), DType::float32);
  EXPECT_EQ(r.shape(), (Shape{7}));
  EXPECT_EQ(r.to_vector<float>(),
            op("t_add")(f, full({7}, 0.1, DType::float32)).to_vector<float>());
  Array l = op("t_add")(2.0, vec({1, 2}));  // the scalar first
  EXPECT_EQ(vals(l), (V{3, 4}));
  Array s = vec({0, 1, 2, 3, 4, 5}, {2, 3}).transpose();  // strided, with a scalar
  EXPECT_EQ(vals(op("t_add")(s, 1.0)), (V{1, 4, 2, 5, 3, 6}));
  Array one = op("t_add")(vec({1}), Array(2.0).as_strong());
  EXPECT_EQ(vals(one), (V{3}));
}

TEST(SmallCalls, ScalarViewOfOutIsReadFirst) {
  Array x = arange(0.0, 4.0);
  op("t_add")(x, x.index(0, 2), {.out = {x}});  // x[2] is read before x is written
  EXPECT_EQ(vals(x), (V{2, 3, 4, 5}));
}

TEST(SmallCalls, ErrorsStayAfterASuccessfulCall) {
  Array x = vec({1}), y = vec({2});
  op("t_add")(x, y);  // warms the loop and target memos
  EXPECT_THROW(op("t_add")(x, y, {.target = "no_such_target"}), TargetError);
  EXPECT_THROW(op("t_add")(x, y, {.target = "cpu:1"}), TargetError);
  EXPECT_THROW(op("t_add")(x, Array()), ValueError);
  EXPECT_THROW(op("t_add")(x, y, {.out = {x.broadcast_to({1})}}), ValueError);  // read-only
  EXPECT_THROW(op("t_add")(vec({1, 2}), vec({3, 4}), {.out = {zeros({3})}}), ShapeError);
  Array wide = zeros({2});  // out= of a larger shape broadcasts the inputs to it, as in NumPy
  op("t_add")(x, y, {.out = {wide}});
  EXPECT_EQ(vals(wide), (V{3, 3}));
  EXPECT_THROW(op("t_add")(x, y, {.axis = 0}), TypeError);
  EXPECT_EQ(vals(op("t_add")(x, y, {.target = "cpu"})), (V{3}));
}

}  // namespace
}  // namespace loom
