// plugins/linalg against closed forms computed in long double (a @ solve(a, b) = b, inv(a) @ a =
// I, L L^H = a, V diag(w) V^H = a, Q R = a, ...) on batches of random well-conditioned matrices,
// every dtype, every target (cuda with host arrays); broadcast batch dims, transposed and strided
// views; the singular instances (NaN, as NumPy's gufuncs; 0 and -inf for det and slogdet).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <complex>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "helpers.hpp"
#include "loom/loom.hpp"

namespace {

using namespace linalg_test;

class Linalg : public ::testing::TestWithParam<std::tuple<std::string, DType>> {
 protected:
  void SetUp() override {
    if (auto why = unavailable(target())) GTEST_SKIP() << *why;
  }
  std::string target() const { return std::get<0>(GetParam()); }
  DType dt() const { return std::get<1>(GetParam()); }
  std::vector<Array> call(const std::string& op, std::vector<Array> in,
                          std::vector<Array> out = {}) {
    return runtime().ufunc(op).call(in, {.target = target(), .out = std::move(out)});
  }
  // tolerance for a quantity of size `scale` built from n-term sums
  long double tol(int n, long double scale = 1) const { return 64 * (n + 1) * eps(dt()) * scale; }
};

const int kSizes[] = {1, 2, 3, 4, 5, 8, 17};

TEST_P(Linalg, DetMatchesLongDoubleElimination) {
  std::mt19937 g(1);
  for (int n : kSizes) {
    const Array a = matrices(g, 6, n, n, dt(), 0.5);
    const auto r = call("det", {a})[0];
    ASSERT_EQ(r.dtype(), dt());
    ASSERT_EQ(r.shape(), (Shape{6}));
    const auto av = vals(a), rv = vals(r);
    for (int b = 0; b < 6; ++b) {
      const C want = det_ref({av.begin() + b * n * n, av.begin() + (b + 1) * n * n}, n);
      // |error| relative to the product of row norms (Hadamard's bound on |det|)
      long double h = 1;
      for (int i = 0; i < n; ++i) {
        long double s = 0;
        for (int j = 0; j < n; ++j) s += std::norm(av[b * n * n + i * n + j]);
        h *= std::sqrt(s);
      }
      EXPECT_LE(std::abs(rv[b] - want), tol(n, h)) << "n " << n << " instance " << b;
    }
  }
}

TEST_P(Linalg, SlogdetAgreesWithDet) {
  std::mt19937 g(2);
  for (int n : kSizes) {
    const Array a = matrices(g, 5, n, n, dt(), 0.5);
    const auto r = call("slogdet", {a});
    ASSERT_EQ(r[0].dtype(), dt());
    ASSERT_EQ(r[1].dtype(), real_of(dt()));
    const auto av = vals(a), s = vals(r[0]), l = vals(r[1]);
    for (int b = 0; b < 5; ++b) {
      const C want = det_ref({av.begin() + b * n * n, av.begin() + (b + 1) * n * n}, n);
      EXPECT_LE(std::abs(s[b] - want / std::abs(want)), tol(n)) << "sign, n " << n;
      EXPECT_LE(std::abs(l[b].real() - std::log(std::abs(want))), tol(n, n)) << "log, n " << n;
    }
  }
}

TEST_P(Linalg, InvTimesATheIdentity) {
  std::mt19937 g(3);
  for (int n : kSizes) {
    const Array a = matrices(g, 6, n, n, dt(), n);
    const auto r = call("inv", {a})[0];
    ASSERT_EQ(r.shape(), a.shape());
    const auto av = vals(a), iv = vals(r);
    for (int b = 0; b < 6; ++b) {
      const auto p = matmul(&iv[b * n * n], &av[b * n * n], n, n, n);
      for (int i = 0; i < n * n; ++i)
        EXPECT_LE(std::abs(p[i] - C(i % (n + 1) == 0 ? 1 : 0)), tol(n)) << "n " << n;
    }
  }
}

TEST_P(Linalg, SolveResidualsAndBroadcastBatches) {
  std::mt19937 g(4);
  for (int n : kSizes) {
    const int k = 3;
    // a (2,1,n,n) and b (3,n,k) broadcast to (2,3,n,k)
    const Array a = matrices(g, 2, n, n, dt(), n).reshape({2, 1, n, n});
    const Array b = matrices(g, 3, n, k, dt(), 0);
    const auto x = call("solve", {a, b})[0];
    ASSERT_EQ(x.shape(), (Shape{2, 3, n, k}));
    const auto av = vals(a), bv = vals(b), xv = vals(x);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j) {
        const auto ax = matmul(&av[i * n * n], &xv[(i * 3 + j) * n * k], n, n, k);
        for (int e = 0; e < n * k; ++e)
          EXPECT_LE(std::abs(ax[e] - bv[j * n * k + e]), tol(n, n)) << "n " << n;
      }
    const Array v = matrices(g, 2, 1, n, dt(), 0).reshape({2, n});
    const auto x1 = call("solve1", {a.reshape({2, n, n}), v})[0];
    ASSERT_EQ(x1.shape(), (Shape{2, n}));
    const auto x1v = vals(x1), vv = vals(v);
    for (int i = 0; i < 2; ++i) {
      const auto ax = matmul(&av[i * n * n], &x1v[i * n], n, n, 1);
      for (int e = 0; e < n; ++e) EXPECT_LE(std::abs(ax[e] - vv[i * n + e]), tol(n, n));
    }
  }
}

