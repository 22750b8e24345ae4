// Red-team cases of issue 12, items 4 and 5 (the runtime): absurd thread counts from the variable,
// the option and the setter, and handles (Ufunc, Reduce, Kernel, gufuncs), device arrays and
// streams that outlive their Runtime. The calls that used to crash run in a child process
// (EXPECT_EXIT) that exits 0 only on the expected error and message. Rules: docs/reliability.md,
// "Thread counts" and "Lifetimes".
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "loom/loom.hpp"
#include "redteam.hpp"

namespace {

using loom::redteam::child_expects;

using loom::Array;
using loom::DType;

// The build's backends and plugins (serial, tbb, math, kernels from lib/loom).
loom::RuntimeOptions build_options() { return {}; }

bool has_target(const loom::Runtime& rt, const std::string& t) {
  for (const auto& i : rt.targets()) {
    if (i.target == t) return i.available;
  }
  return false;
}

template <class T>
std::vector<T> values(const Array& a) {
  std::vector<T> v;
  const Array c = a.copy();
  for (std::int64_t i = 0; i < c.size(); ++i) v.push_back(reinterpret_cast<const T*>(c.data())[i]);
  return v;
}

// LOOM_NUM_THREADS set for one scope (unset when `value` is empty), restored after.
class EnvThreads {
 public:
  explicit EnvThreads(const char* value) {
    if (const char* o = std::getenv("LOOM_NUM_THREADS")) old_ = o;
    if (value)
      setenv("LOOM_NUM_THREADS", value, 1);
    else
      unsetenv("LOOM_NUM_THREADS");
  }
  ~EnvThreads() {
    if (old_)
      setenv("LOOM_NUM_THREADS", old_->c_str(), 1);
    else
      unsetenv("LOOM_NUM_THREADS");
  }

