// Threads of the parallel target: the count (RuntimeOptions, LOOM_NUM_THREADS, set_num_threads),
// and calls made from inside other parallel regions or from several threads at once.
#include <gtest/gtest.h>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_group.h>

#include <cstdlib>
#include <thread>

#include "helpers.hpp"

namespace {

using loom::Array;
using loom::DType;
using loom_tbb_test::options;
using loom_tbb_test::random_array;
using loom_tbb_test::runtime;
using loom_tbb_test::same_bits;

std::string describe_parallel(const loom::Runtime& rt) {
  for (const auto& t : rt.targets()) {
    if (t.target == "parallel") return t.details;
  }
  return "(no parallel target)";
}

TEST(Threads, DefaultIsEveryCore) {
  unsetenv("LOOM_NUM_THREADS");
  loom::Runtime rt(options());
  EXPECT_EQ(rt.num_threads(), tbb::info::default_concurrency());
  EXPECT_EQ(describe_parallel(rt),
            "host, " + std::to_string(tbb::info::default_concurrency()) + " threads (TBB)");
}

TEST(Threads, RuntimeOptionSetsTheCount) {
  loom::Runtime rt(options(3));
  EXPECT_EQ(rt.num_threads(), 3);
  EXPECT_EQ(describe_parallel(rt), "host, 3 threads (TBB)");
  rt.set_num_threads(1);
  EXPECT_EQ(rt.num_threads(), 1);
}

TEST(Threads, EnvironmentVariableIsRespected) {
  setenv("LOOM_NUM_THREADS", "1", 1);
  loom::Runtime rt(options());
  unsetenv("LOOM_NUM_THREADS");
  EXPECT_EQ(rt.num_threads(), 1);
  EXPECT_EQ(describe_parallel(rt), "host, 1 threads (TBB)");
  const Array x = random_array({1 << 20}, DType::float32, 1);
  EXPECT_TRUE(same_bits(rt.ufunc("t_add")(x, x, {.target = "parallel"}),
                        rt.ufunc("t_add")(x, x, {.target = "cpu"})));
}

// Every piece of a user's parallel_for calls the parallel target: the calls run on their own
// threads (no deadlock, no extra threads) and give the answers and bits of top-level calls.
TEST(Nesting, CallsFromInsideAParallelFor) {
  auto& rt = runtime();
  constexpr int kPieces = 16;
  std::vector<Array> xs, adds, sums;
  for (int i = 0; i < kPieces; ++i) {
    xs.push_back(random_array({300'000}, DType::float32, 200 + i));
    adds.push_back(rt.ufunc("t_sinexp")(xs[i], xs[i], {.target = "cpu"}));
    sums.push_back(rt.reduce("t_sum")(xs[i], {.target = "parallel"}));
  }
  std::vector<Array> got_add(kPieces), got_sum(kPieces);
  tbb::parallel_for(0, kPieces, [&](int i) {
    got_add[i] = rt.ufunc("t_sinexp")(xs[i], xs[i], {.target = "parallel"});
    got_sum[i] = rt.reduce("t_sum")(xs[i], {.target = "parallel"});
  });
  for (int i = 0; i < kPieces; ++i) {
    EXPECT_TRUE(same_bits(got_add[i], adds[i])) << i;
    EXPECT_TRUE(same_bits(got_sum[i], sums[i])) << i;
  }
}

TEST(Nesting, CallsFromATaskGroupAndAnotherArena) {
  auto& rt = runtime();
  const Array x = random_array({1 << 20}, DType::float64, 300);
  const Array want = rt.ufunc("t_add")(x, x, {.target = "cpu"});
  const Array want_sum = rt.reduce("t_sum")(x, {.target = "parallel"});
  Array a, b, s;
  tbb::task_group g;
  g.run([&] { a = rt.ufunc("t_add")(x, x, {.target = "parallel"}); });
  g.run([&] { s = rt.reduce("t_sum")(x, {.target = "parallel"}); });
  g.wait();
  tbb::task_arena user_arena(2);
  user_arena.execute([&] { b = rt.ufunc("t_add")(x, x, {.target = "parallel"}); });
  EXPECT_TRUE(same_bits(a, want));
  EXPECT_TRUE(same_bits(b, want));
  EXPECT_TRUE(same_bits(s, want_sum));
}

TEST(Concurrency, CallsFromSeveralThreadsAtOnce) {
  auto& rt = runtime();
  const Array x = random_array({1 << 20}, DType::float32, 400);
  const Array want = rt.ufunc("t_sinexp")(x, x, {.target = "cpu"});
  const Array want_sum = rt.reduce("t_sum")(x, {.target = "parallel"});
  std::vector<Array> got(4), sums(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      got[t] = rt.ufunc("t_sinexp")(x, x, {.target = "parallel"});
      sums[t] = rt.reduce("t_sum")(x, {.target = "parallel"});
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < 4; ++t) {
    EXPECT_TRUE(same_bits(got[t], want));
    EXPECT_TRUE(same_bits(sums[t], want_sum));
  }
}

}  // namespace