TEST_P(Linalg, TransposedAndStridedViewsGiveTheContiguousBits) {
  std::mt19937 g(5);
  const int n = 5;
  const Array base = matrices(g, 8, n, n, dt(), n);
  const int axes[] = {0, 2, 1};
  const Array t = base.transpose(axes), every_other = base.slice(0, 0, 8, 2);
  for (const std::string op : {"det", "inv", "cholesky", "eigvalsh", "slogdet"}) {
    for (const Array& view : {t, every_other}) {
      const auto got = call(op, {view});
      const auto want = call(op, {view.copy()});
      for (std::size_t j = 0; j < got.size(); ++j) {
        const auto gv = vals(got[j]), wv = vals(want[j]);
        ASSERT_EQ(gv.size(), wv.size());
        for (std::size_t i = 0; i < gv.size(); ++i)
          EXPECT_TRUE(gv[i] == wv[i] || (std::isnan(gv[i].real()) && std::isnan(wv[i].real())))
              << op << " element " << i;
      }
    }
  }
}

TEST_P(Linalg, CholeskyLowerFactor) {
  std::mt19937 g(6);
  for (int n : kSizes) {
    const Array a = matrices(g, 4, n, n, dt(), 0, /*hpd=*/true);
    const auto l = call("cholesky", {a})[0];
    const auto av = vals(a), lv = vals(l);
    for (int b = 0; b < 4; ++b) {
      const C* L = &lv[b * n * n];
      for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j) EXPECT_EQ(L[i * n + j], C(0));
      const auto p = matmul(L, L, n, n, n, /*conj_b_t=*/true);
      for (int e = 0; e < n * n; ++e)
        EXPECT_LE(std::abs(p[e] - av[b * n * n + e]), tol(n, maxabs(av))) << "n " << n;
    }
  }
}

