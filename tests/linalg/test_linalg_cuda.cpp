// plugins/linalg's CUDA half against the same independent references as the host tests
// (test_linalg.cpp), never against cpu's results: every op on cuda, with host arrays and with
// device arrays, on both sides of the switch from the device loops (n <= 8) to cuBLAS / cuSOLVER
// (n = 9, 17, 64, 256; eigh's Jacobi up to 32 and syevd above), on broadcast batch dims, transposed
// and strided operands, and the singular and indefinite instances (NaN, 0 and -inf as NumPy's).
// The references, in long double: det by elimination (det_ref), slogdet from it, inv, solve and
// cholesky by their residuals (inv(a) a = I, a x = b, L L^H = a), eigvalsh and svdvals by the
// Jacobi iteration (helpers.hpp), norm, vecdot, cross and matmul by their sums; qr by Q R = a and
// Q^H Q = I. Without a GPU every cuda test skips with the reason; the same checks run on cpu too
// (instance Cpu), so that the references and the checks themselves are tried on every machine.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "helpers.hpp"
#include "loom/loom.hpp"

namespace {

using namespace linalg_test;

// |det| is bounded by the product of the rows' norms (Hadamard): the error's scale.
long double hadamard(const std::vector<C>& a, int batch, int n) {
  long double h = 1;
  for (int b = 0; b < batch; ++b) {
    long double hb = 1;
    for (int i = 0; i < n; ++i) {
      long double s = 0;
      for (int j = 0; j < n; ++j) s += std::norm(a[(b * n + i) * n + j]);
      hb *= std::sqrt(s);
    }
    h = std::max(h, hb);
  }
  return h;
}

class LinalgCuda : public ::testing::TestWithParam<std::tuple<std::string, DType>> {
 protected:
  void SetUp() override {
    if (auto why = unavailable(target())) GTEST_SKIP() << *why;
  }
  std::string target() const { return std::get<0>(GetParam()); }
  DType dt() const { return std::get<1>(GetParam()); }
  long double tol(int n, long double scale = 1) const { return 64 * (n + 1) * eps(dt()) * scale; }

  std::vector<Array> on(const std::string& op, const std::vector<Array>& in,
                        const std::vector<Array>& out = {}) const {
    return runtime().ufunc(op).call(in, {.target = target(), .out = out});
  }
  // op with device arrays: the inputs moved first, the results device arrays (on cuda), brought
  // back.
  std::vector<Array> on_device(const std::string& op, const std::vector<Array>& in) const {
    std::vector<Array> d;
    for (const auto& a : in) d.push_back(runtime().to_device(a, target()));
    std::vector<Array> r = on(op, d), h;
    for (const auto& a : r) {
      if (target() == "cuda") {
        EXPECT_FALSE(a.device().is_host()) << op << ": a call on device arrays gives device arrays";
      }
      h.push_back(runtime().to_host(a));
    }
    return h;
  }
  // op's outputs with host arrays, then with device arrays, each with its name for messages.
  std::vector<std::pair<std::string, std::vector<Array>>> both(const std::string& op,
                                                               const std::vector<Array>& in) const {
    return {{"host arrays", on(op, in)}, {"device arrays", on_device(op, in)}};
  }

