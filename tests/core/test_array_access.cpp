// loom::Array as a person uses it: Fortran contiguity, typed access (data<T>, at<T>, view<T, N>)
// with their checks, fill, astype and copy for every dtype.
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "loom/array.hpp"
#include "loom/error.hpp"

namespace loom {
namespace {

constexpr DType kAll[] = {DType::bool_,     DType::int8,      DType::uint8,   DType::int16,
                          DType::uint16,    DType::int32,     DType::uint32,  DType::int64,
                          DType::uint64,    DType::float16,   DType::float32, DType::float64,
                          DType::complex64, DType::complex128};

// A (2, 3) float64 array 0..5.
Array grid() { return from_vector(std::vector<double>{0, 1, 2, 3, 4, 5}, {2, 3}); }

template <class E>
std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "(no exception)";
}

// ---- contiguity ----

TEST(ArrayContiguity, TransposeOfCIsFortran) {
  const Array a = grid();
  EXPECT_TRUE(a.is_c_contiguous());
  EXPECT_FALSE(a.is_f_contiguous());
  EXPECT_TRUE(a.transpose().is_f_contiguous());
  EXPECT_FALSE(a.transpose().is_c_contiguous());
}

TEST(ArrayContiguity, OneDimensionalAndLengthOneAxesAreBoth) {
  EXPECT_TRUE(arange(5).is_f_contiguous());
  EXPECT_TRUE(zeros({1, 4}).is_f_contiguous());
  EXPECT_TRUE(zeros({3, 0}).transpose().is_f_contiguous());
  EXPECT_TRUE(Array(1.0).is_f_contiguous());
}

TEST(ArrayContiguity, StridedSliceIsNeither) {
  const Array s = arange(10).slice(0, 0, 10, 2);
  EXPECT_FALSE(s.is_c_contiguous());
  EXPECT_FALSE(s.is_f_contiguous());
}

// ---- data<T> ----

TEST(ArrayData, TypedPointerReadsAndWrites) {
  const Array a = grid().astype(DType::float32);
  float* p = a.data<float>();
  EXPECT_EQ(p[4], 4.0f);
  p[4] = 40.0f;
  EXPECT_EQ(a.at<float>(1, 1), 40.0f);
}

TEST(ArrayData, WrongTypeIsTypeErrorNamingBoth) {
  const std::string m = message_of<TypeError>([] { (void)grid().data<float>(); });
  EXPECT_NE(m.find("data<float32>() on float64 array of shape (2, 3)"), std::string::npos) << m;
}

TEST(ArrayData, ReadOnlyNeedsConst) {
  const Array b = arange(3).broadcast_to({2, 3});
  EXPECT_THROW((void)b.data<std::int64_t>(), ValueError);
  EXPECT_EQ(b.data<const std::int64_t>()[2], 2);
}

TEST(ArrayData, DeviceArrayIsDeviceError) {
  static double storage[2];
  const Array d = wrap(storage, {2}, DType::float64, {}, {}, Device{DeviceKind::cuda, 0});
  EXPECT_THROW((void)d.data<double>(), DeviceError);
}

// ---- at<T> ----

TEST(ArrayAt, NegativeIndicesCountFromTheEndAsNumpy) {
  const Array a = grid();
  EXPECT_EQ(a.at<double>(-1, -1), 5);
  EXPECT_EQ(a.at<double>(0, -3), 0);
}

TEST(ArrayAt, OutOfBoundsNamesIndexAxisAndSize) {
  const std::string m = message_of<ValueError>([] { (void)grid().at<double>(0, 3); });
  EXPECT_EQ(m.rfind("index 3 is out of bounds for axis 1 with size 3 in at() of float64 array", 0),
            0u)
      << m;
  EXPECT_THROW((void)grid().at<double>(0, -4), ValueError);
  EXPECT_THROW((void)grid().at<double>(2, 0), ValueError);
}

TEST(ArrayAt, ReadOnlyArrayIsReadThroughConst) {
  const Array b = Array(7.0).as_strong().broadcast_to({3});
  EXPECT_EQ(b.at<const double>(2), 7.0);
  const std::string m = message_of<ValueError>([&] { (void)b.at<double>(0); });
  EXPECT_NE(m.find("read-only"), std::string::npos) << m;
  EXPECT_EQ(b.at<const double>(0), 7.0);  // unchanged
}

// ---- view<T, N> ----

TEST(ArrayView, KernelViewSharesMemoryAndStrides) {
  const Array a = grid();
  const View<double, 2> v = a.transpose().view<double, 2>();
  EXPECT_EQ(v.shape[0], 3);
  EXPECT_EQ(v.shape[1], 2);
  EXPECT_EQ(v(2, 1), 5);
  v(0, 1) = 30;
  EXPECT_EQ(a.at<double>(1, 0), 30);
}

TEST(ArrayView, RankMustMatch) {
  const std::string m = message_of<ValueError>([] { (void)grid().view<double, 1>(); });
  EXPECT_NE(m.find("view<float64, 1>() on float64 array of shape (2, 3)"), std::string::npos) << m;
  EXPECT_NE(m.find("has 2 dimension(s)"), std::string::npos) << m;
}

TEST(ArrayView, DtypeMustMatchAndReadOnlyNeedsConst) {
  EXPECT_THROW((void)(grid().view<float, 2>()), TypeError);
  const Array b = grid().broadcast_to({4, 2, 3});
  EXPECT_THROW((void)(b.view<double, 3>()), ValueError);
  EXPECT_EQ((b.view<const double, 3>()(3, 1, 2)), 5);
}

TEST(ArrayView, DeviceArrayGivesItsDevicePointer) {
  static double storage[4];
  const Array d = wrap(storage, {4}, DType::float64, {}, {}, Device{DeviceKind::cuda, 0});
  EXPECT_EQ((d.view<double, 1>().data), storage);
}

// ---- fill ----

TEST(ArrayFill, EveryElementOfEveryDtype) {
  for (DType t : kAll) {
    const Array a = zeros({2, 3}, t);
    a.fill(3);
    EXPECT_EQ(a.to_vector<double>(), std::vector<double>(6, t == DType::bool_ ? 1.0 : 3.0))
        << name(t);
  }
}

TEST(ArrayFill, StridedViewFillsOnlyItsElements) {
  const Array a = zeros({6});
  a.slice(0, 0, 6, 2).fill(1.5);
  EXPECT_EQ(a.to_vector<double>(), (std::vector<double>{1.5, 0, 1.5, 0, 1.5, 0}));
}

TEST(ArrayFill, ComplexValue) {
  const Array a = zeros({2}, DType::complex64);
  a.fill(std::complex<double>(1, -2));
  EXPECT_EQ(a.at<std::complex<float>>(1), std::complex<float>(1, -2));
}

TEST(ArrayFill, FloatIntoIntegerTruncatesAsAstype) {
  const Array a = zeros({2}, DType::int32);
  a.fill(2.7);
  EXPECT_EQ(a.at<std::int32_t>(0), 2);
}

TEST(ArrayFill, IntegerOutOfRangeIsRefusedAndLeavesTheArray) {
  const Array a = zeros({2}, DType::uint8);
  const std::string m = message_of<ValueError>([&] { a.fill(300); });
  EXPECT_NE(m.find("300 is out of bounds for uint8 [0, 255]"), std::string::npos) << m;
  EXPECT_THROW(a.fill(-1), ValueError);
  EXPECT_EQ(a.to_vector<int>(), (std::vector<int>{0, 0}));
  a.fill(255);
  EXPECT_EQ(a.at<std::uint8_t>(1), 255);
}

TEST(ArrayFill, ReadOnlyIsRefused) {
  const Array b = zeros({3}).broadcast_to({2, 3});
  EXPECT_THROW(b.fill(1.0), ValueError);
}

// ---- astype and copy ----

TEST(ArrayAstype, EveryPairOfDtypesRoundTripsSmallIntegers) {
  const Array src = arange(6).reshape({2, 3});
  for (DType from : kAll) {
    const Array a = src.astype(from);
    for (DType to : kAll) {
      const Array b = a.astype(to);
      ASSERT_EQ(b.dtype(), to);
      const double top = from == DType::bool_ || to == DType::bool_ ? 1 : 5;
      std::vector<double> want{0, 1, 2, 3, 4, 5};
      for (auto& w : want) w = std::min(w, top);
      EXPECT_EQ(b.to_vector<double>(), want) << name(from) << " -> " << name(to);
    }
  }
}

TEST(ArrayCopy, EveryDtypeIsAnIndependentCContiguousCopy) {
  for (DType t : kAll) {
    const Array a = arange(6).reshape({2, 3}).astype(t).transpose();
    const Array c = a.copy();
    EXPECT_EQ(c.dtype(), t);
    EXPECT_TRUE(c.is_c_contiguous());
    EXPECT_EQ(c.to_vector<double>(), a.to_vector<double>()) << name(t);
    c.fill(0);
    EXPECT_NE(a.to_vector<double>(), c.to_vector<double>()) << name(t);
  }
}

}  // namespace
}  // namespace loom
