// Checked gufunc calls (CallOptions::checked, LOOM_CHECKED=1; docs/kernels.md, "Checked gufunc
// calls"): the gufunc's checked loop records the first out-of-bounds access of a View of a core
// dimension, reads 0 and writes nothing there, and the call raises IndexError naming the operand,
// the index, the axis and its core dimension, and the instance of the outer loop. Each array is the
// middle of a larger one whose guard elements must come back unchanged, on every target.
#include <cstdlib>

#include "helpers.hpp"
#include "loom/aliasing.hpp"
#include "loom/def/gufunc.hpp"

namespace loom_kernel_test {
namespace {

using loom::CallOptions;

constexpr std::int64_t kGuard = 4;
constexpr float kSentinel = -7.0f;
const std::vector<float> kGuards(2 * kGuard, kSentinel);

const Where kGufuncWhere[] = {{"cpu"}, {"parallel"}, {"cuda", true}, {"cuda", false}};

// A float32 array of the given shape holding `values`, the C-contiguous middle of a 1-d array
// with kGuard sentinels on either side.
struct Guarded {
  Array whole;
  Array middle;
};

class GufuncCheckedTest : public KernelTest {
 protected:
  Guarded guarded(const std::vector<float>& values, Shape shape) const {
    const auto n = static_cast<std::int64_t>(values.size());
    std::vector<float> v(n + 2 * kGuard, kSentinel);
    std::copy(values.begin(), values.end(), v.begin() + kGuard);
    Array whole = put(loom::from_vector(v));
    Array middle = whole.slice(0, kGuard, kGuard + n).reshape(std::move(shape));
    EXPECT_TRUE(loom::may_share_memory(whole, middle)) << "the middle must be a view";
    return {whole, middle};
  }
  std::vector<float> guards(const Guarded& g) const {
    const std::vector<float> v = values_of<float>(get(g.whole));
    std::vector<float> out(v.begin(), v.begin() + kGuard);
    out.insert(out.end(), v.end() - kGuard, v.end());
    return out;
  }
  std::vector<float> middle(const Guarded& g) const {
    const std::vector<float> v = values_of<float>(get(g.whole));
    return {v.begin() + kGuard, v.end() - kGuard};
  }
  // from_vector reads an empty shape as 1-d: a 0-d array is a reshape.
  Array indices(const std::vector<std::int64_t>& k, Shape shape) const {
    return put(loom::from_vector(k).reshape(std::move(shape)));
  }
  CallOptions checked(const Array& out) const {
    return CallOptions{.target = target(), .out = {out}, .checked = true};
  }
  template <class F>
  static std::string index_error(F&& f) {
    try {
      f();
    } catch (const loom::IndexError& e) {
      return e.what();
    } catch (const std::exception& e) {
      return std::string("another error: ") + e.what();
    }
    return "no error";
  }
  static std::vector<float> iota(int n, float first = 0.0f) {
    std::vector<float> v(n);
    for (int i = 0; i < n; ++i) v[i] = first + static_cast<float>(i);
    return v;
  }
};

TEST_P(GufuncCheckedTest, ABadIndexReadsZeroAndNamesTheArgumentAndTheInstance) {
  const Guarded x = guarded(iota(20), {4, 5});
  Guarded out = guarded({-1, -1, -1, -1}, {4});
  const Array k = indices({0, 2, 5, 1}, {4});  // instance 2 reads x[2][5]: one past its row
  EXPECT_EQ(index_error([&] { rt().ufunc("t_gu_take")(x.middle, k, checked(out.middle)); }),
            "gufunc 't_gu_take' with layout (n),()->(): argument 0, core dims (n), at loop index "
            "(2,) (instance 2 of 4): index 5 is out of bounds for axis 0 (core dim 'n') with size "
            "5 (a 1-d View)");
  EXPECT_EQ(middle(out), (std::vector<float>{0, 7, 0, 16})) << "the bad read gave 0, the rest ran";
  EXPECT_EQ(guards(out), kGuards);
  EXPECT_EQ(guards(x), kGuards);
}

TEST_P(GufuncCheckedTest, TheInstanceIsNamedByItsPositionInTheBroadcastLoop) {
  const Guarded x = guarded(iota(6 * 3), {2, 3, 3});
  Guarded out = guarded(std::vector<float>(6, -1), {2, 3});
  const Array k = indices({0, 1, 2, -1, 0, 1}, {2, 3});  // instance 3, loop index (1, 0)
  EXPECT_EQ(index_error([&] { rt().ufunc("t_gu_take")(x.middle, k, checked(out.middle)); }),
            "gufunc 't_gu_take' with layout (n),()->(): argument 0, core dims (n), at loop index "
            "(1, 0) (instance 3 of 6): index -1 is out of bounds for axis 0 (core dim 'n') with "
            "size 3 (a 1-d View)");
  EXPECT_EQ(middle(out), (std::vector<float>{0, 4, 8, 0, 12, 16}));
  EXPECT_EQ(guards(out), kGuards);
}

TEST_P(GufuncCheckedTest, AWritePastTheCoreDimensionIsDroppedAndNamed) {
  const Guarded x = guarded(iota(12, 1.0f), {3, 4});
  Guarded out = guarded(std::vector<float>(12, -1.0f), {3, 4});
  const Array s = indices({0, 0, 1}, {3});  // the last instance writes out[2][4]: past the array
  EXPECT_EQ(index_error([&] { rt().ufunc("t_gu_shift")(x.middle, s, checked(out.middle)); }),
            "gufunc 't_gu_shift' with layout (n),()->(n): output 0, core dims (n), at loop index "
            "(2,) (instance 2 of 3): index 4 is out of bounds for axis 0 (core dim 'n') with size "
            "4 (a 1-d View)");
  EXPECT_EQ(middle(out), (std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8, 0, 9, 10, 11}));
  EXPECT_EQ(guards(out), kGuards) << "the dropped write did not reach the memory after out";
}

TEST_P(GufuncCheckedTest, ARowViewNamesTheCoreDimensionItIndexes) {
  const Guarded x = guarded(iota(12), {3, 4});
  Guarded out = guarded({-1, -1, -1}, {3});
  const Array c = indices({4}, {});  // x[i][4] of a (3, 4) core: the column 'n' one too far
  EXPECT_EQ(index_error([&] { rt().ufunc("t_gu_column")(x.middle, c, checked(out.middle)); }),
            "gufunc 't_gu_column' with layout (m,n),()->(m): argument 0, core dims (m, n), at loop "
            "index () (instance 0 of 1): index 4 is out of bounds for axis 0 (core dim 'n') with "
            "size 4 (a 1-d View)");
  EXPECT_EQ(middle(out), (std::vector<float>{0, 0, 0}));
  EXPECT_EQ(guards(out), kGuards);
}

TEST_P(GufuncCheckedTest, ACorrectCallCheckedGivesTheUncheckedResultAndNoError) {
  const Guarded x = guarded(iota(20), {4, 5});
  const Array k = indices({4, 3, 0, 2}, {4});
  Guarded out = guarded(std::vector<float>(4, -1), {4});
  EXPECT_EQ(index_error([&] { rt().ufunc("t_gu_take")(x.middle, k, checked(out.middle)); }),
            "no error");
  EXPECT_EQ(middle(out), (std::vector<float>{4, 8, 10, 17}));
  EXPECT_EQ(guards(out), kGuards);
  // A gufunc of the math plugin, checked and not: the same bits.
  const Array a = put(loom::from_vector(iota(12, 0.5f), {3, 4}));
  const Array plain = get(rt().ufunc("sum_row")(a, {.target = target()}));
  const Array check = get(rt().ufunc("sum_row")(a, {.target = target(), .checked = true}));
  EXPECT_EQ(values_of<float>(check), values_of<float>(plain));
}

TEST_P(GufuncCheckedTest, AfterACheckedFailureTheNextCheckedCallStartsClean) {
  const Guarded x = guarded(iota(20), {4, 5});
  Guarded out = guarded(std::vector<float>(4, -1), {4});
  EXPECT_THROW(rt().ufunc("t_gu_take")(x.middle, indices({0, 9, 0, 0}, {4}), checked(out.middle)),
               loom::IndexError);
  EXPECT_EQ(index_error([&] {
              rt().ufunc("t_gu_take")(x.middle, indices({0, 1, 2, 3}, {4}), checked(out.middle));
            }),
            "no error");
  EXPECT_EQ(middle(out), (std::vector<float>{0, 6, 12, 18}));
}

TEST_P(GufuncCheckedTest, AUfuncTakesCheckedAndHasNothingToCheck) {
  // Ufunc functors take scalars: the call is the plain one.
  const Array a = put(loom::from_vector(iota(5)));
  const Array got = get(rt().ufunc("add")(a, a, {.target = target(), .checked = true}));
  EXPECT_EQ(values_of<float>(got), (std::vector<float>{0, 2, 4, 6, 8}));
}

INSTANTIATE_TEST_SUITE_P(Targets, GufuncCheckedTest, ::testing::ValuesIn(kGufuncWhere), where_name);

// LOOM_CHECKED=1, read when a Runtime is made, checks every gufunc call of that Runtime too.
class EnvGuard {
 public:
  explicit EnvGuard(const char* v) { ::setenv("LOOM_CHECKED", v, 1); }
  ~EnvGuard() { ::unsetenv("LOOM_CHECKED"); }
};

TEST(GufuncCheckedEnv, LoomCheckedOneChecksEveryGufuncCallOfTheRuntimeMadeThen) {
  std::optional<loom::Runtime> rt;
  {
    EnvGuard env("1");
    rt.emplace(options());
  }
  ASSERT_TRUE(rt->checked_launches());
  const Array x = loom::from_vector(std::vector<float>{1, 2, 3, 4, 5, 6}, {2, 3});
  const Array k = loom::from_vector(std::vector<std::int64_t>{3, 0}, {2});
  try {
    rt->ufunc("t_gu_take")(x, k, {.target = "cpu"});
    ADD_FAILURE() << "no IndexError";
  } catch (const loom::IndexError& e) {
    EXPECT_EQ(std::string(e.what()),
              "gufunc 't_gu_take' with layout (n),()->(): argument 0, core dims (n), at loop "
              "index (0,) (instance 0 of 2): index 3 is out of bounds for axis 0 (core dim 'n') "
              "with size 3 (a 1-d View)");
  }
  // The runtime made without it runs the plain loop (built with LOOM_BOUNDS_CHECK=1, the test
  // plugin's fast loop throws at once instead: a different message, no instance).
  try {
    runtime().ufunc("t_gu_take")(x, k, {.target = "cpu"});
    ADD_FAILURE() << "no IndexError";
  } catch (const loom::IndexError& e) {
    EXPECT_EQ(std::string(e.what()).find("instance"), std::string::npos) << e.what();
  }
}

// out = 42, the float64 loop of a program-defined gufunc replaced by a hand-written one.
struct Forty {
  void operator()(loom::View<const double, 1>, double& out) const { out = 41; }
};
void forty_two(char** args, const std::int64_t* dims, const std::int64_t* steps, const void*) {
  for (std::int64_t i = 0; i < dims[0]; ++i)
    *reinterpret_cast<double*>(args[1] + i * steps[1]) = 42;
}
void define_forty_two(loom::Runtime& r) {
  r.define("test", [](loom::Registrar& reg) {
    loom::def::gufunc<Forty, double(double)>(reg, "t_forty_two", "(n)->()", "42");
    loom::LoopImpl impl;
    impl.host = &forty_two;
    impl.hand_written = "42 by hand";
    reg.replace_loop("t_forty_two", "float64(float64)", impl);
  });
}

TEST(GufuncCheckedEnv, AHandWrittenLoopRunsUncheckedUnderLoomCheckedAndIsRefusedWhenAsked) {
  std::optional<loom::Runtime> rt;
  {
    EnvGuard env("1");
    rt.emplace(options());
  }
  define_forty_two(*rt);
  const Array x = loom::zeros({2, 3}, DType::float64);
  EXPECT_EQ(values_of<double>(rt->ufunc("t_forty_two")(x, {.target = "cpu"})),
            (std::vector<double>{42, 42}));
  EXPECT_THROW(rt->ufunc("t_forty_two")(x, {.target = "cpu", .checked = true}), loom::TypeError);
}

}  // namespace
}  // namespace loom_kernel_test
