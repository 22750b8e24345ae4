// Checked launches (LaunchConfig::checked, LOOM_CHECKED=1; docs/kernels.md, "Checked launches"):
// the kernel's checked instantiation records the first out-of-bounds View access, reads 0 and
// writes nothing there, and the launch raises IndexError naming the argument, block, thread,
// index, axis and size. Each array is the middle of a larger one whose guard elements must come
// back unchanged: nothing past either end is written, on every target.
#include <cstdlib>

#include "helpers.hpp"

namespace loom_kernel_test {
namespace {

constexpr std::int64_t kGuard = 4;
constexpr float kSentinel = -7.0f;

// A float32 array of n values `first + i` with kGuard sentinels on either side; view() is the
// middle the kernel gets, guards() what lies around it.
struct Guarded {
  Array whole;
  Array middle;
  std::vector<float> guards() const {
    const std::vector<float> v = values_of<float>(whole);
    std::vector<float> g(v.begin(), v.begin() + kGuard);
    g.insert(g.end(), v.end() - kGuard, v.end());
    return g;
  }
};

class CheckedTest : public KernelTest {
 protected:
  Guarded guarded(std::int64_t n, float first) const {
    std::vector<float> v(n + 2 * kGuard, kSentinel);
    for (std::int64_t i = 0; i < n; ++i) v[kGuard + i] = first + static_cast<float>(i);
    Array whole = put(loom::from_vector(v));
    Array middle = whole.slice(0, kGuard, kGuard + n);
    return {whole, middle};
  }
  Guarded fetch(const Guarded& g) const { return {get(g.whole), g.middle}; }
  LaunchConfig checked(Extent blocks, Extent threads, std::size_t shared = 0) const {
    LaunchConfig c = config(blocks, threads, shared);
    c.checked = true;
    return c;
  }
  template <class F>
  std::string index_error(F&& f) {
    try {
      f();
    } catch (const loom::IndexError& e) {
      return e.what();
    } catch (const std::exception& e) {
      return std::string("another error: ") + e.what();
    }
    return "no error";
  }
};

const std::vector<float> kGuards(2 * kGuard, kSentinel);

TEST_P(CheckedTest, TheMissingGuardReadsAndWritesNothingPastTheEndAndNamesTheFirstAccess) {
  const Guarded x = guarded(10, 0.0f);
  Guarded out = guarded(10, 100.0f);
  // One block of 11 threads: only thread 10 is past the end; its read of x comes first (the
  // right side of an assignment is evaluated before the left).
  EXPECT_EQ(index_error([&] { launch("t_missing_guard", checked(1, 11), x.middle, out.middle); }),
            "kernel 't_missing_guard': argument 0 (const float32[:]) in block (0, 0, 0), thread "
            "(10, 0, 0): index 10 is out of bounds for axis 0 with size 10 (a 1-d View)");
  const Guarded o = fetch(out);
  EXPECT_EQ(o.guards(), kGuards);
  EXPECT_EQ(fetch(x).guards(), kGuards);
  std::vector<float> want(10);
  for (int i = 0; i < 10; ++i) want[i] = static_cast<float>(i) + 1.0f;
  EXPECT_EQ(values_of<float>(get(o.whole).slice(0, kGuard, kGuard + 10)), want)
      << "the threads in bounds still ran";
}

TEST_P(CheckedTest, AWritePastTheEndIsDroppedAndNamed) {
  const Guarded x = guarded(8, 1.0f);
  Guarded out = guarded(8, 0.0f);
  EXPECT_EQ(index_error([&] { launch("t_shifted_write", checked(2, 4), x.middle, out.middle); }),
            "kernel 't_shifted_write': argument 1 (float32[:]) in block (1, 0, 0), thread "
            "(3, 0, 0): index 8 is out of bounds for axis 0 with size 8 (a 1-d View)");
  EXPECT_EQ(fetch(out).guards(), kGuards);
  EXPECT_EQ(values_of<float>(get(out.whole).slice(0, kGuard, kGuard + 8)),
            (std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST_P(CheckedTest, ARowViewOfA2DArgumentIsCheckedOnItsOwnAxis) {
  const Array x = put(loom::zeros({3, 4}, DType::float32));
  Array out = put(loom::zeros({3}, DType::float32));
  EXPECT_EQ(index_error([&] { launch("t_row_past_end", checked(1, 3), x, out); }),
            "kernel 't_row_past_end': argument 0 (const float32[:, :]) in block (0, 0, 0), thread "
            "(1, 0, 0): index 4 is out of bounds for axis 0 with size 4 (a 1-d View)");
}

TEST_P(CheckedTest, ACorrectLaunchCheckedGivesTheSameResultAndNoError) {
  const Guarded x = guarded(10, 0.0f);
  Guarded out = guarded(10, 0.0f);
  launch("t_missing_guard", checked(2, 5), x.middle, out.middle);
  std::vector<float> want(10);
  for (int i = 0; i < 10; ++i) want[i] = static_cast<float>(i) + 1.0f;
  EXPECT_EQ(values_of<float>(get(out.whole).slice(0, kGuard, kGuard + 10)), want);
  EXPECT_EQ(fetch(out).guards(), kGuards);
}

TEST_P(CheckedTest, AfterACheckedFailureTheNextCheckedLaunchStartsClean) {
  const Guarded x = guarded(10, 0.0f);
  Guarded out = guarded(10, 0.0f);
  EXPECT_THROW(launch("t_missing_guard", checked(1, 11), x.middle, out.middle), loom::IndexError);
  EXPECT_NO_THROW(launch("t_missing_guard", checked(1, 10), x.middle, out.middle));
}

INSTANTIATE_TEST_SUITE_P(Targets, CheckedTest, ::testing::ValuesIn(kEveryWhere), where_name);

// Host-only kernels (test_kernels.cpp): a block kernel's phases and its shared memory.
class CheckedHostTest : public CheckedTest {
 protected:
  void SetUp() override {
    CheckedTest::SetUp();
    if (!IsSkipped() && !on_host()) GTEST_SKIP() << "t_write_past_end_block is host-only";
  }
};

TEST_P(CheckedHostTest, ABlockKernelsPhaseNamesTheThreadThatWrotePastTheEnd) {
  Guarded out = guarded(8, 0.0f);
  EXPECT_EQ(index_error([&] { launch("t_write_past_end_block", checked(2, 4), out.middle, 0); }),
            "kernel 't_write_past_end_block': argument 0 (float32[:]) in block (1, 0, 0), thread "
            "(3, 0, 0): index 8 is out of bounds for axis 0 with size 8 (a 1-d View)");
  EXPECT_EQ(fetch(out).guards(), kGuards);
}

TEST_P(CheckedHostTest, ASharedArrayViewIsCheckedAndNamed) {
  Guarded out = guarded(9, 0.0f);
  EXPECT_EQ(
      index_error([&] { launch("t_write_past_end_block", checked(1, 4, 4 * 5), out.middle, 1); }),
      "kernel 't_write_past_end_block': a View of the block's shared memory in block (0, 0, 0), "
      "thread (3, 0, 0): index 4 is out of bounds for axis 0 with size 4 (a 1-d View)");
  EXPECT_EQ(fetch(out).guards(), kGuards);
}

INSTANTIATE_TEST_SUITE_P(Targets, CheckedHostTest, ::testing::ValuesIn(kEveryWhere), where_name);

// LOOM_CHECKED=1, read when a Runtime is made, checks every launch of that Runtime.
class EnvGuard {
 public:
  explicit EnvGuard(const char* v) { ::setenv("LOOM_CHECKED", v, 1); }
  ~EnvGuard() { ::unsetenv("LOOM_CHECKED"); }
};

TEST(CheckedEnv, LoomCheckedOneChecksEveryLaunchOfTheRuntimeMadeThen) {
  std::optional<loom::Runtime> rt;
  {
    EnvGuard env("1");
    rt.emplace(options());
  }
  EXPECT_TRUE(rt->checked_launches());
  EXPECT_FALSE(runtime().checked_launches());
  const Array x = loom::zeros({10}, DType::float32);
  Array out = loom::zeros({10}, DType::float32);
  try {
    rt->kernel("t_missing_guard").launch({.blocks = 1, .threads = 11, .target = "cpu"}, x, out);
    ADD_FAILURE() << "no IndexError";
  } catch (const loom::IndexError& e) {
    EXPECT_EQ(std::string(e.what()),
              "kernel 't_missing_guard': argument 0 (const float32[:]) in block (0, 0, 0), thread "
              "(10, 0, 0): index 10 is out of bounds for axis 0 with size 10 (a 1-d View)");
  }
}

TEST(CheckedEnv, ALoomCheckedOtherThanZeroOrOneIsAValueError) {
  EnvGuard env("yes");
  try {
    loom::Runtime rt(options());
    ADD_FAILURE() << "no ValueError";
  } catch (const loom::ValueError& e) {
    EXPECT_EQ(std::string(e.what()),
              "LOOM_CHECKED='yes' is not 0 or 1; give 1 to run every kernel launch and gufunc "
              "call checked (View accesses bounds-checked, an IndexError after the launch or "
              "call) or 0 for none");
  }
}

}  // namespace
}  // namespace loom_kernel_test