TEST_P(Linalg, EighReconstructsTheMatrix) {
  std::mt19937 g(7);
  for (int n : kSizes) {
    const Array a = matrices(g, 3, n, n, dt(), 0, /*hpd=*/true);
    const auto r = call("eigh", {a});
    ASSERT_EQ(r[0].dtype(), real_of(dt()));
    const auto av = vals(a), w = vals(r[0]), v = vals(r[1]), w2 = vals(call("eigvalsh", {a})[0]);
    for (int b = 0; b < 3; ++b) {
      for (int i = 0; i + 1 < n; ++i) EXPECT_LE(w[b * n + i].real(), w[b * n + i + 1].real());
      std::vector<C> vd(n * n);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) vd[i * n + j] = v[b * n * n + i * n + j] * w[b * n + j];
      const auto p = matmul(vd.data(), &v[b * n * n], n, n, n, true);
      for (int e = 0; e < n * n; ++e)
        EXPECT_LE(std::abs(p[e] - av[b * n * n + e]), tol(n, maxabs(av))) << "n " << n;
      for (int i = 0; i < n; ++i)
        EXPECT_LE(std::abs(w2[b * n + i] - w[b * n + i]), tol(n, maxabs(av)));
    }
  }
}

TEST_P(Linalg, QrAndSvdvalsWithOutputsOfMinMN) {
  std::mt19937 g(8);
  for (auto [m, n] : {std::pair{5, 3}, {3, 5}, {4, 4}, {1, 6}}) {
    const int k = std::min(m, n);
    const Array a = matrices(g, 3, m, n, dt(), 1);
    Array q = loom::empty({3, m, k}, dt()), r = loom::empty({3, k, n}, dt());
    call("qr", {a}, {q, r});
    const auto av = vals(a), qv = vals(q), rv = vals(r);
    for (int b = 0; b < 3; ++b) {
      const auto p = matmul(&qv[b * m * k], &rv[b * k * n], m, k, n);
      for (int e = 0; e < m * n; ++e) EXPECT_LE(std::abs(p[e] - av[b * m * n + e]), tol(m, 2));
      for (int i = 0; i < k; ++i)
        for (int j = 0; j < i && j < n; ++j) EXPECT_EQ(rv[b * k * n + i * n + j], C(0));
    }
    Array s = loom::empty({3, k}, real_of(dt()));
    call("svdvals", {a}, {s});
    const auto sv = vals(s);
    for (int b = 0; b < 3; ++b) {  // the Jacobi reference's values (helpers.hpp), descending
      const auto want = svdvals_ref(&av[b * m * n], m, n);
      for (int i = 0; i < k; ++i)
        EXPECT_LE(std::abs(sv[b * k + i].real() - want[i]),
                  sv_tol(dt(), want[0], m, n) + sv_ref_error(want[i], want[0], m, n))
            << m << "x" << n << " value " << i;
      for (int i = 0; i + 1 < k; ++i) EXPECT_GE(sv[b * k + i].real(), sv[b * k + i + 1].real());
    }
  }
}