  // Every element of got within bound of want (the reference), NaN where it has NaN, the same
  // infinities (and an imaginary part equal or NaN on both).
  static void expect_near(const std::string& what, const Array& got, const std::vector<C>& want,
                          long double bound) {
    const auto g = vals(got);
    ASSERT_EQ(g.size(), want.size()) << what;
    const auto same = [](long double x, long double y) {
      return x == y || (std::isnan(x) && std::isnan(y));
    };
    for (std::size_t i = 0; i < want.size(); ++i) {
      if (std::isnan(want[i].real())) {
        EXPECT_TRUE(std::isnan(g[i].real())) << what << " element " << i;
      } else if (std::isinf(want[i].real())) {
        EXPECT_TRUE(same(g[i].real(), want[i].real()) && same(g[i].imag(), want[i].imag()))
            << what << " element " << i << ": got " << g[i] << ", want " << want[i];
      } else {
        EXPECT_LE(std::abs(g[i] - want[i]), bound)
            << what << " element " << i << ": got " << g[i] << ", want " << want[i];
      }
    }
  }
  // op's outputs (host and device arrays) against want[j] within bound[j].
  void expect_ref(const std::string& op, const std::vector<Array>& in,
                  const std::vector<std::vector<C>>& want, const std::vector<long double>& bound,
                  const std::string& what) const {
    for (const auto& [where, got] : both(op, in)) {
      ASSERT_EQ(got.size(), want.size()) << op;
      for (std::size_t j = 0; j < want.size(); ++j)
        expect_near(op + " (" + what + ", " + where + ") output " + std::to_string(j), got[j],
                    want[j], bound[j]);
    }
  }

