// ArrayInterface: an array's pointer, shape, strides, typestr, read-only flag and device, and
// memory described that way wrapped as an array (the C++ side of __cuda_array_interface__).
#include <gtest/gtest.h>

#include <vector>

#include "loom/array_interface.hpp"

namespace {

using loom::Array;
using loom::Device;
using loom::DeviceKind;
using loom::DType;
using loom::Shape;

TEST(ArrayInterface, TypestrsAreNumPys) {
  const std::vector<std::pair<DType, const char*>> table = {
      {DType::bool_, "|b1"},     {DType::int8, "|i1"},       {DType::uint8, "|u1"},
      {DType::int16, "<i2"},     {DType::uint16, "<u2"},     {DType::int32, "<i4"},
      {DType::uint32, "<u4"},    {DType::int64, "<i8"},      {DType::uint64, "<u8"},
      {DType::float16, "<f2"},   {DType::float32, "<f4"},    {DType::float64, "<f8"},
      {DType::complex64, "<c8"}, {DType::complex128, "<c16"}};
  for (const auto& [t, s] : table) {
    EXPECT_EQ(loom::typestr(t), s);
    EXPECT_EQ(loom::dtype_from_typestr(s), t);
  }
  EXPECT_EQ(loom::dtype_from_typestr("=f8"), DType::float64);  // native order, little-endian here
}

TEST(ArrayInterface, BigEndianAndUnknownTypestrsAreRefused) {
  EXPECT_THROW(loom::dtype_from_typestr(">f8"), loom::ParseError);
  EXPECT_THROW(loom::dtype_from_typestr("<f16"), loom::ParseError);
  EXPECT_THROW(loom::dtype_from_typestr(""), loom::ParseError);
}

TEST(ArrayInterface, DescribesATransposedView) {
  const Array a = loom::zeros({3, 4}, DType::float32).transpose();
  const loom::ArrayInterface i = loom::interface_of(a);
  EXPECT_EQ(i.data, a.data());
  EXPECT_EQ(i.shape, (Shape{4, 3}));
  EXPECT_EQ(i.strides, (Shape{4, 16}));
  EXPECT_EQ(i.element_strides(), (Shape{1, 4}));
  EXPECT_EQ(i.typestr, "<f4");
  EXPECT_FALSE(i.readonly);
  EXPECT_TRUE(i.device.is_host());
  EXPECT_TRUE(loom::interface_of(a.as_readonly()).readonly);
}

TEST(ArrayInterface, ElementStridesNeedWholeElements) {
  alignas(8) static char mem[64];
  const loom::ArrayInterface i = loom::interface_of(loom::wrap(mem, {3}, DType::float64, {12}));
  EXPECT_THROW(i.element_strides(), loom::ValueError);
  const loom::ArrayInterface c{.data = mem, .shape = {2, 3}, .typestr = "<f8"};
  EXPECT_EQ(c.element_strides(), (Shape{3, 1}));  // no strides: C-contiguous
}

TEST(ArrayInterface, RoundTripSharesMemoryAndRunsTheDeleterOnce) {
  std::vector<double> mem = {0, 1, 2, 3, 4, 5};
  int deleted = 0;
  {
    const loom::ArrayInterface i{
        .data = mem.data() + 5, .shape = {3}, .strides = {-16}, .typestr = "<f8"};
    const Array a = loom::from_interface(i, [&](void* p) {
      EXPECT_EQ(p, mem.data() + 5);  // the caller's pointer, as given
      ++deleted;
    });
    EXPECT_EQ(a.to_vector<double>(), (std::vector<double>{5, 3, 1}));
    const loom::ArrayInterface back = loom::interface_of(a);
    EXPECT_EQ(back.data, i.data);
    EXPECT_EQ(back.strides, i.strides);
    a.at<double>(0) = 50;
    EXPECT_EQ(mem[5], 50);
  }
  EXPECT_EQ(deleted, 1);
}

TEST(ArrayInterface, ReadOnlyAndDeviceAreKept) {
  static float storage[4];
  const Array d = loom::from_interface({.data = storage,
                                        .shape = {4},
                                        .typestr = "<f4",
                                        .readonly = true,
                                        .device = Device{DeviceKind::cuda, 1}});
  EXPECT_EQ(d.device(), (Device{DeviceKind::cuda, 1}));
  EXPECT_FALSE(d.writeable());
  EXPECT_EQ(loom::interface_of(d).device, d.device());
}

TEST(ArrayInterface, BadDescriptionsAreRefusedWithoutCallingTheDeleter) {
  static float storage[4];
  int deleted = 0;
  auto count = [&](void*) { ++deleted; };
  EXPECT_THROW(loom::from_interface({.data = storage, .shape = {4}, .typestr = ">f4"}, count),
               loom::ParseError);
  EXPECT_THROW(
      loom::from_interface(
          {.data = storage, .shape = {4}, .typestr = "<f4", .device = Device{DeviceKind::cuda, -1}},
          count),
      loom::ValueError);
  EXPECT_THROW(
      loom::from_interface(
          {.data = storage, .shape = {4}, .typestr = "<f4", .device = Device{DeviceKind::host, 2}},
          count),
      loom::ValueError);
  EXPECT_THROW(loom::from_interface({.data = nullptr, .shape = {4}, .typestr = "<f4"}, count),
               loom::ValueError);
  EXPECT_THROW(loom::interface_of(Array()), loom::ValueError);
  EXPECT_EQ(deleted, 0);
}

}  // namespace