 private:
  std::optional<std::string> old_;
};

// The message for a count above the bound, as checked_num_threads words it.
std::string too_many(const std::string& what, const std::string& n) {
  const int max = loom::Runtime::max_num_threads();
  return what + "=" + n + " is more threads than loom allows here (" + std::to_string(max) +
         ": 4 x the " + std::to_string(std::thread::hardware_concurrency()) +
         " hardware threads, at least 256); give 0 for all cores or at most " + std::to_string(max);
}
std::string negative(const std::string& what, const std::string& n) {
  return what + "=" + n + " is negative; give 0 for all cores or a thread count from 1 to " +
         std::to_string(loom::Runtime::max_num_threads());
}

// ---- Thread counts (item 4) ---------------------------------------------------------------

TEST(RedteamThreads, TheBoundIsFourTimesTheHardwareThreadsAndAtLeast256) {
  const long long hw = std::thread::hardware_concurrency();
  EXPECT_EQ(loom::Runtime::max_num_threads(), std::max(256LL, 4 * hw));
}

// Each used to segfault inside TBB (an arena of that many slots).
TEST(RedteamThreads, SetNumThreadsOfTenMillionIsAValueError) {
  EXPECT_EXIT(child_expects<loom::ValueError>(
                  [] {
                    loom::Runtime rt(build_options());
                    rt.set_num_threads(10'000'000);
                  },
                  too_many("set_num_threads: n", "10000000")),
              ::testing::ExitedWithCode(0), "");
}

TEST(RedteamThreads, SetNumThreadsOf2To28AndIntMaxAreValueErrors) {
  for (const int n : {1 << 28, 2147483647}) {
    EXPECT_EXIT(child_expects<loom::ValueError>(
                    [n] {
                      loom::Runtime rt(build_options());
                      rt.set_num_threads(n);
                    },
                    too_many("set_num_threads: n", std::to_string(n))),
                ::testing::ExitedWithCode(0), "")
        << n;
  }
}

TEST(RedteamThreads, OptionOfTenMillionIsAValueError) {
  EXPECT_EXIT(child_expects<loom::ValueError>(
                  [] {
                    loom::RuntimeOptions o = build_options();
                    o.num_threads = 10'000'000;
                    loom::Runtime rt(o);
                  },
                  too_many("RuntimeOptions::num_threads", "10000000")),
              ::testing::ExitedWithCode(0), "");
}

TEST(RedteamThreads, VariableOfTenMillionIsAValueError) {
  EXPECT_EXIT(child_expects<loom::ValueError>(
                  [] {
                    EnvThreads env("10000000");
                    loom::Runtime rt(build_options());
                  },
                  too_many("LOOM_NUM_THREADS", "10000000")),
              ::testing::ExitedWithCode(0), "");
}

// Used to be silently ignored (strtol's long does not fit the int it went to).
TEST(RedteamThreads, VariableBeyondIntIsAValueErrorNotIgnored) {
  for (const char* v : {"2147483648", "4294967297", "9223372036854775807"}) {
    EnvThreads env(v);
    try {
      loom::Runtime rt(build_options());
      ADD_FAILURE() << v << ": no error";
    } catch (const loom::ValueError& e) {
      EXPECT_EQ(e.what(), too_many("LOOM_NUM_THREADS", v));
    }
  }
  EnvThreads env("99999999999999999999");  // beyond long long
  try {
    loom::Runtime rt(build_options());
    ADD_FAILURE() << "no error";
  } catch (const loom::ValueError& e) {
    EXPECT_EQ(std::string(e.what()),
              "LOOM_NUM_THREADS=99999999999999999999 is out of range; give 0 for all cores or a "
              "thread count from 1 to " +
                  std::to_string(loom::Runtime::max_num_threads()));
  }
}

// -5 in the option used to mean all cores while -3 in the variable was an error: both are now.
TEST(RedteamThreads, NegativeCountsAreValueErrorsFromEverySource) {
  {
    loom::RuntimeOptions o = build_options();
    o.num_threads = -5;
    try {
      loom::Runtime rt(o);
      ADD_FAILURE() << "option -5: no error";
    } catch (const loom::ValueError& e) {
      EXPECT_EQ(e.what(), negative("RuntimeOptions::num_threads", "-5"));
    }
  }
  {
    EnvThreads env("-3");
    try {
      loom::Runtime rt(build_options());
      ADD_FAILURE() << "variable -3: no error";
    } catch (const loom::ValueError& e) {
      EXPECT_EQ(e.what(), negative("LOOM_NUM_THREADS", "-3"));
    }
  }
  loom::Runtime rt(build_options());
  try {
    rt.set_num_threads(-1);
    ADD_FAILURE() << "set_num_threads(-1): no error";
  } catch (const loom::ValueError& e) {
    EXPECT_EQ(e.what(), negative("set_num_threads: n", "-1"));
  }
}

TEST(RedteamThreads, VariableThatIsNotAnIntegerIsAValueError) {
  for (const char* v : {"abc", "8x", "4.5", " "}) {
    EnvThreads env(v);
    try {
      loom::Runtime rt(build_options());
      ADD_FAILURE() << "'" << v << "': no error";
    } catch (const loom::ValueError& e) {
      EXPECT_EQ(std::string(e.what()),
                std::string("LOOM_NUM_THREADS='") + v +
                    "' is not an integer; give 0 for all cores or a thread count from 1 to " +
                    std::to_string(loom::Runtime::max_num_threads()));
    }
  }
}

// 0 means all cores everywhere; the bound itself is accepted and runs.
TEST(RedteamThreads, ZeroIsAllCoresAndTheBoundRuns) {
  loom::Runtime probe(build_options());
  if (!has_target(probe, "parallel")) GTEST_SKIP() << "no parallel target";
  const int all = probe.num_threads();
  {
    EnvThreads env("0");
    loom::Runtime rt(build_options());
    EXPECT_EQ(rt.num_threads(), all);
  }
  EnvThreads env(nullptr);
  loom::Runtime rt(build_options());
  rt.set_num_threads(3);
  EXPECT_EQ(rt.num_threads(), 3);
  rt.set_num_threads(0);
  EXPECT_EQ(rt.num_threads(), all);
  rt.set_num_threads(loom::Runtime::max_num_threads());
  EXPECT_EQ(rt.num_threads(), loom::Runtime::max_num_threads());
  const Array x = loom::arange(0.0, 100000.0);
  const Array y = rt.ufunc("add")(x, x, {.target = "parallel"});
  EXPECT_EQ(values<double>(y)[99999], 199998.0);
  loom::RuntimeOptions o = build_options();
  o.num_threads = loom::Runtime::max_num_threads() + 1;
  EXPECT_THROW(loom::Runtime bad(o), loom::ValueError);
}

// ---- Handles that outlive their Runtime (item 5) -----------------------------------------
// Each used to read the destroyed Runtime (ASan: stack-use-after-scope in resolve_target).

loom::Ufunc add_from_gone_runtime() {
  loom::Runtime rt(build_options());
  return rt.ufunc("add");
}
loom::Reduce sum_from_gone_runtime() {
  loom::Runtime rt(build_options());
  return rt.reduce("sum");
}
loom::Ufunc matmul_from_gone_runtime() {
  loom::Runtime rt(build_options());
  return rt.gufunc("matmul");
}
loom::Kernel kernel_from_gone_runtime() {
  loom::Runtime rt(build_options());
  return rt.kernel("add_kernel");
}

std::vector<std::string> host_targets() {
  loom::Runtime rt(build_options());
  std::vector<std::string> t = {"cpu"};
  if (has_target(rt, "parallel")) t.push_back("parallel");
  return t;
}

TEST(RedteamHandles, UfuncOutlivesItsRuntimeOnEveryHostTarget) {
  const loom::Ufunc add = add_from_gone_runtime();
  for (const auto& t : host_targets()) {
    const Array x = loom::arange(0.0, 100000.0);
    const Array y = add(x, loom::full({100000}, 0.5), {.target = t});
    const auto v = values<double>(y);
    EXPECT_EQ(v[0], 0.5) << t;
    EXPECT_EQ(v[99999], 99999.5) << t;
  }
}

TEST(RedteamHandles, UfuncMethodsOutliveTheirRuntime) {
  const loom::Ufunc add = add_from_gone_runtime();
  for (const auto& t : host_targets()) {
    const Array x = loom::arange(1.0, 5.0);
    EXPECT_EQ(add.reduce(x, {.target = t}).item<double>(), 10.0) << t;
    EXPECT_EQ(values<double>(add.accumulate(x, {.target = t})), (std::vector<double>{1, 3, 6, 10}))
        << t;
    const Array a = loom::zeros({3});
    add.at(a, loom::from_vector(std::vector<std::int64_t>{0, 2, 0}), Array(1.0), {.target = t});
    EXPECT_EQ(values<double>(a), (std::vector<double>{2, 0, 1})) << t;
  }
}

TEST(RedteamHandles, ReduceOutlivesItsRuntimeOnEveryHostTarget) {
  const loom::Reduce sum = sum_from_gone_runtime();
  for (const auto& t : host_targets()) {
    EXPECT_EQ(sum(loom::arange(0.0, 1000.0), {.target = t}).item<double>(), 499500.0) << t;
  }
}

TEST(RedteamHandles, GufuncOutlivesItsRuntimeOnEveryHostTarget) {
  const loom::Ufunc matmul = matmul_from_gone_runtime();
  for (const auto& t : host_targets()) {
    const Array a = loom::arange(1.0, 5.0).reshape({2, 2});
    EXPECT_EQ(values<double>(matmul(a, a, {.target = t})), (std::vector<double>{7, 10, 15, 22}))
        << t;
  }
}

TEST(RedteamHandles, KernelOutlivesItsRuntimeOnEveryHostTarget) {
  const loom::Kernel k = kernel_from_gone_runtime();
  for (const auto& t : host_targets()) {
    const Array x = loom::arange(0.0, 1000.0), y = loom::full({1000}, 2.0);
    const Array out = loom::zeros({1000});
    k.launch({.blocks = 4, .threads = 256, .target = t}, x, y, out);
    const auto v = values<double>(out);
    EXPECT_EQ(v[0], 2.0) << t;
    EXPECT_EQ(v[999], 1001.0) << t;
  }
}

// The last handle going frees the state: a copy made before the Runtime died keeps it alone.
TEST(RedteamHandles, CopiesShareTheStateAndTheLastOneReleasesIt) {
  std::optional<loom::Ufunc> first;
  std::optional<loom::Reduce> second;
  {
    loom::Runtime rt(build_options());
    first = rt.ufunc("multiply");
    second = rt.reduce("sum");
  }
  const loom::Ufunc copy = *first;
  first.reset();
  EXPECT_EQ(values<double>(copy(loom::arange(0.0, 3.0), Array(3.0))),
            (std::vector<double>{0, 3, 6}));
  second.reset();
  EXPECT_EQ(values<double>(copy(Array(2.0), Array(4.0))), (std::vector<double>{8}));
}

// Errors raised through a handle still name the runtime's targets (it used to say "unknown
// target ''" or hang).
TEST(RedteamHandles, TargetErrorsThroughAnOrphanHandleListTheTargets) {
  const loom::Ufunc add = add_from_gone_runtime();
  try {
    add(loom::zeros({2}), loom::zeros({2}), {.target = "gpu"});
    ADD_FAILURE() << "no error";
  } catch (const loom::TargetError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown target 'gpu'; known targets: cpu"),
              std::string::npos)
        << e.what();
  }
}