  // det and slogdet of every instance of a (batch of n x n, broadcast already) against det_ref.
  void expect_det(const Array& call_in, const Array& a, int n, bool slogdet_too = true) const {
    const auto av = vals(a.copy());
    const int batch = static_cast<int>(av.size()) / (n * n);
    std::vector<C> d, sign, logabs;
    for (int b = 0; b < batch; ++b) {
      const C v = det_ref({av.begin() + b * n * n, av.begin() + (b + 1) * n * n}, n);
      d.push_back(v);
      sign.push_back(v == C(0) ? C(0) : v / std::abs(v));
      logabs.emplace_back(v == C(0) ? -INFINITY : std::log(std::abs(v)));
    }
    const std::string what = "n " + std::to_string(n);
    if (n <= 17) {  // |det| of larger ones nears float32's range: slogdet covers them
      expect_ref("det", {call_in}, {d}, {tol(n, hadamard(av, batch, n))}, what);
    }
    if (slogdet_too) {
      long double big = 0;
      for (const auto& l : logabs) big = std::max(big, std::fabs(l.real()));
      expect_ref("slogdet", {call_in}, {sign, logabs}, {tol(n), tol(n, n + big)}, what);
    }
  }
  // inv: inv(a) a = I for every instance.
  void expect_inv(const Array& call_in, const Array& a, int n) const {
    const auto av = vals(a.copy());
    const int batch = static_cast<int>(av.size()) / (n * n);
    for (const auto& [where, got] : both("inv", {call_in})) {
      const auto iv = vals(got[0]);
      ASSERT_EQ(iv.size(), av.size()) << where;
      for (int b = 0; b < batch; ++b) {
        const auto p = matmul(&iv[b * n * n], &av[b * n * n], n, n, n);
        for (int e = 0; e < n * n; ++e)
          EXPECT_LE(std::abs(p[e] - C(e % (n + 1) == 0 ? 1 : 0)), tol(n, 4))
              << "inv(a) a, " << where << ", n " << n << " instance " << b << " element " << e;
      }
    }
  }
  // solve (b: batch of n x k) or solve1 (k = 0: b a batch of vectors): a x = b for every
  // instance; a and b broadcast to the call's batch already.
  void expect_solve(const std::vector<Array>& call_in, const Array& a, const Array& b, int n,
                    int k) const {
    const std::string op = k == 0 ? "solve1" : "solve";
    const int cols = k == 0 ? 1 : k;
    const auto av = vals(a.copy()), bv = vals(b.copy());
    const int batch = static_cast<int>(av.size()) / (n * n);
    for (const auto& [where, got] : both(op, call_in)) {
      const auto xv = vals(got[0]);
      ASSERT_EQ(xv.size(), bv.size()) << op << " " << where;
      for (int i = 0; i < batch; ++i) {
        const auto ax = matmul(&av[i * n * n], &xv[i * n * cols], n, n, cols);
        for (int e = 0; e < n * cols; ++e)
          EXPECT_LE(std::abs(ax[e] - bv[i * n * cols + e]), tol(n, 4 * n))
              << op << " a x = b, " << where << ", n " << n << " instance " << i;
      }
    }
  }
  // cholesky: L lower triangular and L L^H = a for every instance.
  void expect_cholesky(const Array& call_in, const Array& a, int n) const {
    const auto av = vals(a.copy());
    const int batch = static_cast<int>(av.size()) / (n * n);
    const long double scale = maxabs(av);
    for (const auto& [where, got] : both("cholesky", {call_in})) {
      const auto lv = vals(got[0]);
      ASSERT_EQ(lv.size(), av.size()) << where;
      for (int b = 0; b < batch; ++b) {
        const C* l = &lv[b * n * n];
        for (int i = 0; i < n; ++i)
          for (int j = i + 1; j < n; ++j) EXPECT_EQ(l[i * n + j], C(0)) << "L above the diagonal";
        const auto p = matmul(l, l, n, n, n, /*conj_b_t=*/true);
        for (int e = 0; e < n * n; ++e)
          EXPECT_LE(std::abs(p[e] - av[b * n * n + e]), tol(n, scale))
              << "L L^H, " << where << ", n " << n << " instance " << b << " element " << e;
      }
    }
  }
  // eigvalsh: the Jacobi eigenvalues (helpers.hpp), ascending, of every instance.
  void expect_eigvalsh(const Array& call_in, const Array& a, int n) const {
    const auto av = vals(a.copy());
    const int batch = static_cast<int>(av.size()) / (n * n);
    std::vector<C> w;
    for (int b = 0; b < batch; ++b)
      for (auto x : herm_eigvals(&av[b * n * n], n)) w.emplace_back(x);
    expect_ref("eigvalsh", {call_in}, {w}, {tol(n, maxabs(av))}, "n " + std::to_string(n));
  }
};

// Sizes on both sides of every switch: device loop (<= 8), cuBLAS / cuSOLVER (9 and above).
const int kSizes[] = {1, 2, 3, 4, 8, 9, 17, 64, 256};
int batch_for(int n) { return n >= 64 ? 2 : 5; }

Shape with_core(Shape batch, std::initializer_list<std::int64_t> core) {
  for (auto d : core) batch.push_back(d);
  return batch;
}

TEST_P(LinalgCuda, DetAndSlogdetAgainstElimination) {
  std::mt19937 g(21);
  for (int n : kSizes) {
    if (n > 17) continue;
    const Array a = matrices(g, batch_for(n), n, n, dt(), 1);
    expect_det(a, a, n, /*slogdet_too=*/false);
  }
  for (int n : kSizes) {
    const Array a = matrices(g, batch_for(n), n, n, dt(), n);
    expect_det(a, a, n);
  }
}

TEST_P(LinalgCuda, InvSolveSolve1ByTheirResiduals) {
  std::mt19937 g(22);
  for (int n : kSizes) {
    const int batch = batch_for(n);
    const Array a = matrices(g, batch, n, n, dt(), n);  // diagonally heavy: well conditioned
    expect_inv(a, a, n);
    const Array b = matrices(g, batch, n, 3, dt(), 0);
    expect_solve({a, b}, a, b, n, 3);
    const Array v = matrices(g, batch, 1, n, dt(), 0).reshape({batch, n});
    expect_solve({a, v}, a, v, n, 0);
  }
}

TEST_P(LinalgCuda, SolveBroadcastsBatchDims) {
  std::mt19937 g(23);
  for (int n : {4, 20}) {
    // a (2,1,n,n) and b (3,n,2) broadcast to (2,3,n,2); solve1 with one vector for every a.
    const Array a = matrices(g, 2, n, n, dt(), n).reshape({2, 1, n, n});
    const Array b = matrices(g, 3, n, 2, dt(), 0);
    const Shape batch{2, 3};
    expect_solve({a, b}, a.broadcast_to(with_core(batch, {n, n})),
                 b.broadcast_to(with_core(batch, {n, 2})), n, 2);
    const Array v = matrices(g, 1, 1, n, dt(), 0).reshape({n});
    expect_solve({a.reshape({2, n, n}), v}, a.reshape({2, n, n}),
                 v.broadcast_to(with_core({2}, {n})), n, 0);
    const Array ab = a.broadcast_to(with_core(batch, {n, n}));
    expect_det(ab, ab, n, /*slogdet_too=*/false);
  }
}

TEST_P(LinalgCuda, CholeskyByItsResidual) {
  std::mt19937 g(24);
  for (int n : kSizes) {
    const Array a = matrices(g, batch_for(n), n, n, dt(), 0, /*hpd=*/true);
    expect_cholesky(a, a, n);
  }
}

TEST_P(LinalgCuda, EighReconstructsAndEigvalshAgainstJacobi) {
  std::mt19937 g(25);
  for (int n : {1, 2, 3, 4, 9, 32, 33, 64}) {
    const int batch = n > 32 ? 2 : 4;
    const Array a = matrices(g, batch, n, n, dt(), 0, /*hpd=*/true);
    const auto av = vals(a);
    const long double scale = maxabs(av);
    std::vector<std::vector<long double>> ref;
    for (int b = 0; b < batch; ++b) ref.push_back(herm_eigvals(&av[b * n * n], n));
    std::vector<C> w_all;
    for (const auto& r : ref)
      for (auto x : r) w_all.emplace_back(x);
    expect_ref("eigvalsh", {a}, {w_all}, {tol(n, scale)}, "n " + std::to_string(n));
    for (const auto& [where, r] : both("eigh", {a})) {
      // The eigenvectors' signs (phases) are free: V diag(w) V^H = a and w as the reference's.
      const auto w = vals(r[0]), v = vals(r[1]);
      for (int b = 0; b < batch; ++b) {
        std::vector<C> vd(n * n);
        for (int i = 0; i < n; ++i) {
          EXPECT_LE(std::abs(w[b * n + i].real() - ref[b][i]), tol(n, scale))
              << "eigh w, " << where << ", n " << n;
          for (int j = 0; j < n; ++j) vd[i * n + j] = v[b * n * n + i * n + j] * w[b * n + j];
        }
        const auto p = matmul(vd.data(), &v[b * n * n], n, n, n, /*conj_b_t=*/true);
        for (int e = 0; e < n * n; ++e)
          EXPECT_LE(std::abs(p[e] - av[b * n * n + e]), tol(n, scale))
              << "V diag(w) V^H, " << where << ", n " << n;
      }
    }
  }
}

TEST_P(LinalgCuda, NormVecdotCrossAgainstSums) {
  std::mt19937 g(26);
  for (int n : {1, 3, 31, 32, 1000}) {  // 32 and up: a warp a vector
    const Array x = matrices(g, 6, 1, n, dt(), 0).reshape({6, n});
    const Array y = matrices(g, 6, 1, n, dt(), 0).reshape({6, n});
    for (const Array& xs : {x, x.slice(1, 0, n, 2)}) {  // contiguous and strided vectors
      const auto xv = vals(xs.copy());
      const int len = static_cast<int>(xs.shape()[1]);
      std::vector<C> norms;
      for (int b = 0; b < 6; ++b) {
        long double s = 0;
        for (int i = 0; i < len; ++i) s += std::norm(xv[b * len + i]);
        norms.emplace_back(std::sqrt(s));
      }
      expect_ref("norm", {xs}, {norms}, {tol(len, 1 + maxabs(norms))}, "n " + std::to_string(n));
    }
    const auto xv = vals(x), yv = vals(y);
    std::vector<C> dots;
    for (int b = 0; b < 6; ++b) {
      C s = 0;
      for (int i = 0; i < n; ++i) s += std::conj(xv[b * n + i]) * yv[b * n + i];
      dots.push_back(s);
    }
    expect_ref("vecdot", {x, y}, {dots}, {tol(n, n)}, "n " + std::to_string(n));
  }
  // Huge and tiny values: the norm is scaled, no overflow or underflow.
  const Array big = make({C(3e30L), C(4e30L)}, {2}, dt()),
              tiny = make({C(3e-30L), C(4e-30L)}, {2}, dt());
  expect_ref("norm", {big}, {{C(5e30L)}}, {tol(2, 5e30L)}, "huge");
  expect_ref("norm", {tiny}, {{C(5e-30L)}}, {tol(2, 5e-30L)}, "tiny");
  const Array a = matrices(g, 7, 1, 3, dt(), 0).reshape({7, 3});
  const Array b = matrices(g, 7, 1, 3, dt(), 0).reshape({7, 3});
  const auto av = vals(a), bv = vals(b);
  std::vector<C> want;
  for (int i = 0; i < 7; ++i) {
    const C* p = &av[i * 3];
    const C* q = &bv[i * 3];
    for (C z : {p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2], p[0] * q[1] - p[1] * q[0]})
      want.push_back(z);
  }
  expect_ref("cross", {a, b}, {want}, {tol(2, 2)}, "3-vectors");
}

