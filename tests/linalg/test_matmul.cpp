// matmul, NumPy's (m?,n),(n,p?)->(m?,p?) (plugins/linalg), on every target and dtype against the
// product in long double: batches, broadcast batch dims, transposed and strided operands, the
// vector forms (vector @ matrix, matrix @ vector, vector @ vector), empty n, and the sizes on both
// sides of the cuda loop's switch to cuBLAS (m n p = 16^3).
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "helpers.hpp"
#include "loom/loom.hpp"

namespace {

using namespace linalg_test;

class Matmul : public ::testing::TestWithParam<std::tuple<std::string, DType>> {
 protected:
  void SetUp() override {
    if (auto why = unavailable(target())) GTEST_SKIP() << *why;
  }
  std::string target() const { return std::get<0>(GetParam()); }
  DType dt() const { return std::get<1>(GetParam()); }
  Array mm(const Array& a, const Array& b) {
    return runtime().gufunc("matmul")(a, b, {.target = target()});
  }
  // c (batch of m x p, flat) against a (batch_a of m x n) @ b (batch_b of n x p), where instance i
  // takes a[ia(i)] and b[ib(i)]: each element within 64 (n + 1) eps of sum |a_ik b_kj|.
  template <class IA, class IB>
  void expect_product(const Array& c, const Array& a, const Array& b, int batch, int m, int n,
                      int p, IA ia, IB ib) {
    const auto av = vals(a.copy()), bv = vals(b.copy()), cv = vals(c);
    ASSERT_EQ(cv.size(), static_cast<std::size_t>(batch) * m * p);
    for (int i = 0; i < batch; ++i)
      for (int r = 0; r < m; ++r)
        for (int q = 0; q < p; ++q) {
          C s = 0;
          long double mag = 0;
          for (int k = 0; k < n; ++k) {
            const C t = av[(ia(i) * m + r) * n + k] * bv[(ib(i) * n + k) * p + q];
            s += t;
            mag += std::abs(t);
          }
          EXPECT_LE(std::abs(cv[(i * m + r) * p + q] - s), 64 * (n + 1) * eps(dt()) * mag)
              << "instance " << i << " element (" << r << ", " << q << ") of " << m << "x" << n
              << " @ " << n << "x" << p;
        }
  }
};

TEST_P(Matmul, BatchesOfEverySizeAgainstLongDouble) {
  std::mt19937 g(11);
  const int sizes[][3] = {{1, 1, 1},  {2, 2, 2},    {3, 3, 3},    {4, 4, 4},   {2, 3, 4},
                          {5, 17, 3}, {16, 16, 16}, {64, 64, 64}, {33, 70, 20}};
  for (const auto& s : sizes) {
    const int m = s[0], n = s[1], p = s[2], batch = m * n * p > 10000 ? 3 : 7;
    const Array a = matrices(g, batch, m, n, dt(), 0), b = matrices(g, batch, n, p, dt(), 0);
    const Array c = mm(a, b);
    ASSERT_EQ(c.shape(), (Shape{batch, m, p}));
    ASSERT_EQ(c.dtype(), dt());
    expect_product(
        c, a, b, batch, m, n, p, [](int i) { return i; }, [](int i) { return i; });
  }
}

TEST_P(Matmul, LargeSquareMatrices) {
  std::mt19937 g(12);
  const Array a = matrices(g, 1, 256, 256, dt(), 0).reshape({256, 256});
  const Array b = matrices(g, 1, 256, 256, dt(), 0).reshape({256, 256});
  const Array c = mm(a, b);
  ASSERT_EQ(c.shape(), (Shape{256, 256}));
  expect_product(
      c, a, b, 1, 256, 256, 256, [](int) { return 0; }, [](int) { return 0; });
}

TEST_P(Matmul, BroadcastBatchDims) {
  std::mt19937 g(13);
  for (int n : {3, 40}) {
    // a (2,1,n,n) and b (3,n,n) broadcast to (2,3,n,n); a b's batch dim of stride 0 too.
    const Array a = matrices(g, 2, n, n, dt(), 0).reshape({2, 1, n, n});
    const Array b = matrices(g, 3, n, n, dt(), 0);
    const Array c = mm(a, b);
    ASSERT_EQ(c.shape(), (Shape{2, 3, n, n}));
    expect_product(
        c, a.reshape({2, n, n}), b, 6, n, n, n, [](int i) { return i / 3; },
        [](int i) { return i % 3; });
    const Array one = matrices(g, 1, n, n, dt(), 0).reshape({n, n});
    const Array c2 = mm(a.reshape({2, n, n}), one);
    expect_product(
        c2, a.reshape({2, n, n}), one, 2, n, n, n, [](int i) { return i; }, [](int) { return 0; });
  }
}

TEST_P(Matmul, TransposedAndStridedOperands) {
  std::mt19937 g(14);
  const int axes[] = {0, 2, 1};
  for (int n : {4, 24}) {
    const Array a = matrices(g, 6, n, n, dt(), 0), b = matrices(g, 6, n, n, dt(), 0);
    const Array at = a.transpose(axes), bs = b.slice(0, 0, 6, 2), as = a.slice(0, 1, 6, 2);
    expect_product(
        mm(at, b), at.copy(), b, 6, n, n, n, [](int i) { return i; }, [](int i) { return i; });
    expect_product(
        mm(as, bs), as.copy(), bs.copy(), 3, n, n, n, [](int i) { return i; },
        [](int i) { return i; });
    expect_product(
        mm(at, b.transpose(axes)), at.copy(), b.transpose(axes).copy(), 6, n, n, n,
        [](int i) { return i; }, [](int i) { return i; });
    // Row-strided rows (every other column): neither row- nor column-major for cuBLAS.
    const Array wide = matrices(g, 2, n, 2 * n, dt(), 0), cols = wide.slice(2, 0, 2 * n, 2);
    expect_product(
        mm(cols, cols), cols.copy(), cols.copy(), 2, n, n, n, [](int i) { return i; },
        [](int i) { return i; });
  }
}

TEST_P(Matmul, VectorFormsDropTheirDims) {
  std::mt19937 g(15);
  for (int n : {3, 50}) {
    const int p = n == 3 ? 4 : 90;
    const Array v = matrices(g, 1, 1, n, dt(), 0).reshape({n});
    const Array w = matrices(g, 1, 1, n, dt(), 0).reshape({n});
    const Array m = matrices(g, 1, n, p, dt(), 0).reshape({n, p});
    const Array mt = matrices(g, 1, p, n, dt(), 0).reshape({p, n});
    const Array vm = mm(v, m);  // (n) @ (n,p) -> (p)
    ASSERT_EQ(vm.shape(), (Shape{p}));
    expect_product(
        vm, v, m, 1, 1, n, p, [](int) { return 0; }, [](int) { return 0; });
    const Array mv = mm(mt, v);  // (p,n) @ (n) -> (p)
    ASSERT_EQ(mv.shape(), (Shape{p}));
    expect_product(
        mv, mt, v, 1, p, n, 1, [](int) { return 0; }, [](int) { return 0; });
    const Array vv = mm(v, w);  // (n) @ (n) -> ()
    ASSERT_EQ(vv.shape(), Shape{});
    expect_product(
        vv, v, w, 1, 1, n, 1, [](int) { return 0; }, [](int) { return 0; });
    // A batch of matrices @ one vector: (3,p,n) @ (n) -> (3,p).
    const Array ms = matrices(g, 3, p, n, dt(), 0);
    const Array msv = mm(ms, v);
    ASSERT_EQ(msv.shape(), (Shape{3, p}));
    expect_product(
        msv, ms, v, 3, p, n, 1, [](int i) { return i; }, [](int) { return 0; });
  }
}

// NumPy's gufunc keywords on this target (every target, cuda included): matmul with axes= placing
// a's core dims as (n, m) and the result's as (p, m); vecdot with axis= and keepdims=.
TEST_P(Matmul, AxesAxisAndKeepdims) {
  std::mt19937 g(15);
  const Array at = matrices(g, 1, 3, 2, dt(), 0).reshape({3, 2});  // a^T: a is 2 x 3
  const Array b = matrices(g, 1, 3, 4, dt(), 0).reshape({3, 4});
  const Array r =
      runtime().gufunc("matmul")(at, b, {.target = target(), .axes = {{1, 0}, {0, 1}, {1, 0}}});
  ASSERT_EQ(r.shape(), (Shape{4, 2}));
  const int swap[] = {1, 0};
  expect_product(
      r.transpose(swap).copy(), at.transpose(swap).copy(), b, 1, 2, 3, 4, [](int) { return 0; },
      [](int) { return 0; });

  const Array x = matrices(g, 1, 5, 3, dt(), 0).reshape({5, 3});
  const Array y = matrices(g, 1, 5, 3, dt(), 0).reshape({5, 3});
  const Array v = runtime().gufunc("vecdot")(
      x, y, {.target = target(), .axis = 0, .keepdims = true});  // over the columns
  ASSERT_EQ(v.shape(), (Shape{1, 3}));
  const auto xv = vals(x.copy()), yv = vals(y.copy()), got = vals(v);
  for (int j = 0; j < 3; ++j) {
    C s = 0;
    long double mag = 0;
    for (int i = 0; i < 5; ++i) {
      s += std::conj(xv[i * 3 + j]) * yv[i * 3 + j];
      mag += std::abs(xv[i * 3 + j] * yv[i * 3 + j]);
    }
    EXPECT_LE(std::abs(got[j] - s), 64 * 6 * eps(dt()) * mag) << "column " << j;
  }
}

TEST_P(Matmul, EmptyInnerDimGivesZeros) {
  const Array a = loom::zeros({3, 0}, dt()), b = loom::zeros({0, 5}, dt());
  const Array c = mm(a, b);
  ASSERT_EQ(c.shape(), (Shape{3, 5}));
  for (auto z : vals(c)) EXPECT_EQ(z, C(0));
}

const DType kTypes[] = {DType::float32, DType::float64, DType::complex64, DType::complex128};
INSTANTIATE_TEST_SUITE_P(AllTargets, Matmul,
                         ::testing::Combine(::testing::Values("cpu", "parallel", "cuda"),
                                            ::testing::ValuesIn(kTypes)),
                         [](const auto& i) {
                           return std::get<0>(i.param) + "_" +
                                  std::string(loom::name(std::get<1>(i.param)));
                         });

}  // namespace