// svdvals against values found without loom: closed forms on matrices the dtype holds exactly (a
// diagonal one's sorted |d_i|; a rank-1 u v^T of small integers: |u| |v| and zeros; a 2x2's from
// its Frobenius norm F and determinant D, s1^2 = (F^2 + sqrt(F^4 - 4 |D|^2)) / 2, s2 = |D| / s1;
// Sylvester-Hadamard matrices over sqrt(n), entries +-2^-j (times i in some columns): all ones),
// and on random matrices the square roots of A^H A's eigenvalues by the long double Jacobi
// iteration (helpers.hpp). Each value within sv_tol, Weyl's bound for a backward-stable SVD.
TEST_P(Linalg, SvdvalsAgainstClosedFormsAndJacobi) {
  std::mt19937 g(14);
  std::uniform_real_distribution<double> u(-1, 1);
  std::uniform_int_distribution<int> small(-8, 8);
  auto expect_svdvals = [&](const std::vector<C>& v, int m, int n, std::vector<long double> want,
                            long double ref_err, const std::string& what) {
    const Array s = call("svdvals", {make(v, {m, n}, dt())})[0];
    ASSERT_EQ(s.dtype(), real_of(dt())) << what;
    ASSERT_EQ(s.shape(), (Shape{std::min(m, n)})) << what;
    const auto got = vals(s);
    std::sort(want.rbegin(), want.rend());
    for (std::size_t i = 0; i < want.size(); ++i)
      EXPECT_LE(std::abs(got[i].real() - want[i]), sv_tol(dt(), want[0], m, n) + ref_err)
          << what << " " << m << "x" << n << " value " << i << ": got " << got[i].real()
          << ", want " << want[i];
  };
  auto entry = [&](bool ints) {
    if (ints) return C(small(g), is_cx(dt()) ? small(g) : 0);
    return vals(make({C(u(g), is_cx(dt()) ? u(g) : 0.0)}, {1}, dt()))[0];  // rounded to dt()
  };
  for (auto [m, n] : {std::pair{1, 1}, {3, 3}, {5, 3}, {3, 5}, {1, 6}, {17, 17}}) {
    const int k = std::min(m, n);
    std::vector<C> d(m * n, 0);
    std::vector<long double> want;
    for (int i = 0; i < k; ++i) {
      d[i * n + i] = entry(false) * C(std::ldexp(1.0L, 3 * i - 8));  // magnitudes 2^-8 .. 2^40
      want.push_back(std::abs(d[i * n + i]));
    }
    expect_svdvals(d, m, n, want, 0, "diagonal");
    std::vector<C> x(m), y(n), r(m * n);
    long double xx = 0, yy = 0;
    for (auto& z : x) z = entry(true), xx += std::norm(z);
    for (auto& z : y) z = entry(true), yy += std::norm(z);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) r[i * n + j] = x[i] * y[j];  // exact: small integers
    want.assign(k, 0);
    want[0] = std::sqrt(xx) * std::sqrt(yy);
    expect_svdvals(r, m, n, want, 0, "rank 1");
  }
  for (int t = 0; t < 20; ++t) {
    std::vector<C> a(4);
    for (auto& z : a) z = entry(false);
    const long double f2 = std::norm(a[0]) + std::norm(a[1]) + std::norm(a[2]) + std::norm(a[3]);
    const long double det = std::abs(a[0] * a[3] - a[1] * a[2]);
    const long double s1 = std::sqrt((f2 + std::sqrt(std::max(f2 * f2 - 4 * det * det, 0.0L))) / 2);
    expect_svdvals(a, 2, 2, {s1, s1 > 0 ? det / s1 : 0}, 0, "2x2 closed form");
  }
  for (int n : {4, 16}) {
    std::vector<C> h(n * n);
    const long double scale = 1 / std::sqrt(static_cast<long double>(n));  // 2^-j: exact
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        const C z(std::popcount(static_cast<unsigned>(i & j)) % 2 ? -scale : scale);
        h[i * n + j] = is_cx(dt()) && j % 3 == 1 ? z * C(0, 1) : z;
      }
    expect_svdvals(h, n, n, std::vector<long double>(n, 1), 0, "orthogonal");
  }
  for (auto [m, n] : {std::pair{2, 2}, {3, 3}, {5, 3}, {3, 5}, {8, 8}, {17, 17}, {40, 17}}) {
    const auto a = vals(matrices(g, 1, m, n, dt(), 1));
    const auto want = svdvals_ref(a.data(), m, n);
    long double err = 0;
    for (auto w : want) err = std::max(err, sv_ref_error(w, want[0], m, n));
    expect_svdvals(a, m, n, want, err, "random (Jacobi on A^H A)");
  }
}

