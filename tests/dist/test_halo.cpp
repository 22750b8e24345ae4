// Halo exchange: each rank's halo rows are its neighbours' boundary rows; a Jacobi step on the
// rows with halos equals the one-process step.
#include "dist_test_util.hpp"

namespace loom::dist {
namespace {

using test::rt;
using test::same_bits;
using test::world;

TEST(Halo, HaloRowsAreTheNeighboursRows) {
  const loom::Array g = test::global_f64(40, 3);
  for (int w : {1, 2}) {
    const DistArray d = scatter(rt(), world(), g);
    exchange_halo(rt(), d, w);
    ASSERT_EQ(d.halo(), w);
    const Rows r = d.rows();
    const loom::Array h = d.with_halo();
    EXPECT_EQ(h.shape()[0], r.size() + 2 * w);
    EXPECT_TRUE(same_bits(d.local(), g.slice(0, r.begin, r.end)));
    if (world().rank() > 0) {
      EXPECT_TRUE(same_bits(h.slice(0, 0, w), g.slice(0, r.begin - w, r.begin)));
    }
    if (world().rank() < world().size() - 1) {
      EXPECT_TRUE(
          same_bits(h.slice(0, w + r.size(), 2 * w + r.size()), g.slice(0, r.end, r.end + w)));
    }
    // The global edges' halo rows are left alone (zeros from the new storage).
    if (world().rank() == 0) {
      EXPECT_TRUE(same_bits(h.slice(0, 0, w), loom::zeros({w, 3})));
    }
  }
}

TEST(Halo, ANarrowerExchangeKeepsTheStorage) {
  const DistArray d = scatter(rt(), world(), test::global_i64(30));
  exchange_halo(rt(), d, 2);
  const char* storage = d.with_halo().data();
  exchange_halo(rt(), d, 1);
  EXPECT_EQ(d.with_halo().data(), storage);
  EXPECT_EQ(d.halo(), 2);
}

// One Jacobi step of the 1-d heat equation, u'[i] = (u[i-1] + u[i+1]) / 2 inside, edges fixed,
// on rows with halos of width 1 (what loom-dist-demo does in 2-d).
loom::Array jacobi_rows(const loom::Array& with_halo, std::int64_t m) {
  const loom::Ufunc add = rt().ufunc("add");
  return rt().ufunc("multiply")(add(with_halo.slice(0, 0, m), with_halo.slice(0, 2, m + 2)), 0.5);
}

TEST(Halo, JacobiStepsEqualTheOneProcessSteps) {
  const std::int64_t n = 50;
  loom::Array g = test::global_f64(n);
  const DistArray d = scatter(rt(), world(), g);
  for (int step = 0; step < 5; ++step) {
    exchange_halo(rt(), d, 1);
    const Rows r = d.rows();
    loom::Array next = jacobi_rows(d.with_halo(), r.size());
    // The global edges keep their values.
    if (r.begin == 0) next.slice(0, 0, 1).fill(g.at<double>(0));
    if (r.end == n) next.slice(0, -1, r.size()).fill(g.at<double>(n - 1));
    rt().copy_to(next, d.local());
    // One process: the same step on the whole array.
    loom::Array whole = loom::zeros({n + 2});
    rt().copy_to(g, whole.slice(0, 1, n + 1));
    loom::Array gn = jacobi_rows(whole, n);
    gn.slice(0, 0, 1).fill(g.at<double>(0));
    gn.slice(0, -1, n).fill(g.at<double>(n - 1));
    g = gn;
  }
  EXPECT_TRUE(same_bits(allgather(rt(), d), g));
}

TEST(Halo, AWidthBeyondARanksRowsIsAnErrorOnEveryRank) {
  if (world().size() == 1) GTEST_SKIP() << "needs two ranks";
  const DistArray d = scatter(rt(), world(), test::global_f64(2 * world().size() + 1));
  EXPECT_RAISES(exchange_halo(rt(), d, 3), DistributionError,
                "width 3 needs every rank to own at least 3 rows, but rank \\d+ owns 2");
}

}  // namespace
}  // namespace loom::dist
