// Ufunc and gufunc calls on distributed arrays: each rank's rows, the one-process result; and the
// calls that cannot be made, refused on every rank.
#include "dist_test_util.hpp"
#include "loom/def/ufunc.hpp"
#include "loom/random.hpp"

namespace loom::dist {
namespace {

using test::rt;
using test::same_bits;
using test::world;

TEST(Ufunc, SinexpEqualsTheOneProcessCall) {
  const std::int64_t n = 1000;
  const loom::Array x = loom::linspace(0.0, 6.0, n), y = loom::full({n}, 0.5);
  for (const std::string& t : std::vector<std::string>{"cpu", test::parallel_or_cpu()}) {
    const DistArray dx = scatter(rt(), world(), x, {.target = t});
    const DistArray dy = scatter(rt(), world(), y, {.target = t});
    const DistArray dz = Ufunc(rt(), "sinexp")(dx, dy);
    EXPECT_EQ(dz.shape(), (Shape{n}));
    const loom::Array all = allgather(rt(), dz);
    const loom::Array one = rt().ufunc("sinexp")(x, y, {.target = "cpu"});
    // Elementwise: every element is computed by the same loop whatever rows a rank holds.
    EXPECT_TRUE(same_bits(all, one)) << t;
  }
}

// A ufunc that draws (docs/random.md): x + a normal of the element's global index.
struct DrawStep {
  double operator()(loom::ElementIndex e, double x) const {
    return x + loom::random::Philox(11).normal_float64(e.i);
  }
};

TEST(Ufunc, ADrawingUfuncGivesTheOneProcessBits) {
  static const bool defined = [] {
    rt().define("dist_tests", [](Registrar& reg) {
      def::ufunc<DrawStep, double(double)>(reg, "dist_draw_step", "x + N(0, 1) of the index");
    });
    return true;
  }();
  ASSERT_TRUE(defined);
  // 2-D, so that a rank's first index is its first row times the row size.
  const loom::Array x = test::global_f64(29, 7);
  const loom::Array one = rt().ufunc("dist_draw_step")(x, {.target = "cpu"});
  for (const std::string& t : std::vector<std::string>{"cpu", test::parallel_or_cpu()}) {
    const DistArray dz = Ufunc(rt(), "dist_draw_step")(scatter(rt(), world(), x, {.target = t}));
    EXPECT_TRUE(same_bits(allgather(rt(), dz), one)) << t;
  }
  // index_base moves the whole result's indices, on every rank alike.
  loom::CallOptions shifted{.target = "cpu"};
  shifted.index_base = 1000;
  const loom::Array moved = rt().ufunc("dist_draw_step")(x, shifted);
  const DistArray dm =
      Ufunc(rt(), "dist_draw_step")(scatter(rt(), world(), x), {.index_base = 1000});
  EXPECT_TRUE(same_bits(allgather(rt(), dm), moved));
}

TEST(Ufunc, IntegerArithmeticWithReplicatedScalarAndRow) {
  const loom::Array g = test::global_i64(13, 4);
  const loom::Array row = loom::from_vector(std::vector<std::int64_t>{1, -2, 3, -4});
  const DistArray d = scatter(rt(), world(), g);
  const DistArray s = Ufunc(rt(), "add")(d, row);
  const DistArray t = Ufunc(rt(), "multiply")(s, 3);
  EXPECT_TRUE(same_bits(allgather(rt(), t), rt().ufunc("multiply")(rt().ufunc("add")(g, row), 3)));
}

TEST(Ufunc, OutAndWhereAreDistributedAsTheInputs) {
  const loom::Array g = test::global_f64(17);
  const DistArray d = scatter(rt(), world(), g);
  const DistArray out = zeros(rt(), world(), {17}, DType::float64);
  const DistArray mask = Ufunc(rt(), "greater")(d, 0.0);
  const DistArray r = Ufunc(rt(), "sqrt")(d, {.out = {out}, .where = mask});
  loom::Array want = loom::zeros({17});
  rt().ufunc("sqrt")(g, {.out = {want}, .where = rt().ufunc("greater")(g, 0.0)});
  EXPECT_TRUE(same_bits(allgather(rt(), r), want));
  EXPECT_TRUE(same_bits(allgather(rt(), out), want));  // r is out itself
}

TEST(Ufunc, TwoOutputs) {
  const loom::Array g = test::global_i64(9);
  const auto qr = Ufunc(rt(), "divmod").call({scatter(rt(), world(), g), 7});
  const auto want = rt().ufunc("divmod").call({g, 7});
  ASSERT_EQ(qr.size(), 2u);
  EXPECT_TRUE(same_bits(allgather(rt(), qr[0]), want[0]));
  EXPECT_TRUE(same_bits(allgather(rt(), qr[1]), want[1]));
}

TEST(Gufunc, DotOfEachRowWithAReplicatedVector) {
  // "(n),(n)->()": axis 0 of the (23, 5) rows is the loop dim; the vector is replicated.
  const loom::Array g = test::global_f64(23, 5), v = test::global_f64(5);
  const DistArray r = Ufunc(rt(), "dot")(scatter(rt(), world(), g), v);
  EXPECT_EQ(r.shape(), (Shape{23}));
  EXPECT_TRUE(same_bits(allgather(rt(), r), rt().gufunc("dot")(g, v)));
}

TEST(Gufunc, BatchedMatmulAndSumRowSplitTheBatch) {
  const loom::Array a = test::global_f64(10 * 2 * 3).reshape({10, 2, 3});
  const loom::Array b = test::global_f64(3, 4);
  const DistArray c = Ufunc(rt(), "matmul")(scatter(rt(), world(), a), b);
  EXPECT_EQ(c.shape(), (Shape{10, 2, 4}));
  EXPECT_TRUE(same_bits(allgather(rt(), c), rt().ufunc("matmul")(a, b)));
  const DistArray s = Ufunc(rt(), "sum_row")(scatter(rt(), world(), a));
  EXPECT_TRUE(same_bits(allgather(rt(), s), rt().gufunc("sum_row")(a)));
}

TEST(Gufunc, CoreDimsOnAxis0AreAnErrorOnEveryRank) {
  // sum_row is "(n,m)->(n)": a 2-d array's rows are a core dim, which one call must see whole.
  const DistArray d = scatter(rt(), world(), test::global_f64(8, 3));
  EXPECT_RAISES(Ufunc(rt(), "sum_row")(d), DistributionError,
                "input 0 is distributed \\(float64 \\(8, 3\\)\\) but its axis 0 is not the call's "
                "first loop dim");
}

TEST(Ufunc, MixedDistributionsAreAnErrorOnEveryRank) {
  const DistArray a = scatter(rt(), world(), test::global_f64(10));
  const DistArray b = scatter(rt(), world(), test::global_f64(12));
  EXPECT_RAISES(Ufunc(rt(), "add")(a, b), DistributionError,
                "the distributed inputs have 10 and 12 rows along axis 0 .*give them the same "
                "length along axis 0");
}

TEST(Ufunc, AReplicatedArraySpanningAxis0IsAnErrorOnEveryRank) {
  const DistArray a = scatter(rt(), world(), test::global_f64(6, 2));
  EXPECT_RAISES(Ufunc(rt(), "add")(a, test::global_f64(6, 2)), DistributionError,
                "replicated array of shape \\(6, 2\\) that spans the distributed axis 0");
}

TEST(Ufunc, GlobalShapesThatDifferAcrossRanksAreAnErrorOnEveryRank) {
  if (world().size() == 1) GTEST_SKIP() << "needs two ranks";
  const DistArray a = scatter(rt(), world(), test::global_f64(10));
  const DistArray b = scatter(rt(), world(), test::global_f64(11));
  // Rank 1 calls with the other array: the ranks would hold rows of different arrays.
  EXPECT_RAISES(Ufunc(rt(), "sqrt")(world().rank() == 1 ? b : a), DistributionError,
                "ranks disagree on the call: rank 0 has sqrt\\(distributed float64 \\(10,\\)\\), "
                "rank 1 has sqrt\\(distributed float64 \\(11,\\)\\)");
}

// Issue 28: a replicated operand is each rank's own copy; one that differs between ranks (a scalar
// computed from rank-local data) gave each rank its own answer silently. The ranks compare what
// their replicated operands hold: a scalar by value, an array by a hash of its bytes.
TEST(Ufunc, AReplicatedScalarThatDiffersBetweenRanksIsAnErrorOnEveryRank) {
  if (world().size() == 1) GTEST_SKIP() << "needs two ranks";
  const DistArray a = scatter(rt(), world(), test::global_f64(10));
  const double k = world().rank() == 1 ? 11.0 : 10.0;
  EXPECT_RAISES(Ufunc(rt(), "add")(a, k), DistributionError,
                "ranks disagree on the call: rank 0 has add\\(distributed float64 \\(10,\\), "
                "replicated float64 \\(\\) = 10.0\\), rank 1 has add\\(distributed float64 "
                "\\(10,\\), replicated float64 \\(\\) = 11.0\\)");
  loom::Array row = loom::arange(0.0, 3.0);
  if (world().rank() == 1) row.at<double>(2) = 5;
  EXPECT_RAISES(Ufunc(rt(), "add")(scatter(rt(), world(), test::global_f64(6, 3)), row),
                DistributionError,
                "ranks disagree on the call: .* replicated float64 \\(3,\\) bytes #");
  // Equal on every rank: computed, as before.
  const DistArray r = Ufunc(rt(), "add")(a, 10.0);
  EXPECT_TRUE(same_bits(allgather(rt(), r), rt().ufunc("add")(test::global_f64(10), 10.0)));
}

struct Twice {
  template <class T>
  T operator()(T x) const {
    return x + x;
  }
};

TEST(Ufunc, AnErrorOnOneRankOnlyIsAnErrorOnEveryRank) {
  if (world().size() == 1) GTEST_SKIP() << "needs two ranks";
  // Rank 1's runtime has no float64 loop for the op: only its call fails, in the compute step.
  Runtime own;
  own.define("disttest", [](Registrar& reg) {
    if (world().rank() == 1) {
      def::ufunc<Twice, float(float)>(reg, "twice", "x+x");
    } else {
      def::ufunc<Twice, float(float), double(double)>(reg, "twice", "x+x");
    }
  });
  const DistArray a = scatter(own, world(), test::global_f64(8));
  try {
    Ufunc(own, "twice")(a, {.casting = Casting::no});
    ADD_FAILURE() << "no error";
  } catch (const RemoteError& e) {
    EXPECT_NE(world().rank(), 1);
    EXPECT_EQ(e.rank(), 1);
    EXPECT_TRUE(std::regex_search(std::string(e.what()),
                                  std::regex("Ufunc\\('twice'\\) failed on rank 1: .*float64")))
        << e.what();
  } catch (const TypeError& e) {
    EXPECT_EQ(world().rank(), 1) << e.what();
  }
  // The ranks are still in step: the next collective call works.
  EXPECT_TRUE(same_bits(allgather(own, a), test::global_f64(8)));
}

}  // namespace
}  // namespace loom::dist
