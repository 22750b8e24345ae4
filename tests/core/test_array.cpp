// Tests of loom::Array: creation, views (slice, index, transpose, reshape, broadcast_to), byte
// strides, contiguity, element access, weak scalars and broadcast_shapes.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "loom/array.hpp"
#include "loom/error.hpp"

namespace loom {
namespace {

using V = std::vector<double>;
using VI = std::vector<std::int64_t>;

// A (2, 3) float64 array 0..5.
Array grid() { return from_vector(V{0, 1, 2, 3, 4, 5}, {2, 3}); }

// ---- creation ----

TEST(ArrayCreate, EmptyHasShapeDtypeAndCStrides) {
  Array a = empty({2, 3}, DType::float32);
  EXPECT_EQ(a.shape(), (Shape{2, 3}));
  EXPECT_EQ(a.dtype(), DType::float32);
  EXPECT_EQ(a.size(), 6);
  EXPECT_EQ(a.ndim(), 2);
  EXPECT_TRUE(a.device().is_host());
}

TEST(ArrayCreate, EmptyWithZeroDimHasSizeZero) {
  Array a = empty({2, 0});
  EXPECT_EQ(a.size(), 0);
  EXPECT_TRUE(a.to_vector<double>().empty());
}

TEST(ArrayCreate, NegativeDimensionIsShapeError) { EXPECT_THROW(empty({2, -1}), ShapeError); }

TEST(ArrayCreate, ZerosIsAllZero) {
  EXPECT_EQ(zeros({2, 2}, DType::int32).to_vector<int>(), (std::vector<int>{0, 0, 0, 0}));
}

TEST(ArrayCreate, FullWithDoubleIsFloat64) {
  Array a = full({3}, 1.5);
  EXPECT_EQ(a.dtype(), DType::float64);
  EXPECT_EQ(a.to_vector<double>(), (V{1.5, 1.5, 1.5}));
}

TEST(ArrayCreate, FullWithTypedValueTakesItsDtype) {
  Array a = full({2}, std::int16_t{7});
  EXPECT_EQ(a.dtype(), DType::int16);
  EXPECT_EQ(a.to_vector<int>(), (std::vector<int>{7, 7}));
}

// Integers past 2^53 keep every bit (a double on the way would round 2^60 + 1 to 2^60).
TEST(ArrayCreate, FullWithA64BitIntegerKeepsEveryBit) {
  const std::int64_t big = (std::int64_t{1} << 60) + 1;
  Array a = full({2}, big);
  EXPECT_EQ(a.dtype(), DType::int64);
  EXPECT_EQ(a.to_vector<std::int64_t>(), (std::vector<std::int64_t>{big, big}));
  const std::uint64_t top = ~std::uint64_t{0};
  Array u = full({1}, top);
  EXPECT_EQ(u.dtype(), DType::uint64);
  EXPECT_EQ(u.to_vector<std::uint64_t>(), (std::vector<std::uint64_t>{top}));
  Array m = full({1}, std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(m.to_vector<std::int64_t>()[0], std::numeric_limits<std::int64_t>::min());
}

TEST(ArrayCreate, FullWithExplicitDtypeCasts) {
  Array a = full({2}, 2.75, DType::int32);
  EXPECT_EQ(a.to_vector<int>(), (std::vector<int>{2, 2}));
}

TEST(ArrayCreate, ArangeStopIsInt64From0) {
  Array a = arange(5);
  EXPECT_EQ(a.dtype(), DType::int64);
  EXPECT_EQ(a.to_vector<std::int64_t>(), (VI{0, 1, 2, 3, 4}));
}

TEST(ArrayCreate, ArangeWithStepExcludesStop) {
  EXPECT_EQ(arange(0.0, 1.0, 0.25).to_vector<double>(), (V{0, 0.25, 0.5, 0.75}));
  EXPECT_EQ(arange(3.0, 0.0, -1.0).to_vector<double>(), (V{3, 2, 1}));
}

TEST(ArrayCreate, ArangeWithStopBeforeStartIsEmpty) { EXPECT_EQ(arange(1.0, 0.0).size(), 0); }

TEST(ArrayCreate, ArangeStepZeroIsValueError) { EXPECT_THROW(arange(0.0, 1.0, 0.0), ValueError); }

TEST(ArrayCreate, LinspaceIncludesEndpointExactly) {
  EXPECT_EQ(linspace(0.0, 1.0, 5).to_vector<double>(), (V{0, 0.25, 0.5, 0.75, 1.0}));
}

TEST(ArrayCreate, LinspaceWithoutEndpoint) {
  EXPECT_EQ(linspace(0.0, 1.0, 4, false).to_vector<double>(), (V{0, 0.25, 0.5, 0.75}));
}

TEST(ArrayCreate, LinspaceOneAndZeroPoints) {
  EXPECT_EQ(linspace(2.0, 3.0, 1).to_vector<double>(), (V{2.0}));
  EXPECT_EQ(linspace(2.0, 3.0, 0).size(), 0);
}

TEST(ArrayCreate, LinspaceFloat32) {
  Array a = linspace(0.0, 1.0, 3, true, DType::float32);
  EXPECT_EQ(a.dtype(), DType::float32);
  EXPECT_EQ(a.to_vector<float>(), (std::vector<float>{0.0f, 0.5f, 1.0f}));
}

TEST(ArrayCreate, FromVectorWithShape) {
  Array a = grid();
  EXPECT_EQ(a.shape(), (Shape{2, 3}));
  EXPECT_EQ(a.to_vector<double>(), (V{0, 1, 2, 3, 4, 5}));
}

TEST(ArrayCreate, FromVectorThatDoesNotFillTheShapeIsShapeError) {
  EXPECT_THROW(from_vector(V{1, 2, 3}, {2, 2}), ShapeError);
}

TEST(ArrayCreate, FromVectorOfBool) {
  Array a = from_vector(std::vector<bool>{true, false, true});
  EXPECT_EQ(a.dtype(), DType::bool_);
  EXPECT_EQ(a.to_vector<int>(), (std::vector<int>{1, 0, 1}));
}

TEST(ArrayCreate, ArrayFromInitializerListTakesElementDtype) {
  Array a = array({1.0f, 2.0f});
  EXPECT_EQ(a.dtype(), DType::float32);
  EXPECT_EQ(a.shape(), (Shape{2}));
}

TEST(ArrayCreate, WrapSharesMemoryAndCallsDeleterExactlyOnce) {
  double data[4] = {1, 2, 3, 4};
  int calls = 0;
  void* freed = nullptr;
  {
    Array a = wrap(data, {2, 2}, DType::float64, {}, [&](void* p) {
      ++calls;
      freed = p;
    });
    Array v = a.transpose();
    Array w = a.slice(0, 1, 2);
    data[1] = 20;
    EXPECT_EQ(a.at<double>(0, 1), 20);
    EXPECT_EQ(v.at<double>(1, 0), 20);
    EXPECT_EQ(w.shape(), (Shape{1, 2}));
    a = Array();
    EXPECT_EQ(calls, 0) << "views still hold the buffer";
  }
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(freed, data);
}

TEST(ArrayCreate, WrapWithStridesViewsEveryOtherElement) {
  float data[6] = {0, 1, 2, 3, 4, 5};
  Array a = wrap(data, {3}, DType::float32, {8});
  EXPECT_EQ(a.to_vector<float>(), (std::vector<float>{0, 2, 4}));
}

TEST(ArrayCreate, WrapWithNegativeStridesStartsAtElementZero) {
  // ptr is element 0; the caller vouches for the bytes down to data[0] (issue 12).
  double data[3] = {1, 2, 3};
  EXPECT_EQ(wrap(data + 2, {3}, DType::float64, {-8}).to_vector<double>(),
            (std::vector<double>{3, 2, 1}));
}

// ---- views ----

TEST(ArrayView, StridesAreInBytes) {
  EXPECT_EQ(zeros({2, 3}, DType::float32).strides(), (Shape{12, 4}));
  EXPECT_EQ(zeros({2, 3}, DType::int16).strides(), (Shape{6, 2}));
}

TEST(ArrayView, SliceSharesTheBufferWithStepInStrides) {
  Array a = arange(0.0, 10.0);
  Array s = a.slice(0, 1, 8, 3);
  EXPECT_EQ(s.buffer(), a.buffer());
  EXPECT_EQ(s.to_vector<double>(), (V{1, 4, 7}));
  EXPECT_EQ(s.strides(), (Shape{24}));
  EXPECT_EQ(s.offset(), 8);
}

TEST(ArrayView, SliceWithNegativeStepReverses) {
  Array a = arange(0.0, 5.0);
  EXPECT_EQ(a.slice(0, -1, -100, -1).to_vector<double>(), (V{4, 3, 2, 1, 0}));
  EXPECT_EQ(a.slice(0, 3, 0, -2).to_vector<double>(), (V{3, 1}));
  EXPECT_EQ(a.slice(0, -1, -100, -1).strides(), (Shape{-8}));
}

TEST(ArrayView, SliceNegativeBoundsCountFromTheEnd) {
  EXPECT_EQ(arange(0.0, 5.0).slice(0, -3, -1).to_vector<double>(), (V{2, 3}));
}

TEST(ArrayView, SliceOutOfRangeClampsLikePython) {
  Array a = arange(0.0, 5.0);
  EXPECT_EQ(a.slice(0, -100, 100).to_vector<double>(), (V{0, 1, 2, 3, 4}));
  EXPECT_EQ(a.slice(0, 7, 9).size(), 0);
  EXPECT_EQ(a.slice(0, 100, -100, -1).to_vector<double>(), (V{4, 3, 2, 1, 0}));
  EXPECT_EQ(a.slice(0, 3, 1).size(), 0);
}

TEST(ArrayView, SliceStepZeroIsValueError) {
  EXPECT_THROW(arange(0.0, 5.0).slice(0, 0, 5, 0), ValueError);
}

TEST(ArrayView, SliceAxisOutOfBoundsIsValueError) {
  EXPECT_THROW(grid().slice(2, 0, 1), ValueError);
}

TEST(ArrayView, SliceOfSecondAxis) {
  EXPECT_EQ(grid().slice(1, 1, 3).to_vector<double>(), (V{1, 2, 4, 5}));
  EXPECT_EQ(grid().slice(-1, 0, 3, 2).to_vector<double>(), (V{0, 2, 3, 5}));
}

TEST(ArrayView, IndexRemovesTheAxis) {
  Array row = grid().index(0, 1);
  EXPECT_EQ(row.shape(), (Shape{3}));
  EXPECT_EQ(row.to_vector<double>(), (V{3, 4, 5}));
  Array col = grid().index(1, -1);
  EXPECT_EQ(col.to_vector<double>(), (V{2, 5}));
  EXPECT_EQ(col.strides(), (Shape{24}));
}

TEST(ArrayView, IndexOutOfBoundsNamesIndexAndSize) {
  try {
    grid().index(0, 2);
    FAIL() << "no error";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("index 2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("size 2"), std::string::npos) << e.what();
  }
}

TEST(ArrayView, TransposeReversesShapeAndStrides) {
  Array t = grid().transpose();
  EXPECT_EQ(t.shape(), (Shape{3, 2}));
  EXPECT_EQ(t.strides(), (Shape{8, 24}));
  EXPECT_EQ(t.to_vector<double>(), (V{0, 3, 1, 4, 2, 5}));
}

TEST(ArrayView, TransposeWithAxes) {
  Array a = zeros({2, 3, 4});
  const int axes[] = {1, 2, 0};
  EXPECT_EQ(a.transpose(axes).shape(), (Shape{3, 4, 2}));
  const int repeated[] = {0, 0, 1};
  EXPECT_THROW(a.transpose(repeated), ValueError);
}

TEST(ArrayView, ReshapeOfContiguousIsAView) {
  Array a = grid();
  Array r = a.reshape({3, -1});
  EXPECT_EQ(r.shape(), (Shape{3, 2}));
  EXPECT_EQ(r.buffer(), a.buffer());
  EXPECT_EQ(r.to_vector<double>(), (V{0, 1, 2, 3, 4, 5}));
}

TEST(ArrayView, ReshapeOfTransposedIsACopyInCOrderOfTheView) {
  Array t = grid().transpose();
  Array r = t.reshape({6});
  EXPECT_NE(r.buffer(), t.buffer());
  EXPECT_EQ(r.to_vector<double>(), (V{0, 3, 1, 4, 2, 5}));
}

TEST(ArrayView, ReshapeToWrongSizeIsShapeError) {
  EXPECT_THROW(grid().reshape({4}), ShapeError);
  EXPECT_THROW(grid().reshape({-1, -1}), ShapeError);
}

TEST(ArrayView, BroadcastToUsesStrideZero) {
  Array row = from_vector(V{1, 2, 3});
  Array b = row.broadcast_to({2, 3});
  EXPECT_EQ(b.strides(), (Shape{0, 8}));
  EXPECT_EQ(b.buffer(), row.buffer());
  EXPECT_EQ(b.to_vector<double>(), (V{1, 2, 3, 1, 2, 3}));
  Array col = from_vector(V{1, 2}, {2, 1}).broadcast_to({2, 2});
  EXPECT_EQ(col.strides(), (Shape{8, 0}));
}

TEST(ArrayView, BroadcastToIncompatibleShapeIsShapeError) {
  EXPECT_THROW(from_vector(V{1, 2, 3}).broadcast_to({4}), ShapeError);
  EXPECT_THROW(from_vector(V{1, 2, 3}).broadcast_to({}), ShapeError);
}

TEST(ArrayView, IsCContiguous) {
  EXPECT_TRUE(grid().is_c_contiguous());
  EXPECT_FALSE(grid().transpose().is_c_contiguous());
  EXPECT_TRUE(grid().index(0, 1).is_c_contiguous());
  EXPECT_FALSE(grid().index(1, 1).is_c_contiguous());
  EXPECT_FALSE(arange(0.0, 6.0).slice(0, 0, 6, 2).is_c_contiguous());
  EXPECT_TRUE(grid().slice(0, 1, 2).transpose().is_c_contiguous()) << "size-1 axes do not count";
  EXPECT_TRUE(zeros({0, 3}).transpose().is_c_contiguous()) << "empty arrays are contiguous";
}

// ---- element access ----

TEST(ArrayAccess, ItemOfSizeOneCasts) {
  EXPECT_EQ(from_vector(V{2.5}, {1, 1}).item<double>(), 2.5);
  EXPECT_EQ(from_vector(V{2.5}).item<int>(), 2);
}

TEST(ArrayAccess, ItemOfLargerArrayIsValueError) {
  EXPECT_THROW(grid().item<double>(), ValueError);
}

TEST(ArrayAccess, AtReadsAndWritesThroughTheView) {
  Array a = grid();
  a.transpose().at<double>(2, 1) = 50;
  EXPECT_EQ(a.at<double>(1, 2), 50);
}

TEST(ArrayAccess, AtChecksIndexCountBoundsAndDtype) {
  EXPECT_THROW(grid().at<double>(0), ValueError);
  EXPECT_THROW(grid().at<double>(2, 0), ValueError);
  EXPECT_THROW(grid().at<double>(0, -4), ValueError);
  EXPECT_THROW(grid().at<float>(0, 0), TypeError);
}

TEST(ArrayAccess, ToVectorOfStridedViewIsCOrderAndCasts) {
  EXPECT_EQ(grid().transpose().slice(0, 2, -4, -2).to_vector<int>(),
            (std::vector<int>{2, 5, 0, 3}));
}

// ---- weak scalars (NEP 50) ----

TEST(WeakScalar, DoubleAndIntAreWeak) {
  EXPECT_TRUE(Array(2.0).weak());
  EXPECT_EQ(Array(2.0).dtype(), DType::float64);
  EXPECT_TRUE(Array(2).weak());
  EXPECT_EQ(Array(2).ndim(), 0);
}

TEST(WeakScalar, TypedScalarsAreStrong) {
  EXPECT_FALSE(Array(2.0f).weak());
  EXPECT_EQ(Array(2.0f).dtype(), DType::float32);
  EXPECT_FALSE(Array(std::int64_t{2}).weak());
  EXPECT_EQ(Array(std::int64_t{2}).dtype(), DType::int64);
  EXPECT_FALSE(Array(std::uint8_t{2}).weak());
  EXPECT_EQ(Array(std::uint8_t{2}).dtype(), DType::uint8);
}

TEST(WeakScalar, ViewsAndAsStrongDropTheMark) {
  Array w(3.0);
  EXPECT_FALSE(w.as_strong().weak());
  EXPECT_FALSE(w.broadcast_to({2}).weak());
  EXPECT_FALSE(w.reshape({1}).weak());
  EXPECT_EQ(w.as_strong().item<double>(), 3.0);
}

// ---- broadcast_shapes ----

TEST(BroadcastShapes, NumPyRules) {
  const Shape a[] = {{2, 1, 3}, {4, 1}, {}};
  EXPECT_EQ(broadcast_shapes(a), (Shape{2, 4, 3}));
  const Shape b[] = {{0, 1}, {1, 5}};
  EXPECT_EQ(broadcast_shapes(b), (Shape{0, 5}));
  const Shape none[] = {Shape{}};
  EXPECT_EQ(broadcast_shapes(none), Shape{});
}

TEST(BroadcastShapes, MismatchIsShapeErrorListingEveryShape) {
  const Shape s[] = {{2, 3}, {1}, {4}};
  try {
    broadcast_shapes(s);
    FAIL() << "no error";
  } catch (const ShapeError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("(2, 3)"), std::string::npos) << m;
    EXPECT_NE(m.find("(1,)"), std::string::npos) << m;
    EXPECT_NE(m.find("(4,)"), std::string::npos) << m;
  }
}

TEST(BroadcastShapes, ShapeStrPrintsLikeNumPy) {
  EXPECT_EQ(shape_str(Shape{}), "()");
  EXPECT_EQ(shape_str(Shape{3}), "(3,)");
  EXPECT_EQ(shape_str(Shape{2, 3}), "(2, 3)");
}

}  // namespace
}  // namespace loom

// A buffer counts the crossings calls report and keeps a page-lock until it is freed; the lock is
// released before the memory is (a driver must never hold pages the allocator reused).
TEST(ArrayBuffer, KeepsAPinUntilFreedAndReleasesItFirst) {
  std::vector<std::string> order;
  {
    auto buf = std::make_shared<loom::Buffer>(std::malloc(64), 64, loom::Device{}, [&](void* p) {
      order.push_back("memory freed");
      std::free(p);
    });
    EXPECT_EQ(buf->note_crossing(), 1);
    EXPECT_EQ(buf->note_crossing(), 2);
    EXPECT_FALSE(buf->pinned_in_place());
    buf->keep_pin(std::shared_ptr<void>(buf->data(), [&](void*) { order.push_back("unpinned"); }));
    EXPECT_TRUE(buf->pinned_in_place());
    EXPECT_TRUE(order.empty());
  }
  EXPECT_EQ(order, (std::vector<std::string>{"unpinned", "memory freed"}));
}
