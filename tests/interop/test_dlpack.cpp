// DLPack import and export on the host: every dtype both ways, strided and offset tensors, the
// exporter's deleter run exactly once, read-only flags, and the errors (docs/interop.md).
#include <gtest/gtest.h>

#include <complex>
#include <cstring>
#include <memory>
#include <vector>

#include "foreign_tensor.hpp"
#include "loom/dlpack.hpp"

namespace {

using loom::Array;
using loom::DType;
using loom_interop_test::make_foreign;

constexpr DLDevice kCpu{kDLCPU, 0};

std::vector<DType> all_dtypes() {
  std::vector<DType> out;
  for (int k = 0; k < loom::kNumDTypes; ++k) out.push_back(static_cast<DType>(k));
  return out;
}

// 0..11 as a 3x4 array of dtype t (bool: 0 false, others true).
Array sample(DType t) { return loom::arange(0.0, 12.0).astype(t).reshape({3, 4}); }

TEST(DLPack, DtypeCodesAreDLPacks) {
  auto eq = [](DLDataType a, DLDataType b) {
    return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
  };
  EXPECT_TRUE(eq(loom::to_dlpack_dtype(DType::bool_), {kDLBool, 8, 1}));
  EXPECT_TRUE(eq(loom::to_dlpack_dtype(DType::int16), {kDLInt, 16, 1}));
  EXPECT_TRUE(eq(loom::to_dlpack_dtype(DType::uint64), {kDLUInt, 64, 1}));
  EXPECT_TRUE(eq(loom::to_dlpack_dtype(DType::float16), {kDLFloat, 16, 1}));
  EXPECT_TRUE(eq(loom::to_dlpack_dtype(DType::complex64), {kDLComplex, 64, 1}));
  EXPECT_TRUE(eq(loom::to_dlpack_dtype(DType::complex128), {kDLComplex, 128, 1}));
  for (DType t : all_dtypes()) EXPECT_EQ(loom::from_dlpack_dtype(loom::to_dlpack_dtype(t)), t);
}

TEST(DLPack, VersionedRoundTripSharesMemoryForEveryDtype) {
  for (DType t : all_dtypes()) {
    SCOPED_TRACE(std::string(loom::name(t)));
    const Array a = sample(t);
    DLManagedTensorVersioned* m = loom::to_dlpack_versioned(a);
    EXPECT_EQ(m->version.major, 1u);
    EXPECT_EQ(m->flags, 0u);
    const DLTensor& d = m->dl_tensor;
    EXPECT_EQ(d.device.device_type, kDLCPU);
    EXPECT_EQ(d.data, a.data());
    EXPECT_EQ(d.byte_offset, 0u);
    ASSERT_EQ(d.ndim, 2);
    EXPECT_EQ(d.shape[0], 3);
    EXPECT_EQ(d.shape[1], 4);
    EXPECT_EQ(d.strides[0], 4);  // elements, not bytes
    EXPECT_EQ(d.strides[1], 1);
    const Array b = loom::from_dlpack(m);
    EXPECT_EQ(b.data(), a.data());
    EXPECT_EQ(b.dtype(), t);
    EXPECT_EQ(b.shape(), a.shape());
    EXPECT_EQ(b.strides(), a.strides());
    EXPECT_TRUE(b.writeable());
    EXPECT_EQ(b.to_vector<std::complex<double>>(), a.to_vector<std::complex<double>>());
  }
}

TEST(DLPack, LegacyRoundTripSharesMemoryForEveryDtype) {
  for (DType t : all_dtypes()) {
    SCOPED_TRACE(std::string(loom::name(t)));
    const Array a = sample(t);
    const Array b = loom::from_dlpack(loom::to_dlpack(a));
    EXPECT_EQ(b.data(), a.data());
    EXPECT_EQ(b.dtype(), t);
    EXPECT_EQ(b.to_vector<std::complex<double>>(), a.to_vector<std::complex<double>>());
  }
}

TEST(DLPack, ImportsAForeignHostTensorOfEveryDtype) {
  for (DType t : all_dtypes()) {
    SCOPED_TRACE(std::string(loom::name(t)));
    const Array src = sample(t);  // the values, laid out by loom
    std::vector<char> mem(src.size() * src.itemsize());
    std::memcpy(mem.data(), src.data(), mem.size());
    int deleted = 0;
    {
      const Array b = loom::from_dlpack(make_foreign<DLManagedTensorVersioned>(
          mem.data(), kCpu, loom::to_dlpack_dtype(t), {3, 4}, {}, &deleted));
      EXPECT_EQ(b.data(), mem.data());
      EXPECT_EQ(b.to_vector<std::complex<double>>(), src.to_vector<std::complex<double>>());
      EXPECT_EQ(deleted, 0);
    }
    EXPECT_EQ(deleted, 1);
  }
}

TEST(DLPack, StridedTensorWithByteOffsetIsViewedInPlace) {
  std::vector<double> mem(24);
  for (int i = 0; i < 24; ++i) mem[i] = i;  // a 4x6 C-ordered buffer
  int deleted = 0;
  // Rows 0 and 2, every other column from column 1: byte_offset points at element (0, 1).
  const Array b = loom::from_dlpack(make_foreign<DLManagedTensor>(
      mem.data(), kCpu, {kDLFloat, 64, 1}, {2, 3}, {12, 2}, &deleted, 0, sizeof(double)));
  EXPECT_EQ(b.strides(), (loom::Shape{96, 16}));
  EXPECT_EQ(b.to_vector<double>(), (std::vector<double>{1, 3, 5, 13, 15, 17}));
  b.at<double>(1, 2) = -1;  // writes the foreign memory
  EXPECT_EQ(mem[17], -1);
}

TEST(DLPack, TransposedAndReversedViewsExportTheirStridesInElements) {
  const Array a = loom::arange(0.0, 12.0).reshape({3, 4});
  for (const Array& v : {a.transpose(), a.slice(0, -1, -4, -1), a.slice(1, 3, -5, -2)}) {
    DLManagedTensorVersioned* m = loom::to_dlpack_versioned(v);
    for (int k = 0; k < v.ndim(); ++k) {
      EXPECT_EQ(m->dl_tensor.strides[k] * 8, v.strides()[k]);
    }
    EXPECT_EQ(m->dl_tensor.data, v.data());
    const Array b = loom::from_dlpack(m);
    EXPECT_EQ(b.to_vector<double>(), v.to_vector<double>());
  }
}

TEST(DLPack, ZeroDimAndZeroSizeTensors) {
  const Array s = loom::full({}, 2.5);
  EXPECT_EQ(loom::from_dlpack(loom::to_dlpack_versioned(s)).item<double>(), 2.5);
  int deleted = 0;
  const Array e = loom::from_dlpack(make_foreign<DLManagedTensorVersioned>(
      nullptr, kCpu, {kDLFloat, 32, 1}, {0, 5}, {}, &deleted));
  EXPECT_EQ(e.size(), 0);
  EXPECT_EQ(e.shape(), (loom::Shape{0, 5}));
}

TEST(DLPack, PinnedHostTensorBecomesAHostArray) {
  float mem[3] = {1, 2, 3};
  int deleted = 0;
  const Array b = loom::from_dlpack(make_foreign<DLManagedTensorVersioned>(
      mem, {kDLCUDAHost, 0}, {kDLFloat, 32, 1}, {3}, {}, &deleted));
  EXPECT_TRUE(b.device().is_host());
  EXPECT_EQ(b.to_vector<float>(), (std::vector<float>{1, 2, 3}));
}

TEST(DLPack, ForeignDeleterRunsOnceWhenTheLastViewGoes) {
  std::vector<float> mem(8, 1.0f);
  int deleted = 0;
  Array a = loom::from_dlpack(make_foreign<DLManagedTensorVersioned>(
      mem.data(), kCpu, {kDLFloat, 32, 1}, {2, 4}, {}, &deleted));
  Array view = a.slice(1, 1, 3).transpose();
  a = Array();
  EXPECT_EQ(deleted, 0);  // the view still uses the memory
  Array copy_of_view = view;
  view = Array();
  EXPECT_EQ(deleted, 0);
  copy_of_view = Array();
  EXPECT_EQ(deleted, 1);
}

TEST(DLPack, ExportedTensorKeepsTheBufferAliveUntilItsDeleter) {
  Array a = loom::arange(0.0, 4.0);
  const std::weak_ptr<loom::Buffer> buffer = a.buffer();
  DLManagedTensorVersioned* m = loom::to_dlpack_versioned(a);
  a = Array();
  ASSERT_FALSE(buffer.expired());
  EXPECT_EQ(static_cast<double*>(m->dl_tensor.data)[3], 3.0);
  m->deleter(m);
  EXPECT_TRUE(buffer.expired());
}

TEST(DLPack, RoundTripOfAnExportRunsLoomsDeleterOnce) {
  Array a = loom::arange(0.0, 4.0);
  const std::weak_ptr<loom::Buffer> buffer = a.buffer();
  Array b = loom::from_dlpack(loom::to_dlpack(a));
  a = Array();
  EXPECT_FALSE(buffer.expired());
  b = Array();  // loom's exported deleter ran: nothing else holds the buffer
  EXPECT_TRUE(buffer.expired());
}

TEST(DLPack, ReadOnlyFlagIsHonouredOnImport) {
  std::vector<double> mem(4, 0.0);
  int deleted = 0;
  const Array b = loom::from_dlpack(make_foreign<DLManagedTensorVersioned>(
      mem.data(), kCpu, {kDLFloat, 64, 1}, {4}, {}, &deleted, DLPACK_FLAG_BITMASK_READ_ONLY));
  EXPECT_FALSE(b.writeable());
}

TEST(DLPack, ReadOnlyArrayIsExportedWithTheFlagAndRefusedByTheLegacyStruct) {
  const Array ro = loom::arange(0.0, 3.0).broadcast_to({2, 3});
  DLManagedTensorVersioned* m = loom::to_dlpack_versioned(ro);
  EXPECT_EQ(m->flags & DLPACK_FLAG_BITMASK_READ_ONLY, DLPACK_FLAG_BITMASK_READ_ONLY);
  EXPECT_EQ(m->dl_tensor.strides[0], 0);
  EXPECT_FALSE(loom::from_dlpack(m).writeable());
  EXPECT_THROW(loom::to_dlpack(ro), loom::ValueError);
  EXPECT_THROW(loom::to_dlpack(loom::arange(0.0, 3.0).as_readonly()), loom::ValueError);
}

// Every refusal leaves the tensor to the caller: its deleter has not run and can still be called.
template <class M>
void expect_refused(M* t, int& deleted, const char* needle) {
  try {
    (void)loom::from_dlpack(t);
    ADD_FAILURE() << "accepted";
  } catch (const loom::Error& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
  EXPECT_EQ(deleted, 0);
  t->deleter(t);
  EXPECT_EQ(deleted, 1);
}

TEST(DLPack, UnsupportedTensorsAreRefusedAndLeftToTheCaller) {
  float mem[8] = {};
  int deleted = 0;
  expect_refused(
      make_foreign<DLManagedTensorVersioned>(mem, kCpu, {kDLBfloat, 16, 1}, {8}, {}, &deleted),
      deleted, "{kDLBfloat, bits 16, lanes 1}");
  deleted = 0;
  expect_refused(make_foreign<DLManagedTensor>(mem, kCpu, {kDLFloat, 32, 4}, {2}, {}, &deleted),
                 deleted, "lanes 4");
  deleted = 0;
  expect_refused(make_foreign<DLManagedTensorVersioned>(mem, {kDLOpenCL, 1}, {kDLFloat, 32, 1}, {8},
                                                        {}, &deleted),
                 deleted, "kDLOpenCL (id 1)");
  deleted = 0;
  auto* v2 =
      make_foreign<DLManagedTensorVersioned>(mem, kCpu, {kDLFloat, 32, 1}, {8}, {}, &deleted);
  v2->version = {2, 0};
  expect_refused(v2, deleted, "DLPack 2.0");
  deleted = 0;
  auto* bad =
      make_foreign<DLManagedTensorVersioned>(mem, kCpu, {kDLFloat, 32, 1}, {8}, {}, &deleted);
  bad->dl_tensor.ndim = -1;
  expect_refused(bad, deleted, "ndim -1");
  deleted = 0;
  expect_refused(make_foreign<DLManagedTensorVersioned>(mem, kCpu, {kDLFloat, 32, 1}, {2, 2},
                                                        {std::int64_t{1} << 62, 1}, &deleted),
                 deleted, "overflows int64");
  deleted = 0;
  expect_refused(make_foreign<DLManagedTensorVersioned>(mem, {kDLCUDA, -1}, {kDLFloat, 32, 1}, {8},
                                                        {}, &deleted),
                 deleted, "index -1");
  EXPECT_THROW(loom::from_dlpack(static_cast<DLManagedTensor*>(nullptr)), loom::ValueError);
}

TEST(DLPack, ByteStridesThatAreNotWholeElementsCannotBeExported) {
  alignas(8) static char mem[64];
  const Array odd = loom::wrap(mem, {3}, DType::float32, {6});
  EXPECT_THROW(loom::to_dlpack_versioned(odd), loom::ValueError);
  EXPECT_THROW(loom::to_dlpack_versioned(Array()), loom::ValueError);
}

}  // namespace
