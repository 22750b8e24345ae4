// Reductions of distributed arrays: over axis 0 the same result on every rank, the one-process
// bits for integers, rank-count-independent bits for floats in blocks; over other axes local.
#include <algorithm>

#include "dist_test_util.hpp"

namespace loom::dist {
namespace {

using test::rt;
using test::same_bits;
using test::world;

TEST(Reduce, IntegerSumMaxMinEqualTheOneProcessBits) {
  const loom::Array g = test::global_i64(1001, 3);
  const DistArray d = scatter(rt(), world(), g, {.target = test::parallel_or_cpu()});
  for (const char* op : {"sum", "max", "min", "prod"}) {
    for (const Axes& ax : {Axes(), Axes(0), Axes({0, 1})}) {
      for (Order order : {Order::automatic, Order::ranks, Order::blocks}) {
        const loom::Array got = Reduce(rt(), op)(d, {.axis = ax, .order = order});
        EXPECT_TRUE(same_bits(got, rt().reduce(op)(g, {.axis = ax}))) << op;
      }
    }
  }
}

TEST(Reduce, Int32SumPromotesAsOneProcess) {
  const loom::Array g = test::global_i64(500).astype(DType::int32);
  const loom::Array got = Reduce(rt(), "sum")(scatter(rt(), world(), g));
  EXPECT_TRUE(same_bits(got, rt().reduce("sum")(g)));
  EXPECT_EQ(got.dtype(), DType::int64);
}

TEST(Reduce, FloatSumInBlocksHasTheBitsOfOneProcessForAnyRankCount) {
  // 300K rows: 5 blocks of 65536 rows, which the ranks' boundaries cut.
  const loom::Array g = test::global_f64(300'000).astype(DType::float32);
  for (const std::string& t : std::vector<std::string>{"cpu", test::parallel_or_cpu()}) {
    const DistArray d = scatter(rt(), world(), g, {.target = t});
    const Reduce sum(rt(), "sum");
    const loom::Array got = sum(d);
    EXPECT_EQ(got.dtype(), DType::float32);
    EXPECT_TRUE(same_bits(got, blocked_reduce(sum, g, {}, t))) << t;
    // As accurate as the one-process sum (both are pairwise within blocks).
    const double one = rt().reduce("sum")(g, {.target = "cpu"}).item<double>();
    EXPECT_NEAR(got.item<float>(), one, 1e-5 * std::abs(one) + 1e-3);
  }
}

TEST(Reduce, FloatSumOfA2dArrayOverAxis0InBlocks) {
  const loom::Array g = test::global_f64(3001, 40);
  const Reduce sum(rt(), "sum");
  const DistArray d = scatter(rt(), world(), g);
  EXPECT_TRUE(same_bits(sum(d, {.axis = 0}), blocked_reduce(sum, g, {.axis = 0})));
  EXPECT_TRUE(same_bits(sum(d, {.axis = 0, .keepdims = true}),
                        blocked_reduce(sum, g, {.axis = 0, .keepdims = true})));
  EXPECT_EQ(sum(d, {.axis = 0, .keepdims = true}).shape(), (Shape{1, 40}));
}

TEST(Reduce, FloatSumInRankOrderIsTheSameRunToRun) {
  const loom::Array g = test::global_f64(100'003);
  const DistArray d = scatter(rt(), world(), g);
  const Reduce sum(rt(), "sum");
  const loom::Array first = sum(d, {.order = Order::ranks});
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(same_bits(sum(d, {.order = Order::ranks}), first));
  EXPECT_NEAR(first.item<double>(), rt().reduce("sum")(g).item<double>(), 1e-9);
}

TEST(Reduce, EveryRankGetsTheSameBits) {
  const loom::Array g = test::global_f64(200'001);
  const loom::Array mine = Reduce(rt(), "sum")(scatter(rt(), world(), g));
  const DistArray all = from_local(rt(), world(), mine.reshape({1}));
  const loom::Array every = allgather(rt(), all);
  for (int r = 0; r < world().size(); ++r) {
    EXPECT_EQ(std::memcmp(every.data() + r * 8, mine.data(), 8), 0) << "rank " << r;
  }
}

TEST(Reduce, InitialIsCountedOnce) {
  const loom::Array g = test::global_i64(77);
  const DistArray d = scatter(rt(), world(), g);
  EXPECT_TRUE(same_bits(Reduce(rt(), "sum")(d, {.initial = 1000}),
                        rt().reduce("sum")(g, {.initial = 1000})));
  EXPECT_TRUE(same_bits(Reduce(rt(), "max")(d, {.initial = std::int64_t{600000}}),
                        rt().reduce("max")(g, {.initial = std::int64_t{600000}})));
}

TEST(Reduce, FewerRowsThanRanksAndZeroRows) {
  for (std::int64_t n : {0, 1, 3}) {
    const loom::Array g = test::global_i64(n, 2);
    EXPECT_TRUE(same_bits(Reduce(rt(), "sum")(scatter(rt(), world(), g), {.axis = 0}),
                          rt().reduce("sum")(g, {.axis = 0})))
        << n;
  }
  // max of nothing has no identity: the one-process error, on every rank.
  EXPECT_RAISES(Reduce(rt(), "max")(scatter(rt(), world(), loom::zeros({0}))), ValueError,
                "identity");
}

TEST(Reduce, UfuncReduceMethodDefaultsToAxis0) {
  const loom::Array g = test::global_i64(40, 3);
  const loom::Array got = Reduce::method(rt(), "add")(scatter(rt(), world(), g));
  EXPECT_TRUE(same_bits(got, rt().ufunc("add").reduce(g)));
  EXPECT_EQ(got.shape(), (Shape{3}));
}

TEST(Reduce, OverOtherAxesStaysDistributed) {
  const loom::Array g = test::global_f64(31, 6);
  const DistArray r = Reduce(rt(), "sum").local(scatter(rt(), world(), g), {.axis = 1});
  EXPECT_EQ(r.shape(), (Shape{31}));
  EXPECT_TRUE(same_bits(allgather(rt(), r), rt().reduce("sum")(g, {.axis = 1})));
}

TEST(Reduce, ANonReorderableOpOverAxis0IsAnErrorOnEveryRank) {
  const DistArray d = scatter(rt(), world(), test::global_f64(8));
  EXPECT_RAISES(
      Reduce::method(rt(), "subtract")(d), ValueError,
      "'subtract.reduce' is not reorderable.*gather\\(\\) the array and reduce it on one rank");
}

TEST(Reduce, AxesWithoutAxis0AskForLocal) {
  const DistArray d = scatter(rt(), world(), test::global_f64(8, 2));
  EXPECT_RAISES(Reduce(rt(), "sum")(d, {.axis = 1}), ValueError, "call Reduce::local");
  EXPECT_RAISES(Reduce(rt(), "sum").local(d, {.axis = 0}), ValueError, "call the Reduce itself");
}

TEST(Reduce, DifferentAxesOnDifferentRanksAreAnErrorOnEveryRank) {
  if (world().size() == 1) GTEST_SKIP() << "needs two ranks";
  const DistArray d = scatter(rt(), world(), test::global_f64(8, 2));
  EXPECT_RAISES(Reduce(rt(), "sum")(d, {.axis = world().rank() == 0 ? Axes(0) : Axes({0, 1})}),
                DistributionError,
                "ranks disagree on the call: rank 0 has sum of float64 \\(8, 2\\) "
                "over axes \\(0,\\)");
}

// initial= joins the one result every rank gets: a value that differs between ranks (issue 28)
// is a disagreement, not each rank's own sum.
TEST(Reduce, AnInitialThatDiffersBetweenRanksIsAnErrorOnEveryRank) {
  if (world().size() == 1) GTEST_SKIP() << "needs two ranks";
  const DistArray d = scatter(rt(), world(), test::global_f64(8, 2));
  EXPECT_RAISES(Reduce(rt(), "sum")(d, {.initial = world().rank() == 1 ? 2.0 : 1.0}),
                DistributionError,
                "ranks disagree on the call: rank 0 has sum of .* initial = 1.0");
}

TEST(Reduce, CombineOnHostTargetsGoesThroughMpiAndCollectiveIsRefusedOnEveryRank) {
  const loom::Array g = test::global_i64(777, 2);
  const DistArray d = scatter(rt(), world(), g, {.target = test::parallel_or_cpu()});
  const Reduce sum(rt(), "sum");
  for (Combine c : {Combine::automatic, Combine::fixed_order}) {
    EXPECT_TRUE(same_bits(sum(d, {.combine = c}), rt().reduce("sum")(g)));
  }
  try {
    sum(d, {.combine = Combine::collective});
    ADD_FAILURE() << "no error";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("is not cuda:N"), std::string::npos) << e.what();
  }
  EXPECT_THROW(sum(d, {.order = Order::blocks, .combine = Combine::collective}), ValueError);
}

// A GPU a rank where the machine has them (one GPU: every rank on cuda:0, so one rank goes
// through NCCL and two or more through MPI, since NCCL gives each rank its own GPU).
TEST(Reduce, OnGpuRanksIntegerReductionsHaveTheOneProcessBitsThroughNcclOrMpi) {
  const auto targets = rt().targets();
  const bool cuda = std::any_of(targets.begin(), targets.end(), [](const TargetInfo& t) {
    return t.target == "cuda" && t.available;
  });
  if (!cuda) GTEST_SKIP() << "no usable cuda target";
  const int gpus = rt().resolve_target("cuda").first->device_count();
  const std::string t = "cuda:" + std::to_string(world().node_rank() % gpus);
  const loom::Array g = test::global_i64(4099, 3);
  const DistArray d = scatter(rt(), world(), g, {.target = t});
  const loom::Array want = rt().reduce("sum")(g);
  for (Combine c : {Combine::automatic, Combine::fixed_order}) {
    EXPECT_TRUE(same_bits(Reduce(rt(), "sum")(d, {.combine = c}), want));
    EXPECT_TRUE(same_bits(Reduce(rt(), "max")(d, {.axis = 0, .combine = c}),
                          rt().reduce("max")(g, {.axis = 0})));
  }
  Collectives* coll = rt().collectives("cuda");
  const bool own_gpu = world().size() <= gpus;  // one node, as the tests run
  if (coll && coll->availability().ok && own_gpu) {
    EXPECT_TRUE(
        same_bits(Reduce(rt(), "sum")(d, {.initial = Initial(2.0), .combine = Combine::collective}),
                  rt().reduce("sum")(g, {.initial = Initial(2.0)})));
  } else {
    EXPECT_THROW(Reduce(rt(), "sum")(d, {.combine = Combine::collective}), ValueError);
  }
}

}  // namespace
}  // namespace loom::dist
