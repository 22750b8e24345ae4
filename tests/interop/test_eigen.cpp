// Eigen views: Eigen matrices, maps, blocks and tensors as loom arrays and loom arrays as Eigen
// maps, sharing memory both ways (a write through one is read through the other).
#include <gtest/gtest.h>

#include <complex>
#include <memory>

#include "loom/eigen.hpp"
#include "loom/error.hpp"
#include "loom/runtime.hpp"

namespace {

using loom::Array;
using loom::DType;
using loom::Shape;
using RowMajorXf = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

TEST(EigenAsArray, ColumnMajorMatrixAliases) {
  Eigen::MatrixXd m(2, 3);
  m << 1, 2, 3, 4, 5, 6;
  const Array a = loom::as_array(m);
  EXPECT_EQ(a.dtype(), DType::float64);
  EXPECT_EQ(a.shape(), (Shape{2, 3}));
  EXPECT_EQ(a.strides(), (Shape{8, 16}));
  EXPECT_EQ(a.to_vector<double>(), (std::vector<double>{1, 2, 3, 4, 5, 6}));
  a.at<double>(1, 2) = -6;
  EXPECT_EQ(m(1, 2), -6);
  m(0, 1) = 20;
  EXPECT_EQ(a.at<double>(0, 1), 20);
}

TEST(EigenAsArray, RowMajorMatrixIsCContiguous) {
  RowMajorXf m(2, 3);
  const Array a = loom::as_array(m);
  EXPECT_EQ(a.strides(), (Shape{12, 4}));
  EXPECT_TRUE(a.is_c_contiguous());
}

TEST(EigenAsArray, ConstObjectsAndMapsOfConstGiveReadOnlyArrays) {
  const Eigen::Matrix3f c = Eigen::Matrix3f::Identity();
  EXPECT_FALSE(loom::as_array(c).writeable());
  const double mem[4] = {1, 2, 3, 4};
  const Array a = loom::as_array(Eigen::Map<const Eigen::Matrix2d>(mem));
  EXPECT_FALSE(a.writeable());
  EXPECT_EQ(a.data(), reinterpret_cast<const char*>(mem));
  Eigen::Matrix2d w;
  EXPECT_TRUE(loom::as_array(Eigen::Map<Eigen::Matrix2d>(w.data())).writeable());
}

TEST(EigenAsArray, BlocksAndStridedMapsKeepTheirStrides) {
  Eigen::MatrixXd m = Eigen::MatrixXd::Zero(4, 5);
  const Array b = loom::as_array(m.block(1, 2, 2, 3));
  EXPECT_EQ(b.strides(), (Shape{8, 32}));
  b.at<double>(1, 2) = 7;
  EXPECT_EQ(m(2, 4), 7);
  // Every other row of a column-major 4x5: inner stride 2, outer stride 4 (elements).
  Eigen::Map<Eigen::MatrixXd, 0, Eigen::Stride<4, 2>> s(m.data(), 2, 5);
  EXPECT_EQ(loom::as_array(s).strides(), (Shape{16, 32}));
  EXPECT_EQ(loom::as_array(s).at<double>(1, 4), 7);
}

// Issue 28: a map with outer stride 1 views 4 doubles as (2, 3), element (0, 1) being element
// (1, 0). It stays a view, but loom refuses to write into it (docs/decisions.md): a call's
// result would depend on the order of its writes.
TEST(EigenAsArray, SelfOverlappingMapIsRefusedAsADestination) {
  Eigen::VectorXd mem(4);
  mem << 0, 1, 2, 3;
  Eigen::Map<Eigen::MatrixXd, 0, Eigen::OuterStride<>> m(mem.data(), 2, 3, Eigen::OuterStride<>(1));
  const Array a = loom::as_array(m);
  EXPECT_EQ(a.strides(), (Shape{8, 8}));
  EXPECT_EQ(a.to_vector<double>(), (std::vector<double>{0, 1, 2, 1, 2, 3}));
  const loom::Runtime rt(loom::RuntimeOptions{.use_default_path = false});
  EXPECT_THROW(rt.copy_to(loom::zeros({2, 3}), a), loom::ValueError);
  EXPECT_EQ(mem, Eigen::Vector4d(0, 1, 2, 3));
}

TEST(EigenAsArray, VectorsAreOneDimensional) {
  Eigen::VectorXf v = Eigen::VectorXf::LinSpaced(4, 0, 3);
  const Array a = loom::as_array(v);
  EXPECT_EQ(a.shape(), (Shape{4}));
  EXPECT_EQ(a.dtype(), DType::float32);
  Eigen::MatrixXcd m = Eigen::MatrixXcd::Zero(3, 3);
  const Array row = loom::as_array(m.row(1));  // a row of a column-major matrix: stride 3
  EXPECT_EQ(row.strides(), (Shape{48}));
  row.at<std::complex<double>>(2) = {1, 2};
  EXPECT_EQ(m(1, 2), std::complex<double>(1, 2));
}

TEST(EigenAsArray, TensorsInBothLayouts) {
  Eigen::Tensor<float, 3> t(2, 3, 4);  // ColMajor
  t.setZero();
  const Array a = loom::as_array(t);
  EXPECT_EQ(a.shape(), (Shape{2, 3, 4}));
  EXPECT_EQ(a.strides(), (Shape{4, 8, 24}));
  a.at<float>(1, 2, 3) = 5;
  EXPECT_EQ(t(1, 2, 3), 5);
  Eigen::Tensor<std::int32_t, 2, Eigen::RowMajor> r(3, 2);
  r.setValues({{1, 2}, {3, 4}, {5, 6}});
  const Array ra = loom::as_array(r);
  EXPECT_TRUE(ra.is_c_contiguous());
  EXPECT_EQ(ra.to_vector<std::int32_t>(), (std::vector<std::int32_t>{1, 2, 3, 4, 5, 6}));
  const float mem[6] = {};
  Eigen::TensorMap<Eigen::Tensor<const float, 2>> cm(mem, 2, 3);
  EXPECT_FALSE(loom::as_array(cm).writeable());
  EXPECT_EQ(loom::as_array(cm).strides(), (Shape{4, 8}));
}

TEST(EigenAsArray, SharedPtrKeepsTheMatrixAlive) {
  auto m = std::make_shared<Eigen::MatrixXd>(Eigen::MatrixXd::Constant(2, 2, 3.0));
  const std::weak_ptr<Eigen::MatrixXd> w = m;
  Array a = loom::as_array(m);  // a copy of the shared_ptr: the array and m both hold it
  m.reset();
  EXPECT_FALSE(w.expired());
  EXPECT_EQ(a.at<double>(1, 1), 3.0);
  a = Array();
  EXPECT_TRUE(w.expired());
}

TEST(EigenAsArray, HalfIsFloat16) {
  Eigen::Matrix<Eigen::half, 2, 2> h;
  h.setConstant(Eigen::half(1.5f));
  const Array a = loom::as_array(h);
  EXPECT_EQ(a.dtype(), DType::float16);
  EXPECT_EQ(a.to_vector<double>(), (std::vector<double>{1.5, 1.5, 1.5, 1.5}));
}

// 0..11 as a C-ordered 3x4 float64 array.
Array grid() { return loom::arange(0.0, 12.0).reshape({3, 4}); }

TEST(AsEigen, CContiguousArrayAsAColumnMajorMatrixType) {
  const Array a = grid();
  auto m = loom::as_eigen<Eigen::MatrixXd>(a);
  ASSERT_EQ(m.rows(), 3);
  ASSERT_EQ(m.cols(), 4);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 4; ++j) EXPECT_EQ(m(i, j), a.at<double>(i, j));
  }
  m(2, 1) = -1;  // writes the array
  EXPECT_EQ(a.at<double>(2, 1), -1);
  EXPECT_EQ(m.data(), reinterpret_cast<double*>(a.data()));
}