// qr and svdvals' k is min(m, n) (layout "k=min(m,n)"): without out= the call sizes it; an out= of
// another k is a ShapeError naming the shape it needs (it used to get NaN silently), and the
// out= is left as it was.
TEST_P(Linalg, QrAndSvdvalsKIsMinMNAndAWrongOutIsRefused) {
  std::mt19937 g(12);
  const Array a = matrices(g, 3, 5, 3, dt(), 1);
  const Array s = call("svdvals", {a})[0];
  EXPECT_EQ(s.shape(), (Shape{3, 3}));
  Array s_out = loom::empty({3, 3}, real_of(dt()));
  call("svdvals", {a}, {s_out});
  EXPECT_EQ(vals(s_out), vals(s));
  const auto qr = call("qr", {a});
  EXPECT_EQ(qr[0].shape(), (Shape{3, 5, 3}));
  EXPECT_EQ(qr[1].shape(), (Shape{3, 3, 3}));
  Array wrong = loom::full({3, 2}, 7.0).astype(real_of(dt()));
  try {
    call("svdvals", {a}, {wrong});
    ADD_FAILURE() << "an out= with k = 2 for min(5, 3) = 3 was accepted";
  } catch (const loom::ShapeError& e) {
    EXPECT_NE(std::string(e.what()).find("k = min(m=5, n=3)"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("out= 0 needs shape (3, 3)"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(vals(wrong), std::vector<C>(6, C(7)));
  Array q = loom::empty({3, 5, 2}, dt()), r = loom::empty({3, 2, 3}, dt());
  try {
    call("qr", {a}, {q, r});
    ADD_FAILURE() << "qr outputs with k = 2 for min(5, 3) = 3 were accepted";
  } catch (const loom::ShapeError& e) {
    EXPECT_NE(std::string(e.what()).find("out= 0 needs shape (3, 5, 3)"), std::string::npos)
        << e.what();
  }
}

// A matrix holding NaN or Inf has no singular values (LAPACK does not converge; NumPy's svd
// raises): NaN in that instance's output, never what the iteration left; the others computed.
TEST_P(Linalg, SvdvalsOfANonFiniteMatrixIsNaN) {
  std::mt19937 g(13);
  for (auto [m, n] : {std::pair{4, 3}, {3, 4}}) {
    Array a = matrices(g, 3, m, n, dt(), 1);
    std::vector<C> v = vals(a);
    v[1 * m * n + 4] = C(NAN);
    v[2 * m * n + 2] = C(INFINITY);
    a = make(v, {3, m, n}, dt());
    const auto sv = vals(call("svdvals", {a})[0]);
    const int k = std::min(m, n);
    for (int i = 0; i < k; ++i) {
      EXPECT_TRUE(std::isfinite(static_cast<double>(sv[i].real()))) << i;
      EXPECT_TRUE(std::isnan(static_cast<double>(sv[k + i].real()))) << "NaN matrix, value " << i;
      EXPECT_TRUE(std::isnan(static_cast<double>(sv[2 * k + i].real())))
          << "Inf matrix, value " << i;
    }
  }
}

// NumPy's inv is LAPACK's LU: inv([[inf, 1], [1, 1]]) is [[0, -0], [0, 1]], not the NaN of the
// cofactor formula (inf * 0), and so not "singular"; the same inside a 3x3 and a 5x5 (LU path).
TEST_P(Linalg, InvOfAMatrixHoldingInfIsTheLuInverse) {
  for (int n : {2, 3, 5}) {
    std::vector<C> v(n * n, 0);
    for (int i = 0; i < n; ++i) v[i * n + i] = 1;
    v[0] = C(INFINITY);
    v[1] = v[n] = 1;
    const Array r = call("inv", {make(v, {n, n}, dt())})[0];
    const auto got = vals(r);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        const C want = (i == j && i > 0) ? C(1) : C(0);
        EXPECT_EQ(got[i * n + j], want) << "n " << n << " (" << i << ", " << j << ")";
      }
    if (!is_cx(dt())) {  // NumPy's signs: -0 at (0, 1)
      EXPECT_TRUE(std::signbit(r.astype(DType::float64).to_vector<double>()[1])) << n;
    }
  }
}

TEST_P(Linalg, NormVecdotCross) {
  std::mt19937 g(9);
  const Array x = matrices(g, 4, 1, 3, dt(), 0).reshape({4, 3});
  const Array y = matrices(g, 4, 1, 3, dt(), 0).reshape({4, 3});
  const auto xv = vals(x), yv = vals(y);
  const auto nv = vals(call("norm", {x})[0]), dv = vals(call("vecdot", {x, y})[0]),
             cv = vals(call("cross", {x, y})[0]);
  for (int b = 0; b < 4; ++b) {
    const C* a = &xv[b * 3];
    const C* c = &yv[b * 3];
    long double n2 = 0;
    C d = 0;
    for (int i = 0; i < 3; ++i) n2 += std::norm(a[i]), d += std::conj(a[i]) * c[i];
    EXPECT_LE(std::abs(nv[b] - std::sqrt(n2)), tol(3));
    EXPECT_LE(std::abs(dv[b] - d), tol(3));
    const C want[] = {a[1] * c[2] - a[2] * c[1], a[2] * c[0] - a[0] * c[2],
                      a[0] * c[1] - a[1] * c[0]};
    for (int i = 0; i < 3; ++i) EXPECT_LE(std::abs(cv[b * 3 + i] - want[i]), tol(2));
  }
  // Strided vectors (copied) give the bits of their contiguous copies (mapped).
  const Array long_x = matrices(g, 2, 1, 40, dt(), 0).reshape({2, 40});
  const Array long_y = matrices(g, 2, 1, 40, dt(), 0).reshape({2, 40});
  const Array sx = long_x.slice(1, 0, 40, 2), sy = long_y.slice(1, 1, 40, 2);
  EXPECT_EQ(vals(call("norm", {sx})[0]), vals(call("norm", {sx.copy()})[0]));
  EXPECT_EQ(vals(call("vecdot", {sx, sy})[0]), vals(call("vecdot", {sx.copy(), sy.copy()})[0]));
}

TEST_P(Linalg, SingularInstancesAsNumPysGufuncs) {
  // instance 0 singular, instance 1 the identity
  const int n = 3;
  std::vector<C> v(2 * n * n, 0);
  for (int i = 0; i < n; ++i) v[n * n + i * n + i] = 1;
  v[0] = 1;  // rank 1
  const Array a = make(v, {2, n, n}, dt());
  const auto det = vals(call("det", {a})[0]);
  EXPECT_EQ(det[0], C(0));
  EXPECT_EQ(det[1], C(1));
  const auto sl = call("slogdet", {a});
  EXPECT_EQ(vals(sl[0])[0], C(0));
  EXPECT_EQ(vals(sl[1])[0].real(), -INFINITY);
  for (const std::string op : {"inv", "cholesky"}) {
    const auto r = vals(call(op, {a})[0]);
    for (int e = 0; e < n * n; ++e) {
      EXPECT_TRUE(std::isnan(r[e].real())) << op << " element " << e;
      EXPECT_EQ(r[n * n + e], C(e % (n + 1) == 0 ? 1 : 0)) << op;
    }
  }
  const auto x = vals(call("solve1", {a, make(std::vector<C>(2 * n, 1), {2, n}, dt())})[0]);
  for (int e = 0; e < n; ++e) EXPECT_TRUE(std::isnan(x[e].real()));
}

const DType kTypes[] = {DType::float32, DType::float64, DType::complex64, DType::complex128};
INSTANTIATE_TEST_SUITE_P(Host, Linalg,
                         ::testing::Combine(::testing::Values("cpu", "parallel"),
                                            ::testing::ValuesIn(kTypes)),
                         [](const auto& i) {
                           return std::get<0>(i.param) + "_" +
                                  std::string(loom::name(std::get<1>(i.param)));
                         });
// The same checks on cuda with host arrays (test_linalg_cuda.cpp: device arrays, large sizes);
// skipped with the reason where there is no GPU.
INSTANTIATE_TEST_SUITE_P(Cuda, Linalg,
                         ::testing::Combine(::testing::Values("cuda"), ::testing::ValuesIn(kTypes)),
                         [](const auto& i) {
                           return std::get<0>(i.param) + "_" +
                                  std::string(loom::name(std::get<1>(i.param)));
                         });

}  // namespace
