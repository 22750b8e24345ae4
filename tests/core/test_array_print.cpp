// Printing loom::Array as NumPy 2 prints it: format() is str(a), repr() is repr(a), operator<<
// writes format(). Every expected string below was printed by NumPy 2.4 for the same values.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "loom/array.hpp"
#include "loom/error.hpp"

namespace loom {
namespace {

struct Case {
  const char* expr;
  std::function<Array()> make;
  const char* str;
  const char* repr;
};

const std::vector<Case>& cases() {
  static const std::vector<Case> c = {
      {"from_vector(std::vector<double>{1, 2, 3, 4}, {2, 2})",
       [] {
         return from_vector(std::vector<double>{1, 2, 3, 4}, {2, 2});
       },
       "[[1. 2.]\n [3. 4.]]", "array([[1., 2.],\n       [3., 4.]])"},
      {"array({1.5, 2.25, -3.0})",
       [] {
         return array({1.5, 2.25, -3.0});
       },
       "[ 1.5   2.25 -3.  ]", "array([ 1.5 ,  2.25, -3.  ])"},
      {"array({0.1, 100000.0})",
       [] {
         return array({0.1, 100000.0});
       },
       "[1.e-01 1.e+05]", "array([1.e-01, 1.e+05])"},
      {"array({1e-5, 1.0})",
       [] {
         return array({1e-5, 1.0});
       },
       "[1.e-05 1.e+00]", "array([1.e-05, 1.e+00])"},
      {"array({1.5e-5, 1.25})",
       [] {
         return array({1.5e-5, 1.25});
       },
       "[1.50e-05 1.25e+00]", "array([1.50e-05, 1.25e+00])"},
      {"array({1e5, 1e100})",
       [] {
         return array({1e5, 1e100});
       },
       "[1.e+005 1.e+100]", "array([1.e+005, 1.e+100])"},
      {"array({1.0 / 3, 2.0 / 3})",
       [] {
         return array({1.0 / 3, 2.0 / 3});
       },
       "[0.33333333 0.66666667]", "array([0.33333333, 0.66666667])"},
      {"array({NAN, INFINITY, -INFINITY, 1.5})",
       [] {
         return array<double>({NAN, INFINITY, -INFINITY, 1.5});
       },
       "[ nan  inf -inf  1.5]", "array([ nan,  inf, -inf,  1.5])"},
      {"array({0.1f, 0.2f, 1234567.1f})",
       [] {
         return array({0.1f, 0.2f, 1234567.1f});
       },
       "[1.0000000e-01 2.0000000e-01 1.2345671e+06]",
       "array([1.0000000e-01, 2.0000000e-01, 1.2345671e+06], dtype=float32)"},
      {"array({true, false})",
       [] {
         return array({true, false});
       },
       "[ True False]", "array([ True, False])"},
      {"array({true, true})",
       [] {
         return array({true, true});
       },
       "[ True  True]", "array([ True,  True])"},
      {"array<std::int32_t>({-5, 10, 300})",
       [] {
         return array<std::int32_t>({-5, 10, 300});
       },
       "[ -5  10 300]", "array([ -5,  10, 300], dtype=int32)"},
      {"array<std::uint64_t>({18446744073709551615ull, 0})",
       [] {
         return array<std::uint64_t>({18446744073709551615ull, 0});
       },
       "[18446744073709551615                    0]",
       "array([18446744073709551615,                    0], dtype=uint64)"},
      {"array({std::complex<double>(1, 2), std::complex<double>(-1.5, -0.25)})",
       [] {
         return array({std::complex<double>(1, 2), std::complex<double>(-1.5, -0.25)});
       },
       "[ 1. +2.j   -1.5-0.25j]", "array([ 1. +2.j  , -1.5-0.25j])"},
      {"array({std::complex<float>(0, 1), std::complex<float>(NAN, INFINITY)})",
       [] {
         return array({std::complex<float>(0, 1), std::complex<float>(NAN, INFINITY)});
       },
       "[ 0. +1.j nan+infj]", "array([ 0. +1.j, nan+infj], dtype=complex64)"},
      {"arange(30)", [] { return arange(30); },
       "[ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19 20 21 22 23\n 24 25 26 27 28 "
       "29]",
       "array([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16,\n       17, 18, "
       "19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29])"},
      {"arange(0.0, 20.0, 1.0)", [] { return arange(0.0, 20.0, 1.0); },
       "[ 0.  1.  2.  3.  4.  5.  6.  7.  8.  9. 10. 11. 12. 13. 14. 15. 16. 17.\n 18. 19.]",
       "array([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12.,\n       13., 14., "
       "15., 16., 17., 18., 19.])"},
      {"arange(2000)", [] { return arange(2000); }, "[   0    1    2 ... 1997 1998 1999]",
       "array([   0,    1,    2, ..., 1997, 1998, 1999], shape=(2000,))"},
      {"arange(2000).reshape({40, 50})",
       [] {
         return arange(2000).reshape({40, 50});
       },
       "[[   0    1    2 ...   47   48   49]\n [  50   51   52 ...   97   98   99]\n [ 100  101  "
       "102 ...  147  148  149]\n ...\n [1850 1851 1852 ... 1897 1898 1899]\n [1900 1901 1902 ... "
       "1947 1948 1949]\n [1950 1951 1952 ... 1997 1998 1999]]",
       "array([[   0,    1,    2, ...,   47,   48,   49],\n       [  50,   51,   52, ...,   97,   "
       "98,   99],\n       [ 100,  101,  102, ...,  147,  148,  149],\n       ...,\n       [1850, "
       "1851, 1852, ..., 1897, 1898, 1899],\n       [1900, 1901, 1902, ..., 1947, 1948, 1949],\n   "
       "    [1950, 1951, 1952, ..., 1997, 1998, 1999]], shape=(40, 50))"},
      {"arange(24).reshape({2, 3, 4})",
       [] {
         return arange(24).reshape({2, 3, 4});
       },
       "[[[ 0  1  2  3]\n  [ 4  5  6  7]\n  [ 8  9 10 11]]\n\n [[12 13 14 15]\n  [16 17 18 19]\n  "
       "[20 21 22 23]]]",
       "array([[[ 0,  1,  2,  3],\n        [ 4,  5,  6,  7],\n        [ 8,  9, 10, 11]],\n\n       "
       "[[12, 13, 14, 15],\n        [16, 17, 18, 19],\n        [20, 21, 22, 23]]])"},
      {"zeros({2, 0})",
       [] {
         return zeros({2, 0});
       },
       "[]", "array([], shape=(2, 0), dtype=float64)"},
      {"zeros({0})", [] { return zeros({0}); }, "[]", "array([], dtype=float64)"},
      {"linspace(0, 1, 5).astype(DType::float16)",
       [] { return linspace(0, 1, 5).astype(DType::float16); }, "[0.   0.25 0.5  0.75 1.  ]",
       "array([0.  , 0.25, 0.5 , 0.75, 1.  ], dtype=float16)"},
      {"array({0.1, 0.2, 0.3}).astype(DType::float16)",
       [] {
         return array({0.1, 0.2, 0.3}).astype(DType::float16);
       },
       "[0.1 0.2 0.3]", "array([0.1, 0.2, 0.3], dtype=float16)"},
      {"Array(1.5)", [] { return Array(1.5); }, "1.5", "array(1.5)"},
      {"Array(1.0)", [] { return Array(1.0); }, "1.0", "array(1.)"},
      {"Array(1e20)", [] { return Array(1e20); }, "1e+20", "array(1.e+20)"},
      {"Array(1.5e-5)", [] { return Array(1.5e-5); }, "1.5e-05", "array(1.5e-05)"},
      {"Array(0.1f)", [] { return Array(0.1f); }, "0.1", "array(0.1, dtype=float32)"},
      {"Array(std::int64_t{-7})", [] { return Array(std::int64_t{-7}); }, "-7", "array(-7)"},
      {"Array(true)", [] { return Array(true); }, "True", "array(True)"},
      {"Array(std::complex<double>(1, 2))", [] { return Array(std::complex<double>(1, 2)); },
       "(1+2j)", "array(1.+2.j)"},
      {"Array(std::complex<double>(0, 2))", [] { return Array(std::complex<double>(0, 2)); }, "2j",
       "array(0.+2.j)"},
      {"Array(std::complex<double>(1.5, -0.5))",
       [] { return Array(std::complex<double>(1.5, -0.5)); }, "(1.5-0.5j)", "array(1.5-0.5j)"},
      {"array({-0.0, 1.0})",
       [] {
         return array({-0.0, 1.0});
       },
       "[-0.  1.]", "array([-0.,  1.])"},
      {"array({123456789.0, 1.0})",
       [] {
         return array({123456789.0, 1.0});
       },
       "[1.23456789e+08 1.00000000e+00]", "array([1.23456789e+08, 1.00000000e+00])"},
      {"array({1e7, 1.0, 2.0})",
       [] {
         return array({1e7, 1.0, 2.0});
       },
       "[1.e+07 1.e+00 2.e+00]", "array([1.e+07, 1.e+00, 2.e+00])"},
      {"array({3.14159265358979, 2.0})",
       [] {
         return array({3.14159265358979, 2.0});
       },
       "[3.14159265 2.        ]", "array([3.14159265, 2.        ])"},
      {"arange(0.0, 1.0, 0.1)", [] { return arange(0.0, 1.0, 0.1); },
       "[0.  0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9]",
       "array([0. , 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9])"},
      {"array({0.5f, 0.25f, 3.0f})",
       [] {
         return array({0.5f, 0.25f, 3.0f});
       },
       "[0.5  0.25 3.  ]", "array([0.5 , 0.25, 3.  ], dtype=float32)"},
      {"arange(1001).astype(DType::float32)", [] { return arange(1001).astype(DType::float32); },
       "[   0.    1.    2. ...  998.  999. 1000.]",
       "array([   0.,    1.,    2., ...,  998.,  999., 1000.],\n      shape=(1001,), "
       "dtype=float32)"},
      {"arange(12).reshape({3, 4}).transpose()",
       [] {
         return arange(12).reshape({3, 4}).transpose();
       },
       "[[ 0  4  8]\n [ 1  5  9]\n [ 2  6 10]\n [ 3  7 11]]",
       "array([[ 0,  4,  8],\n       [ 1,  5,  9],\n       [ 2,  6, 10],\n       [ 3,  7, 11]])"},
  };
  return c;
}

TEST(ArrayPrint, FormatIsNumpyStr) {
  for (const auto& c : cases()) EXPECT_EQ(format(c.make()), c.str) << c.expr;
}

TEST(ArrayPrint, ReprIsNumpyRepr) {
  for (const auto& c : cases()) EXPECT_EQ(repr(c.make()), c.repr) << c.expr;
}

TEST(ArrayPrint, StreamWritesFormat) {
  std::ostringstream os;
  os << from_vector(std::vector<double>{1, 2, 3, 4}, {2, 2});
  EXPECT_EQ(os.str(), "[[1. 2.]\n [3. 4.]]");
}

TEST(ArrayPrint, DeviceArrayIsRefusedWithTheWayOut) {
  static double storage[2];
  const Array d = wrap(storage, {2}, DType::float64, {}, {}, Device{DeviceKind::cuda, 0});
  try {
    (void)format(d);
    FAIL() << "format of a device array printed";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("Runtime::to_host"), std::string::npos) << e.what();
  }
}

TEST(ArrayPrint, EmptyArrayIsValueError) { EXPECT_THROW((void)format(Array()), ValueError); }

}  // namespace
}  // namespace loom