TEST(AsEigen, TransposedStridedAndReversedViews) {
  const Array a = grid();
  for (const Array& v : {a.transpose(), a.slice(1, 0, 4, 2), a.slice(0, -1, -4, -1),
                         a.slice(1, 3, -5, -2).transpose()}) {
    const Array vf = v.astype(DType::float32);      // a copy, for the row-major float32 type too
    const auto m = loom::as_eigen<RowMajorXf>(vf);  // valid while vf (its buffer) lives
    const auto d = loom::as_eigen<const Eigen::MatrixXd>(v);
    for (int i = 0; i < v.shape()[0]; ++i) {
      for (int j = 0; j < v.shape()[1]; ++j) {
        EXPECT_EQ(d(i, j), v.at<double>(i, j));
        EXPECT_EQ(m(i, j), static_cast<float>(v.at<double>(i, j)));
      }
    }
  }
  // Writes through a transposed map land in the array.
  auto t = loom::as_eigen<Eigen::MatrixXd>(a.transpose());
  t(3, 0) = 100;
  EXPECT_EQ(a.at<double>(0, 3), 100);
  // Eigen arithmetic reads the strides: (A^T)^T == A.
  EXPECT_TRUE(t.transpose().isApprox(loom::as_eigen<Eigen::MatrixXd>(a)));
}

