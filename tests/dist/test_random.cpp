// loom::dist::random: the ranks' rows gathered are the one-process Generator's array, bit for bit,
// for any rank count (ctest runs these under 1, 2, 3 and 4 ranks), and every rank's generator
// advances alike, or not at all when the call raises.
#include <cstdint>
#include <string>
#include <vector>

#include "dist_test_util.hpp"
#include "loom/random_arrays.hpp"

namespace loom::dist {
namespace {

using loom::random::Generator;
using test::rt;
using test::same_bits;
using test::world;

std::vector<std::string> host_targets() {
  std::vector<std::string> t = {"cpu"};
  if (test::parallel_or_cpu() != "cpu") t.push_back("parallel");
  return t;
}

TEST(Random, GatheredRowsAreTheOneProcessArray) {
  // 1001 rows divide by none of 2, 3 and 4; the (13, 7) arrays' ranks start inside Philox blocks
  // (7 elements a row: 4 float32 or 2 float64 elements a block).
  for (const std::string& t : host_targets()) {
    Generator dg(2027, 1, 3), one(2027, 1, 3);
    const loom::random::RandomOptions cpu{.target = "cpu"};
    const auto check = [&](const DistArray& d, const loom::Array& want, const char* what) {
      EXPECT_EQ(d.target(), t) << what;
      EXPECT_EQ(d.rows(), block_rows(want.shape()[0], world().size(), world().rank())) << what;
      EXPECT_TRUE(same_bits(allgather(rt(), d), want)) << what << " on " << t;
    };
    check(random::uniform(rt(), world(), dg, {1001}, DType::float32, {.target = t}),
          one.uniform(rt(), {1001}, DType::float32, cpu), "uniform float32");
    check(random::uniform(rt(), world(), dg, {13, 7}, DType::float64, {.target = t}),
          one.uniform(rt(), {13, 7}, DType::float64, cpu), "uniform float64");
    check(random::normal(rt(), world(), dg, {13, 7}, DType::float32, {.target = t}),
          one.normal(rt(), {13, 7}, DType::float32, cpu), "normal float32");
    check(random::normal(rt(), world(), dg, {1001}, DType::float64, {.target = t}),
          one.normal(rt(), {1001}, DType::float64, cpu), "normal float64");
    check(random::integers(rt(), world(), dg, -5, 17, {13, 7}, DType::int16, {.target = t}),
          one.integers(rt(), -5, 17, {13, 7}, DType::int16, cpu), "integers int16");
    check(random::integers(rt(), world(), dg, -7, std::int64_t{1} << 40, {1001}, DType::int64,
                           {.target = t}),
          one.integers(rt(), -7, std::int64_t{1} << 40, {1001}, DType::int64, cpu),
          "integers int64");
    EXPECT_EQ(dg.next_call(), one.next_call());
    EXPECT_EQ(dg.next_call(), 9u);
  }
}

TEST(Random, FewerRowsThanRanksAndOut) {
  // Two rows: with more ranks, the last ones own none and still take the call number.
  Generator dg(5), one(5);
  const DistArray few = random::normal(rt(), world(), dg, {2, 3});
  EXPECT_TRUE(same_bits(allgather(rt(), few), one.normal(rt(), {2, 3})));
  // out=: the ranks' rows of a distributed array, filled in place and returned.
  const DistArray out = zeros(rt(), world(), {11, 5}, DType::float32);
  const DistArray r = random::uniform(rt(), world(), dg, {11, 5}, DType::float32, {.out = out});
  const loom::Array want = one.uniform(rt(), {11, 5}, DType::float32);
  EXPECT_TRUE(same_bits(allgather(rt(), out), want));
  EXPECT_EQ(r.local().data(), out.local().data());
  EXPECT_EQ(dg.next_call(), 2u);
}

TEST(Random, ARefusedCallAdvancesNoRanksGenerator) {
  Generator g(7, 2, 40);
  EXPECT_RAISES(random::uniform(rt(), world(), g, {10}, DType::int32), TypeError,
                "^Generator\\.uniform: dtype int32 is not a float dtype");
  EXPECT_RAISES(random::normal(rt(), world(), g, {4, -2}), ShapeError,
                "^Generator\\.normal: negative dimension -2 at axis 1 of shape \\(4, -2\\)$");
  EXPECT_RAISES(random::integers(rt(), world(), g, 3, 3, {10}), ValueError,
                "^Generator\\.integers: high \\(3\\) must be above low \\(3\\)$");
  EXPECT_RAISES(random::uniform(rt(), world(), g, {}), DistributionError, "needs an axis 0");
  EXPECT_RAISES(random::uniform(rt(), world(), g, {4}, DType::float64,
                                {.out = zeros(rt(), world(), {5}, DType::float64)}),
                DistributionError,
                "^loom::dist::random::uniform: out= is float64 \\(5,\\), the call draws float64 "
                "\\(4,\\); give an out= of the call's global shape and dtype$");
  EXPECT_EQ(g.next_call(), 40u);
  if (world().size() > 1) {
    // A target only rank 1 does not know: rank 1 raises its TargetError, the others RemoteError.
    try {
      random::uniform(rt(), world(), g, {10}, DType::float64,
                      {.target = world().rank() == 1 ? "warp9" : "cpu"});
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(world().rank() == 1, dynamic_cast<const RemoteError*>(&e) == nullptr) << e.what();
    }
    EXPECT_EQ(g.next_call(), 40u);
    // Generators that differ between ranks: a DistributionError on every rank naming both.
    Generator mine(7, 2, world().rank() == 1 ? 41 : 40);
    EXPECT_RAISES(random::uniform(rt(), world(), mine, {10}), DistributionError,
                  "the ranks disagree on the call: rank 0 has uniform float64 \\(10,\\) of "
                  "Generator\\(seed=7, stream=2\\) at call 40, rank 1 has .* at call 41; make the "
                  "same call on every rank with equal generators");
    EXPECT_EQ(mine.next_call(), world().rank() == 1 ? 41u : 40u);
  }
  // The generator still draws the one-process array afterwards.
  const DistArray d = random::uniform(rt(), world(), g, {6});
  EXPECT_TRUE(same_bits(allgather(rt(), d), Generator(7, 2, 40).uniform(rt(), {6})));
}

}  // namespace
}  // namespace loom::dist
