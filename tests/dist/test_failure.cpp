// Failure behaviour across ranks (docs/scale-out.md, "Failure behaviour"): ranks that make
// different loom::dist calls at the same point, or the same call with different arguments, all
// raise an error, and stay in step for the next call.
#include "dist_test_util.hpp"

namespace loom::dist {
namespace {

using test::rt;
using test::same_bits;
using test::world;

TEST(Failure, DifferentCallsAtTheSamePointAreAnErrorOnEveryRank) {
  if (world().size() == 1) GTEST_SKIP() << "needs two ranks";
  const DistArray a = scatter(rt(), world(), test::global_f64(12));
  try {
    if (world().rank() == 0) {
      allgather(rt(), a);
    } else {
      Reduce(rt(), "sum")(a);
    }
    ADD_FAILURE() << "no error";
  } catch (const DistributionError& e) {
    EXPECT_TRUE(std::regex_search(
        std::string(e.what()), std::regex("the ranks disagree on the call: rank 0 has .*allgather|"
                                          "rank 0 has float64 \\(12,\\)")))
        << e.what();
  }
  EXPECT_TRUE(same_bits(allgather(rt(), a), test::global_f64(12)));  // still in step
}

TEST(Failure, FromLocalMetByAnotherCallIsAnErrorOnEveryRank) {
  if (world().size() == 1) GTEST_SKIP() << "needs two ranks";
  EXPECT_RAISES(world().rank() == 0 ? (void)from_local(rt(), world(), loom::zeros({2}))
                                    : (void)zeros(rt(), world(), {2}, DType::float64),
                DistributionError, "the ranks disagree on the call");
  EXPECT_EQ(allgather(rt(), zeros(rt(), world(), {3}, DType::int8)).size(), 3);
}

TEST(Failure, AFailedCallLeavesTheArraysUsable) {
  const DistArray a = scatter(rt(), world(), test::global_i64(9));
  EXPECT_RAISES(Ufunc(rt(), "add")(a, test::global_i64(9)), DistributionError, "replicated");
  EXPECT_TRUE(same_bits(allgather(rt(), Ufunc(rt(), "add")(a, a)),
                        rt().ufunc("add")(test::global_i64(9), test::global_i64(9))));
}

}  // namespace
}  // namespace loom::dist
