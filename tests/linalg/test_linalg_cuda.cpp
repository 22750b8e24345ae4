// plugins/linalg's CUDA half against its host half: every op on cuda, with host arrays and with
// device arrays, gives cpu's result within the dtype's tolerance, on both sides of the switch from
// the device loops (n <= 8) to cuBLAS / cuSOLVER (n = 9, 17, 64, 256; eigh's Jacobi up to 32 and
// syevd above), on broadcast batch dims, transposed and strided operands, and the singular and
// indefinite instances (NaN, 0 and -inf where the host gives them); qr and svdvals (cuSOLVER, one
// matrix after another) by Q R = a, Q^H Q = I and cpu's singular values. Without a GPU every test
// skips with the reason.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "helpers.hpp"
#include "loom/loom.hpp"

namespace {

using namespace linalg_test;

class LinalgCuda : public ::testing::TestWithParam<DType> {
 protected:
  void SetUp() override {
    if (auto why = unavailable("cuda")) GTEST_SKIP() << *why;
  }
  DType dt() const { return GetParam(); }
  long double tol(int n, long double scale = 1) const { return 64 * (n + 1) * eps(dt()) * scale; }

  static std::vector<Array> on(const std::string& target, const std::string& op,
                               const std::vector<Array>& in, const std::vector<Array>& out = {}) {
    return runtime().ufunc(op).call(in, {.target = target, .out = out});
  }
  // op on cuda with device arrays: the inputs moved first, the results device arrays, brought back.
  static std::vector<Array> on_device(const std::string& op, const std::vector<Array>& in) {
    std::vector<Array> d;
    for (const auto& a : in) d.push_back(runtime().to_device(a, "cuda"));
    std::vector<Array> r = on("cuda", op, d), h;
    for (const auto& a : r) {
      EXPECT_FALSE(a.device().is_host()) << op << ": a call on device arrays gives device arrays";
      h.push_back(runtime().to_host(a));
    }
    return h;
  }