// matmul's four forms against the product in long double: matrix @ matrix, matrix @ vector,
// vector @ matrix, vector @ vector.
TEST_P(LinalgCuda, MatmulAgainstLongDoubleProducts) {
  std::mt19937 g(27);
  for (int n : {2, 4, 15, 16, 17, 64, 256}) {
    const int batch = batch_for(n);
    const Array a = matrices(g, batch, n, n, dt(), 0), b = matrices(g, batch, n, n, dt(), 0);
    const Array v = matrices(g, 1, 1, n, dt(), 0).reshape({n});
    const auto av = vals(a), bv = vals(b), vv = vals(v);
    std::vector<C> ab, avec, vb;
    for (int i = 0; i < batch; ++i) {
      for (C z : matmul(&av[i * n * n], &bv[i * n * n], n, n, n)) ab.push_back(z);
      for (C z : matmul(&av[i * n * n], vv.data(), n, n, 1)) avec.push_back(z);
      for (C z : matmul(vv.data(), &bv[i * n * n], 1, n, n)) vb.push_back(z);
    }
    const std::vector<C> vdot = matmul(vv.data(), vv.data(), 1, n, 1);
    const std::string what = "n " + std::to_string(n);
    expect_ref("matmul", {a, b}, {ab}, {tol(n, n)}, what + ", matrix @ matrix");
    expect_ref("matmul", {a, v}, {avec}, {tol(n, n)}, what + ", matrix @ vector");
    expect_ref("matmul", {v, b}, {vb}, {tol(n, n)}, what + ", vector @ matrix");
    expect_ref("matmul", {v, v}, {vdot}, {tol(n, n)}, what + ", vector @ vector");
  }
}

