// Making distributed arrays and getting them back: scatter, gather, allgather, from_local, zeros.
#include "dist_test_util.hpp"

namespace loom::dist {
namespace {

using test::rt;
using test::same_bits;
using test::world;

TEST(Scatter, GatherGivesBackTheRootsArrayOnTheRoot) {
  const loom::Array g = test::global_f64(37, 3);
  for (int root = 0; root < world().size(); ++root) {
    const DistArray d = scatter(rt(), world(), world().rank() == root ? g : loom::Array(),
                                {.root = root, .target = "cpu"});
    EXPECT_EQ(d.shape(), (Shape{37, 3}));
    EXPECT_EQ(d.rows(), block_rows(37, world().size(), world().rank()));
    EXPECT_EQ(d.local().shape(), (Shape{d.rows().size(), 3}));
    EXPECT_TRUE(same_bits(d.local(), g.slice(0, d.rows().begin, d.rows().end)));
    const loom::Array back = gather(rt(), d, root);
    if (world().rank() == root) {
      EXPECT_TRUE(same_bits(back, g));
    } else {
      EXPECT_FALSE(back.valid());
    }
  }
}

TEST(Scatter, AllgatherGivesTheWholeArrayEverywhere) {
  const loom::Array g = test::global_i64(11);
  const DistArray d = scatter(rt(), world(), g, {.target = test::parallel_or_cpu()});
  EXPECT_EQ(d.target(), test::parallel_or_cpu());
  EXPECT_TRUE(same_bits(allgather(rt(), d), g));
}

TEST(Scatter, FewerRowsThanRanksAndEmptyArrays) {
  for (std::int64_t n : {0, 1, 3}) {
    const loom::Array g = test::global_f64(n, 2);
    const DistArray d = scatter(rt(), world(), g);
    EXPECT_EQ(d.local().shape()[0], block_rows(n, world().size(), world().rank()).size());
    EXPECT_TRUE(same_bits(allgather(rt(), d), g));
  }
}

TEST(Scatter, StridedRootArrayIsSentInCOrder) {
  const loom::Array g = test::global_f64(8, 6).transpose();  // (6, 8), not C-contiguous
  const DistArray d = scatter(rt(), world(), g);
  EXPECT_TRUE(same_bits(allgather(rt(), d), g.copy()));
}

TEST(FromLocal, ShardsOfTheBlockSplitMakeOneArray) {
  const Rows r = block_rows(21, world().size(), world().rank());
  const loom::Array g = test::global_i64(21, 4);
  const DistArray d = from_local(rt(), world(), g.slice(0, r.begin, r.end));
  EXPECT_EQ(d.shape(), (Shape{21, 4}));
  EXPECT_TRUE(same_bits(allgather(rt(), d), g));
}

TEST(FromLocal, RowCountsOffTheSplitAreAnErrorOnEveryRank) {
  // Every rank brings 1 row, rank 0 three: 3 + (p - 1) rows split differently.
  const loom::Array local = loom::zeros({world().rank() == 0 ? 3 : 1, 2});
  if (world().size() == 1) GTEST_SKIP() << "needs two ranks";
  EXPECT_RAISES(from_local(rt(), world(), local), DistributionError,
                "the ranks hold 3, 1.* rows, but the block split of \\d+ rows over \\d+ ranks is");
}

TEST(FromLocal, ShardsOfDifferentWidthsAreAnErrorOnEveryRank) {
  if (world().size() == 1) GTEST_SKIP() << "needs two ranks";
  const loom::Array local = loom::zeros({2, world().rank() == 1 ? 4 : 3});
  EXPECT_RAISES(from_local(rt(), world(), local), DistributionError,
                "rank 0 has float64 \\(0, 3\\), rank 1 has float64 \\(0, 4\\)");
}

TEST(Zeros, EveryRankHoldsItsRowsOfZeros) {
  const DistArray z = zeros(rt(), world(), {9, 2}, DType::int32);
  EXPECT_EQ(z.local().shape(), (Shape{z.rows().size(), 2}));
  EXPECT_TRUE(same_bits(allgather(rt(), z), loom::zeros({9, 2}, DType::int32)));
}

TEST(Scatter, AnUnknownTargetOnOneRankIsAnErrorOnEveryRank) {
  if (world().size() == 1) GTEST_SKIP() << "needs two ranks";
  const std::string t = world().rank() == 1 ? "warp9" : "cpu";
  try {
    scatter(rt(), world(), test::global_f64(5), {.target = t});
    ADD_FAILURE() << "no error";
  } catch (const RemoteError& e) {
    EXPECT_NE(world().rank(), 1);
    EXPECT_EQ(e.rank(), 1);
    EXPECT_TRUE(std::string(e.what()).find("unknown target 'warp9'") != std::string::npos)
        << e.what();
  } catch (const TargetError& e) {
    EXPECT_EQ(world().rank(), 1) << e.what();
  }
}

TEST(Scatter, ACudaTargetIsLoomsToResolve) {
  // cuda:N is passed to the runtime as any target: here (no GPU in CI) its TargetError, on every
  // rank; on a GPU machine the shards would be device arrays.
  bool cuda = false;
  for (const auto& t : rt().targets()) cuda = cuda || (t.target == "cuda" && t.available);
  if (cuda) GTEST_SKIP() << "a GPU is here; tests/dist runs host targets only";
  EXPECT_RAISES(scatter(rt(), world(), test::global_f64(4), {.target = "cuda:0"}), TargetError,
                "cuda");
}

}  // namespace
}  // namespace loom::dist