TEST(AsEigen, OneDimensionalArraysAsVectors) {
  const Array a = grid();
  auto col = loom::as_eigen<Eigen::VectorXd>(a.index(1, 2));  // column 2: stride 4 elements
  EXPECT_EQ(col.size(), 3);
  EXPECT_EQ(col(2), 10);
  col(0) = 42;
  EXPECT_EQ(a.at<double>(0, 2), 42);
  auto row = loom::as_eigen<Eigen::RowVectorXd>(a.index(0, 1));
  EXPECT_EQ(row.cols(), 4);
  EXPECT_EQ(row(3), 7);
  EXPECT_EQ(loom::as_eigen<Eigen::Vector4d>(a.index(0, 1)).sum(), 4 + 5 + 6 + 7);
}

TEST(AsEigen, ReadOnlyArraysNeedAConstType) {
  const Array b = loom::arange(0.0, 3.0).broadcast_to({2, 3});
  const auto m = loom::as_eigen<const Eigen::MatrixXd>(b);
  EXPECT_EQ(m(1, 2), 2);
  EXPECT_THROW(loom::as_eigen<Eigen::MatrixXd>(b), loom::ValueError);
}

TEST(AsEigen, MismatchesAreClearErrors) {
  const Array a = grid();
  EXPECT_THROW(loom::as_eigen<Eigen::MatrixXf>(a), loom::TypeError);
  EXPECT_THROW(loom::as_eigen<Eigen::VectorXd>(a), loom::ShapeError);
  EXPECT_THROW(loom::as_eigen<Eigen::MatrixXd>(a.index(0, 0)), loom::ShapeError);
  EXPECT_THROW(loom::as_eigen<Eigen::Matrix3d>(a), loom::ShapeError);
  alignas(8) static char mem[64];
  EXPECT_THROW(loom::as_eigen<Eigen::VectorXd>(loom::wrap(mem, {3}, DType::float64, {12})),
               loom::ValueError);
  EXPECT_THROW(loom::as_eigen<Eigen::VectorXd>(loom::wrap(mem + 4, {3}, DType::float64)),
               loom::ValueError);
  static double dev[4];
  const Array d = loom::wrap(dev, {4}, DType::float64, {}, {}, {loom::DeviceKind::cuda, 0});
  EXPECT_THROW(loom::as_eigen<Eigen::VectorXd>(d), loom::DeviceError);
  EXPECT_THROW(loom::as_eigen<Eigen::VectorXd>(Array()), loom::ValueError);
}

}  // namespace