TEST_P(LinalgCuda, TransposedAndStridedOperandsAgainstTheReferences) {
  std::mt19937 g(28);
  const int axes[] = {0, 2, 1};
  for (int n : {3, 8, 9, 40}) {
    const Array base = matrices(g, 6, n, n, dt(), n), pd = matrices(g, 6, n, n, dt(), 0, true);
    for (const Array& a : {base.transpose(axes), base.slice(0, 0, 6, 2)}) {
      const int batch = static_cast<int>(a.shape()[0]);
      expect_det(a, a, n, /*slogdet_too=*/false);
      expect_inv(a, a, n);
      expect_solve({a, a}, a, a, n, n);
      const auto av = vals(a.copy());
      std::vector<C> aa;
      for (int i = 0; i < batch; ++i)
        for (C z : matmul(&av[i * n * n], &av[i * n * n], n, n, n)) aa.push_back(z);
      expect_ref("matmul", {a, a}, {aa}, {tol(n, 4 * n * n)}, "n " + std::to_string(n));
    }
    for (const Array& a : {pd.transpose(axes), pd.slice(0, 1, 6, 2)}) {
      expect_cholesky(a, a, n);
      expect_eigvalsh(a, a, n);
    }
  }
}

// instance 0 singular (rank 1), instance 1 the identity, at n = 3 (device loop) and n = 20
// (cuBLAS / cuSOLVER).
TEST_P(LinalgCuda, SingularAndIndefiniteInstancesAsNumPys) {
  for (int n : {3, 20}) {
    std::vector<C> v(2 * n * n, 0);
    for (int i = 0; i < n; ++i) v[n * n + i * n + i] = 1;
    v[0] = 1;
    const Array a = make(v, {2, n, n}, dt());
    for (const auto& [where, r] : both("det", {a})) {
      EXPECT_EQ(vals(r[0])[0], C(0)) << where << " n " << n;
      EXPECT_EQ(vals(r[0])[1], C(1)) << where << " n " << n;
    }
    for (const auto& [where, r] : both("slogdet", {a})) {
      EXPECT_EQ(vals(r[0])[0], C(0)) << where << " n " << n;
      EXPECT_EQ(vals(r[1])[0].real(), -INFINITY) << where << " n " << n;
      EXPECT_EQ(vals(r[0])[1], C(1)) << where << " n " << n;
      EXPECT_EQ(vals(r[1])[1].real(), 0) << where << " n " << n;
    }
    const Array b = make(std::vector<C>(2 * n, 1), {2, n}, dt());
    for (const std::string op : {"inv", "cholesky", "solve1"}) {
      const std::vector<Array> in =
          op == "solve1" ? std::vector<Array>{a, b} : std::vector<Array>{a};
      for (const auto& [where, r] : both(op, in)) {
        const auto rv = vals(r[0]);
        const std::size_t per = rv.size() / 2;
        for (std::size_t e = 0; e < per; ++e) {
          EXPECT_TRUE(std::isnan(rv[e].real())) << op << " n " << n << " element " << e;
          const C want = op == "solve1" ? C(1) : C(e % (n + 1) == 0 ? 1 : 0);
          EXPECT_EQ(rv[per + e], want) << op << " n " << n << " element " << e;
        }
      }
    }
    // Not positive definite: -I fails at the first pivot; a singular instance of solve as well.
    const Array neg = make(std::vector<C>(n * n, 0), {n, n}, dt());
    std::vector<C> m(n * n, 0);
    for (int i = 0; i < n; ++i) m[i * n + i] = -1;
    for (auto z : vals(on("cholesky", {make(m, {n, n}, dt())})[0]))
      EXPECT_TRUE(std::isnan(z.real())) << "n " << n;
    for (auto z : vals(on("solve", {neg, make(std::vector<C>(n * 2, 1), {n, 2}, dt())})[0]))
      EXPECT_TRUE(std::isnan(z.real())) << "n " << n;
  }
}