TEST(RedteamHandles, OrphanHandlesUsedFromSeveralThreads) {
  const loom::Ufunc add = add_from_gone_runtime();
  const loom::Reduce sum = sum_from_gone_runtime();
  std::vector<std::thread> threads;
  std::vector<double> got(4);
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&, i] {
      const Array x = add(loom::arange(0.0, 100.0), Array(double(i)));
      got[i] = sum(x).item<double>();
    });
  }
  for (auto& th : threads) th.join();
  for (int i = 0; i < 4; ++i) EXPECT_EQ(got[i], 4950.0 + 100.0 * i);
}

// Device arrays and streams hold the backend too (needs a GPU; skipped otherwise).
TEST(RedteamHandles, DeviceArraysAndStreamsOutliveTheirRuntime) {
  Array d;
  loom::Stream s;
  loom::Event e;
  std::optional<loom::Ufunc> add;
  {
    loom::Runtime rt(build_options());
    if (!has_target(rt, "cuda")) GTEST_SKIP() << "no cuda target";
    s = rt.stream("cuda");
    d = rt.to_device(loom::arange(0.0, 1000.0), "cuda", s);
    e = s.record();
    add = rt.ufunc("add");
  }
  e.synchronize();
  const Array d2 = (*add)(d, d, {.target = "cuda", .stream = s});
  s.synchronize();
  Array h;
  {
    loom::Runtime rt(build_options());
    h = rt.to_host(d2);
  }
  EXPECT_EQ(values<double>(h)[999], 1998.0);
}

}  // namespace