  // Every output of op on cuda (host arrays, then device arrays) within tol(n, scale(j)) of cpu's,
  // NaN where cpu has NaN, the same infinities.
  template <class Scale>
  void expect_like_cpu(const std::string& op, const std::vector<Array>& in, int n, Scale scale) {
    const auto want = on("cpu", op, in);
    for (const auto& got : {on("cuda", op, in), on_device(op, in)}) {
      ASSERT_EQ(got.size(), want.size());
      for (std::size_t j = 0; j < want.size(); ++j) {
        ASSERT_EQ(got[j].shape(), want[j].shape()) << op << " output " << j;
        ASSERT_EQ(got[j].dtype(), want[j].dtype()) << op << " output " << j;
        const auto g = vals(got[j]), w = vals(want[j]);
        const long double bound = tol(n, scale(static_cast<int>(j), w));
        for (std::size_t i = 0; i < w.size(); ++i) {
          if (std::isnan(w[i].real())) {
            EXPECT_TRUE(std::isnan(g[i].real())) << op << " output " << j << " element " << i;
          } else if (std::isinf(w[i].real())) {
            // Overflow: the same infinity, and an imaginary part equal or NaN on both (NaN != NaN).
            const auto same = [](long double x, long double y) {
              return x == y || (std::isnan(x) && std::isnan(y));
            };
            EXPECT_TRUE(same(g[i].real(), w[i].real()) && same(g[i].imag(), w[i].imag()))
                << op << " output " << j << " element " << i << ": cuda " << g[i] << ", cpu "
                << w[i];
          } else {
            EXPECT_LE(std::abs(g[i] - w[i]), bound)
                << op << " n " << n << " output " << j << " element " << i << ": cuda " << g[i]
                << ", cpu " << w[i];
          }
        }
      }
    }
  }
  void expect_like_cpu(const std::string& op, const std::vector<Array>& in, int n) {
    expect_like_cpu(op, in, n, [](int, const std::vector<C>& w) { return 1 + maxabs(w); });
  }
};

// Sizes on both sides of every switch: device loop (<= 8), cuBLAS / cuSOLVER (9 and above).
const int kSizes[] = {1, 2, 3, 4, 8, 9, 17, 64, 256};
int batch_for(int n) { return n >= 64 ? 2 : 5; }

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

TEST_P(LinalgCuda, DetAndSlogdetLikeCpu) {
  std::mt19937 g(21);
  for (int n : kSizes) {
    if (n > 17) continue;  // |det| of larger ones nears float32's range: slogdet covers them
    const int batch = batch_for(n);
    const Array a = matrices(g, batch, n, n, dt(), 1);
    const long double h = hadamard(vals(a), batch, n);
    expect_like_cpu("det", {a}, n, [&](int, const std::vector<C>&) { return h; });
  }
  for (int n : kSizes) {
    const Array a = matrices(g, batch_for(n), n, n, dt(), n);
    expect_like_cpu("slogdet", {a}, n,
                    [&](int j, const std::vector<C>& w) { return j == 0 ? 1 : n + maxabs(w); });
  }
}

TEST_P(LinalgCuda, InvSolveSolve1LikeCpu) {
  std::mt19937 g(22);
  for (int n : kSizes) {
    const int batch = batch_for(n);
    const Array a = matrices(g, batch, n, n, dt(), n);  // diagonally heavy: well conditioned
    expect_like_cpu("inv", {a}, n, [&](int, const std::vector<C>& w) { return 4 * n * maxabs(w); });
    const Array b = matrices(g, batch, n, 3, dt(), 0);
    expect_like_cpu("solve", {a, b}, n,
                    [&](int, const std::vector<C>& w) { return 4 * n * maxabs(w); });
    const Array v = matrices(g, batch, 1, n, dt(), 0).reshape({batch, n});
    expect_like_cpu("solve1", {a, v}, n,
                    [&](int, const std::vector<C>& w) { return 4 * n * maxabs(w); });
  }
}

TEST_P(LinalgCuda, SolveBroadcastsBatchDims) {
  std::mt19937 g(23);
  for (int n : {4, 20}) {
    // a (2,1,n,n) and b (3,n,2) broadcast to (2,3,n,2); solve1 with one vector for every a.
    const Array a = matrices(g, 2, n, n, dt(), n).reshape({2, 1, n, n});
    const Array b = matrices(g, 3, n, 2, dt(), 0);
    expect_like_cpu("solve", {a, b}, n,
                    [&](int, const std::vector<C>& w) { return 4 * n * maxabs(w); });
    const Array v = matrices(g, 1, 1, n, dt(), 0).reshape({n});
    expect_like_cpu("solve1", {a, v}, n,
                    [&](int, const std::vector<C>& w) { return 4 * n * maxabs(w); });
    expect_like_cpu("det", {a.broadcast_to({2, 3, n, n})}, n,
                    [&](int, const std::vector<C>&) { return hadamard(vals(a), 2, n); });
  }
}

TEST_P(LinalgCuda, CholeskyLikeCpu) {
  std::mt19937 g(24);
  for (int n : kSizes) {
    const Array a = matrices(g, batch_for(n), n, n, dt(), 0, /*hpd=*/true);
    expect_like_cpu("cholesky", {a}, n);
  }
}

TEST_P(LinalgCuda, EighReconstructsAndEigvalshLikeCpu) {
  std::mt19937 g(25);
  for (int n : {1, 2, 3, 4, 9, 32, 33, 64}) {
    const int batch = n > 32 ? 2 : 4;
    const Array a = matrices(g, batch, n, n, dt(), 0, /*hpd=*/true);
    const auto av = vals(a);
    const long double scale = maxabs(av);
    expect_like_cpu("eigvalsh", {a}, n, [&](int, const std::vector<C>&) { return scale; });
    for (const auto& r : {on("cuda", "eigh", {a}), on_device("eigh", {a})}) {
      // The eigenvectors' signs (phases) are free: V diag(w) V^H = a and w as cpu's.
      const auto w = vals(r[0]), v = vals(r[1]), wc = vals(on("cpu", "eigvalsh", {a})[0]);
      for (int b = 0; b < batch; ++b) {
        std::vector<C> vd(n * n);
        for (int i = 0; i < n; ++i) {
          EXPECT_LE(std::abs(w[b * n + i] - wc[b * n + i]), tol(n, scale)) << "n " << n;
          for (int j = 0; j < n; ++j) vd[i * n + j] = v[b * n * n + i * n + j] * w[b * n + j];
        }
        const auto p = matmul(vd.data(), &v[b * n * n], n, n, n, /*conj_b_t=*/true);
        for (int e = 0; e < n * n; ++e)
          EXPECT_LE(std::abs(p[e] - av[b * n * n + e]), tol(n, scale)) << "n " << n;
      }
    }
  }
}

TEST_P(LinalgCuda, NormVecdotCrossLikeCpu) {
  std::mt19937 g(26);
  for (int n : {1, 3, 31, 32, 1000}) {  // 32 and up: a warp a vector
    const Array x = matrices(g, 6, 1, n, dt(), 0).reshape({6, n});
    const Array y = matrices(g, 6, 1, n, dt(), 0).reshape({6, n});
    expect_like_cpu("norm", {x}, n);
    expect_like_cpu("vecdot", {x, y}, n, [&](int, const std::vector<C>&) { return n; });
    expect_like_cpu("norm", {x.slice(1, 0, n, 2)}, n);  // strided vectors
  }
  // Huge and tiny values: the norm is scaled, no overflow or underflow.
  const Array big = make({C(3e30L), C(4e30L)}, {2}, dt()),
              tiny = make({C(3e-30L), C(4e-30L)}, {2}, dt());
  EXPECT_LE(std::abs(vals(on("cuda", "norm", {big})[0])[0] - C(5e30L)), tol(2, 5e30L));
  EXPECT_LE(std::abs(vals(on("cuda", "norm", {tiny})[0])[0] - C(5e-30L)), tol(2, 5e-30L));
  const Array a = matrices(g, 7, 1, 3, dt(), 0).reshape({7, 3});
  const Array b = matrices(g, 7, 1, 3, dt(), 0).reshape({7, 3});
  expect_like_cpu("cross", {a, b}, 2);
}

TEST_P(LinalgCuda, MatmulLikeCpuOnBothPaths) {
  std::mt19937 g(27);
  for (int n : {2, 4, 15, 16, 17, 64, 256}) {
    const int batch = batch_for(n);
    const Array a = matrices(g, batch, n, n, dt(), 0), b = matrices(g, batch, n, n, dt(), 0);
    expect_like_cpu("matmul", {a, b}, n, [&](int, const std::vector<C>&) { return n; });
    const Array v = matrices(g, 1, 1, n, dt(), 0).reshape({n});
    expect_like_cpu("matmul", {a, v}, n, [&](int, const std::vector<C>&) { return n; });
    expect_like_cpu("matmul", {v, b}, n, [&](int, const std::vector<C>&) { return n; });
    expect_like_cpu("matmul", {v, v}, n, [&](int, const std::vector<C>&) { return n; });
  }
}

TEST_P(LinalgCuda, TransposedAndStridedOperandsLikeCpu) {
  std::mt19937 g(28);
  const int axes[] = {0, 2, 1};
  for (int n : {3, 8, 9, 40}) {
    const Array base = matrices(g, 6, n, n, dt(), n), pd = matrices(g, 6, n, n, dt(), 0, true);
    for (const Array& a : {base.transpose(axes), base.slice(0, 0, 6, 2)}) {
      expect_like_cpu("det", {a}, n, [&](int, const std::vector<C>&) {
        return hadamard(vals(a.copy()), static_cast<int>(a.shape()[0]), n);
      });
      expect_like_cpu("inv", {a}, n,
                      [&](int, const std::vector<C>& w) { return 4 * n * maxabs(w); });
      expect_like_cpu("solve", {a, a}, n,
                      [&](int, const std::vector<C>& w) { return 4 * n * maxabs(w); });
      expect_like_cpu("matmul", {a, a}, n, [&](int, const std::vector<C>&) { return 4 * n * n; });
    }
    for (const Array& a : {pd.transpose(axes), pd.slice(0, 1, 6, 2)}) {
      expect_like_cpu("cholesky", {a}, n);
      expect_like_cpu("eigvalsh", {a}, n,
                      [&](int, const std::vector<C>&) { return maxabs(vals(a.copy())); });
    }
  }
}

// instance 0 singular (rank 1), instance 1 the identity, at n = 3 (device loop) and n = 20
// (cuBLAS / cuSOLVER).
TEST_P(LinalgCuda, SingularAndIndefiniteInstancesAsTheHost) {
  for (int n : {3, 20}) {
    std::vector<C> v(2 * n * n, 0);
    for (int i = 0; i < n; ++i) v[n * n + i * n + i] = 1;
    v[0] = 1;
    const Array a = make(v, {2, n, n}, dt());
    for (const auto& r : {on("cuda", "det", {a}), on_device("det", {a})}) {
      EXPECT_EQ(vals(r[0])[0], C(0)) << "n " << n;
      EXPECT_EQ(vals(r[0])[1], C(1)) << "n " << n;
    }
    for (const auto& r : {on("cuda", "slogdet", {a}), on_device("slogdet", {a})}) {
      EXPECT_EQ(vals(r[0])[0], C(0)) << "n " << n;
      EXPECT_EQ(vals(r[1])[0].real(), -INFINITY) << "n " << n;
      EXPECT_EQ(vals(r[0])[1], C(1)) << "n " << n;
      EXPECT_EQ(vals(r[1])[1].real(), 0) << "n " << n;
    }
    const Array b = make(std::vector<C>(2 * n, 1), {2, n}, dt());
    for (const std::string op : {"inv", "cholesky", "solve1"}) {
      const std::vector<Array> in =
          op == "solve1" ? std::vector<Array>{a, b} : std::vector<Array>{a};
      for (const auto& r : {on("cuda", op, in), on_device(op, in)}) {
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
    for (auto z : vals(on("cuda", "cholesky", {make(m, {n, n}, dt())})[0]))
      EXPECT_TRUE(std::isnan(z.real())) << "n " << n;
    for (auto z : vals(on("cuda", "solve", {neg, make(std::vector<C>(n * 2, 1), {n, 2}, dt())})[0]))
      EXPECT_TRUE(std::isnan(z.real())) << "n " << n;
  }
}

// qr and svdvals take k = min(m, n) from their outputs: given on the host, and on the device for
// the device-array calls.
TEST_P(LinalgCuda, QrReconstructsAndSvdvalsLikeCpu) {
  std::mt19937 g(29);
  const int shapes[][2] = {{2, 2}, {5, 3}, {3, 5}, {1, 6}, {40, 17}, {17, 40}, {64, 64}};
  for (const auto& sh : shapes) {
    const int m = sh[0], n = sh[1], k = std::min(m, n), batch = 3;
    const Array a = matrices(g, batch, m, n, dt(), 1);
    const auto av = vals(a);
    const long double scale = 1 + maxabs(av);
    for (bool device : {false, true}) {
      const std::string where = device ? "cuda" : "host";
      auto out = [&](Shape s, DType t) {
        return device ? runtime().empty(s, t, "cuda") : loom::empty(s, t);
      };
      const Array in = device ? runtime().to_device(a, "cuda") : a;
      Array q = out({batch, m, k}, dt()), r = out({batch, k, n}, dt());
      on("cuda", "qr", {in}, {q, r});
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
      on("cuda", "svdvals", {in}, {sv});
      Array want = loom::empty({batch, k}, real_of(dt()));
      on("cpu", "svdvals", {a}, {want});
      const auto gv = vals(runtime().to_host(sv)), wv = vals(want);
      for (std::size_t i = 0; i < wv.size(); ++i)
        EXPECT_LE(std::abs(gv[i] - wv[i]), tol(std::max(m, n), scale))
            << where << " svdvals " << m << "x" << n << " element " << i;
    }
  }
  // Outputs of another size than k = min(m, n): a ShapeError naming the shape, as on the host
  // (issue 28; the outputs were all-NaN before), and the outputs left as they were.
  const Array a = matrices(g, 1, 4, 3, dt(), 1).reshape({4, 3});
  Array q = loom::full({4, 2}, 7.0).astype(dt()), r = loom::full({2, 3}, 7.0).astype(dt());
  EXPECT_THROW(on("cuda", "qr", {a}, {q, r}), loom::ShapeError);
  for (auto z : vals(q)) EXPECT_EQ(z, C(7));
  for (auto z : vals(r)) EXPECT_EQ(z, C(7));
  Array s = loom::full({2}, 7.0).astype(real_of(dt()));
  EXPECT_THROW(on("cuda", "svdvals", {a}, {s}), loom::ShapeError);
  for (auto z : vals(s)) EXPECT_EQ(z, C(7));
}

INSTANTIATE_TEST_SUITE_P(AllTypes, LinalgCuda,
                         ::testing::Values(DType::float32, DType::float64, DType::complex64,
                                           DType::complex128),
                         [](const auto& i) { return std::string(loom::name(i.param)); });

}  // namespace