// qr and svdvals take k = min(m, n) from their outputs: given on the host, and on the device for
// the device-array calls.
TEST_P(LinalgCuda, QrReconstructsAndSvdvalsAgainstJacobi) {
  std::mt19937 g(29);
  const int shapes[][2] = {{2, 2}, {5, 3}, {3, 5}, {1, 6}, {40, 17}, {17, 40}, {64, 64}};
  for (const auto& sh : shapes) {
    const int m = sh[0], n = sh[1], k = std::min(m, n), batch = 3;
    const Array a = matrices(g, batch, m, n, dt(), 1);
    const auto av = vals(a);
    const long double scale = 1 + maxabs(av);
    for (bool device : {false, true}) {
      const std::string where = device ? "device arrays" : "host arrays";
      auto out = [&](Shape s, DType t) {
        return device ? runtime().empty(s, t, target()) : loom::empty(s, t);
      };
      const Array in = device ? runtime().to_device(a, target()) : a;
      Array q = out({batch, m, k}, dt()), r = out({batch, k, n}, dt());
      on("qr", {in}, {q, r});
      const auto qv = vals(runtime().to_host(q)), rv = vals(runtime().to_host(r));
      for (int b = 0; b < batch; ++b) {
        const auto p = matmul(&qv[b * m * k], &rv[b * k * n], m, k, n);
        for (int e = 0; e < m * n; ++e)
          EXPECT_LE(std::abs(p[e] - av[b * m * n + e]), tol(std::max(m, n), scale))
              << where << " Q R, " << m << "x" << n << " element " << e;
        for (int i = 0; i < k; ++i)
          for (int j = 0; j < i && j < n; ++j)
            EXPECT_EQ(rv[b * k * n + i * n + j], C(0)) << where << " R below the diagonal";
        for (int i = 0; i < k; ++i)  // Q^H Q = I
          for (int j = 0; j < k; ++j) {
            C d = 0;
            for (int e = 0; e < m; ++e)
              d += std::conj(qv[b * m * k + e * k + i]) * qv[b * m * k + e * k + j];
            EXPECT_LE(std::abs(d - C(i == j ? 1 : 0)), tol(m)) << where << " Q^H Q";
          }
      }
      Array sv = out({batch, k}, real_of(dt()));
      on("svdvals", {in}, {sv});
      const auto gv = vals(runtime().to_host(sv));
      for (int b = 0; b < batch; ++b) {  // the Jacobi reference (helpers.hpp)
        const auto want = svdvals_ref(&av[b * m * n], m, n);
        for (int i = 0; i < k; ++i)
          EXPECT_LE(std::abs(gv[b * k + i].real() - want[i]),
                    sv_tol(dt(), want[0], m, n) + sv_ref_error(want[i], want[0], m, n))
              << where << " svdvals " << m << "x" << n << " instance " << b << " value " << i;
      }
    }
  }
  // Outputs of another size than k = min(m, n): a ShapeError naming the shape, as on the host
  // (issue 28; the outputs were all-NaN before), and the outputs left as they were.
  const Array a = matrices(g, 1, 4, 3, dt(), 1).reshape({4, 3});
  Array q = loom::full({4, 2}, 7.0).astype(dt()), r = loom::full({2, 3}, 7.0).astype(dt());
  EXPECT_THROW(on("qr", {a}, {q, r}), loom::ShapeError);
  for (auto z : vals(q)) EXPECT_EQ(z, C(7));
  for (auto z : vals(r)) EXPECT_EQ(z, C(7));
  Array s = loom::full({2}, 7.0).astype(real_of(dt()));
  EXPECT_THROW(on("svdvals", {a}, {s}), loom::ShapeError);
  for (auto z : vals(s)) EXPECT_EQ(z, C(7));
}

const DType kTypes[] = {DType::float32, DType::float64, DType::complex64, DType::complex128};
std::string name_of(const ::testing::TestParamInfo<std::tuple<std::string, DType>>& i) {
  return std::get<0>(i.param) + "_" + std::string(loom::name(std::get<1>(i.param)));
}
INSTANTIATE_TEST_SUITE_P(AllTypes, LinalgCuda,
                         ::testing::Combine(::testing::Values("cuda"), ::testing::ValuesIn(kTypes)),
                         name_of);
// The same checks on cpu: the references and the checks themselves run where there is no GPU.
INSTANTIATE_TEST_SUITE_P(Cpu, LinalgCuda,
                         ::testing::Combine(::testing::Values("cpu"), ::testing::ValuesIn(kTypes)),
                         name_of);

}  // namespace
