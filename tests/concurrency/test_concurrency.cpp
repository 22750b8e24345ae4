// Many threads on ONE Runtime: the registry, the per-op resolution caches, the plugin loader and
// the backends' thread pools are shared. Every result is checked against values computed before
// the threads start. Run under TSan by the tsan preset (docs/reliability.md).
#include <gtest/gtest.h>

#include <atomic>
#include <barrier>
#include <cmath>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "loom/loom.hpp"

using loom::Array;
using loom::DType;

namespace {

constexpr int kThreads = 8;
// Above the TBB backend's serial cutoff (32Ki elements), so "parallel" really splits the work.
constexpr std::int64_t kN = 40 * 1024;
constexpr std::int64_t kRows = 64, kCols = 512;

bool have_parallel(const loom::Runtime& rt) {
  for (const auto& t : rt.targets()) {
    if (t.target == "parallel") return t.available;
  }
  return false;
}

std::vector<std::string> host_targets(const loom::Runtime& rt) {
  std::vector<std::string> t{"cpu"};
  if (have_parallel(rt)) t.push_back("parallel");
  return t;
}

// Whole numbers in [-50, 50): every sum below is exact in any order, so the expected values are
// exact too, on every target.
Array ints(std::int64_t n, unsigned seed, DType dt = DType::float64) {
  std::vector<double> v(static_cast<std::size_t>(n));
  unsigned s = seed;
  for (auto& x : v) {
    s = s * 1664525u + 1013904223u;
    x = static_cast<double>(static_cast<int>((s >> 8) % 100) - 50);
  }
  return loom::from_vector(v).astype(dt);
}

// Inputs and the results expected for them, computed serially in plain C++.
struct Case {
  Array a = ints(kN, 1), b = ints(kN, 2);
  Array bpos = ints(kN, 3).astype(DType::int64);  // divmod's divisor: nonzero below
  Array x = loom::linspace(-3.0, 3.0, kN), y = loom::linspace(-1.0, 1.0, kN);
  Array m = ints(kRows * kCols, 4).reshape({kRows, kCols});
  std::vector<double> add, sinexp, sum_row;
  std::vector<std::int64_t> q, r;
  double sum = 0;
  Case() {
    auto av = a.to_vector<double>(), bv = b.to_vector<double>();
    auto xv = x.to_vector<double>(), yv = y.to_vector<double>();
    auto mv = m.to_vector<double>();
    auto dv = bpos.to_vector<std::int64_t>();
    for (auto& d : dv) d = d >= 0 ? d + 1 : d;  // never 0
    bpos = loom::from_vector(dv);
    for (std::int64_t i = 0; i < kN; ++i) {
      add.push_back(av[i] + bv[i]);
      sinexp.push_back(std::sin(xv[i]) * std::exp(yv[i]));
      sum += av[i];
      const auto ai = static_cast<std::int64_t>(av[i]);
      std::int64_t qq = ai / dv[i], rr = ai % dv[i];
      if (rr != 0 && ((rr < 0) != (dv[i] < 0))) {
        --qq;
        rr += dv[i];
      }  // floor, as np.divmod
      q.push_back(qq);
      r.push_back(rr);
    }
    for (std::int64_t i = 0; i < kRows; ++i) {
      double s = 0;
      for (std::int64_t j = 0; j < kCols; ++j) s += mv[i * kCols + j];
      sum_row.push_back(s);
    }
  }
};

const Case& data() {
  static const Case c;
  return c;
}

// sin/exp may be vectorized (xsimd) differently from libm: a few ulps, not exact.
bool close(const std::vector<double>& got, const std::vector<double>& want) {
  if (got.size() != want.size()) return false;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (!(std::abs(got[i] - want[i]) <= 1e-12 * (1 + std::abs(want[i])))) return false;
  }
  return true;
}

// One op called once on `target`; returns an error description, empty when right.
std::string call_one(const loom::Runtime& rt, int which, const std::string& target) {
  const Case& d = data();
  const loom::CallOptions o{.target = target};
  switch (which % 5) {
    case 0:
      if (rt.ufunc("add")(d.a, d.b, o).to_vector<double>() != d.add) return "add " + target;
      break;
    case 1:
      if (!close(rt.ufunc("sinexp")(d.x, d.y, o).to_vector<double>(), d.sinexp))
        return "sinexp " + target;
      break;
    case 2:
      if (rt.reduce("sum")(d.a, {.target = target}).item<double>() != d.sum) return "sum " + target;
      break;
    case 3:
      if (rt.gufunc("sum_row")(d.m, o).to_vector<double>() != d.sum_row) return "sum_row " + target;
      break;
    case 4: {
      auto qr = rt.ufunc("divmod").call({d.a.astype(DType::int64), d.bpos}, o);
      if (qr.size() != 2 || qr[0].to_vector<std::int64_t>() != d.q ||
          qr[1].to_vector<std::int64_t>() != d.r)
        return "divmod " + target;
      break;
    }
  }
  return {};
}

// Runs body(thread index) on kThreads threads released together; collects failures (gtest
// assertions are only made on the main thread).
std::vector<std::string> run_threads(const std::function<std::string(int)>& body) {
  std::vector<std::string> errors(kThreads);
  std::barrier start(kThreads);
  std::vector<std::thread> ts;
  for (int t = 0; t < kThreads; ++t) {
    ts.emplace_back([&, t] {
      start.arrive_and_wait();
      try {
        errors[t] = body(t);
      } catch (const std::exception& e) {
        errors[t] = std::string("threw: ") + e.what();
      }
    });
  }
  for (auto& t : ts) t.join();
  std::vector<std::string> bad;
  for (auto& e : errors) {
    if (!e.empty()) bad.push_back(e);
  }
  return bad;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& e : v) s += e + "; ";
  return s;
}

}  // namespace

// Different ops on different targets at once, many times each, on one runtime.
TEST(Concurrency, ManyThreadsManyOpsOneRuntime) {
  loom::Runtime rt;
  data();
  const auto targets = host_targets(rt);
  auto bad = run_threads([&](int t) -> std::string {
    for (int i = 0; i < 5; ++i) {
      auto e = call_one(rt, t + i, targets[(t + i / 5) % targets.size()]);
      if (!e.empty()) return e;
    }
    return {};
  });
  EXPECT_TRUE(bad.empty()) << join(bad);
}

// Every thread makes the first call of the same fresh ops (empty resolution caches) at the same
// moment, with different input dtypes, so the caches fill concurrently.
TEST(Concurrency, ConcurrentFirstCalls) {
  for (int round = 0; round < 3; ++round) {
    loom::Runtime rt;  // fresh descriptors: fresh caches
    const auto targets = host_targets(rt);
    const DType dts[] = {DType::float64, DType::float32, DType::int32, DType::int64};
    auto bad = run_threads([&](int t) -> std::string {
      const DType dt = dts[t % 4];
      Array a = loom::from_vector(std::vector<double>{1, 2, 3, 4}).astype(dt);
      auto s = rt.ufunc("add")(a, a, {.target = targets[t % targets.size()]});
      if (s.to_vector<double>() != std::vector<double>{2, 4, 6, 8}) return "add " + s.str();
      auto r = rt.reduce("sum")(a, {.target = targets[(t + 1) % targets.size()]});
      if (r.item<double>() != 10) return "sum " + r.str();
      auto m = rt.gufunc("sum_row")(a.reshape({2, 2}));
      if (m.to_vector<double>() != std::vector<double>{3, 7}) return "sum_row " + m.str();
      return {};
    });
    EXPECT_TRUE(bad.empty()) << join(bad);
  }
}

// The first use of lazily opened libraries (docs/plugins.md, "When libraries are opened") from
// every thread at once, on a fresh runtime that opened nothing yet: each thread looks up and
// calls other ops on other targets, so lookups open libraries, targets open backends, and one
// thread lists the targets meanwhile (opening every backend, cuda's too where built, and with it
// the cuda halves of the names looked up so far) while handles are being called.
TEST(Concurrency, FirstUseOfLazyLibrariesFromManyThreads) {
  data();
  std::vector<std::string> targets{"cpu"};
  if (have_parallel(loom::Runtime())) targets.push_back("parallel");  // another runtime asked
  for (int round = 0; round < 3; ++round) {
    loom::Runtime rt;
    auto bad = run_threads([&](int t) -> std::string {
      if (t == kThreads - 1) {
        if (rt.targets().empty()) return "no targets";
        return {};
      }
      for (int i = 0; i < 3; ++i) {
        auto e = call_one(rt, t + i, targets[(t + i + round) % targets.size()]);
        if (!e.empty()) return e;
      }
      return {};
    });
    EXPECT_TRUE(bad.empty()) << join(bad);
  }
}

// Handles taken before a library adds loops to their names, called from every thread while it
// happens (Runtime::current_op): one thread loads float64 loops of lz_add, lz_sum and lz_fill
// (tests/plugins/lazy), another opens the fake cuda-family backend, which opens lz_fill's fake
// CUDA half; the float32 calls never fail, the float64 ones work from the load on.
TEST(Concurrency, HandlesCalledWhileLibrariesAddLoops) {
  loom::Runtime rt(loom::RuntimeOptions{.plugin_path = {LOOM_CONC_SERIAL_DIR, LOOM_CONC_LAZY_DIR},
                                        .use_default_path = false});
  const auto add = rt.ufunc("lz_add");
  const auto sum = rt.reduce("lz_sum");
  const auto fill = rt.kernel("lz_fill");
  const Array x32 = loom::full({64}, 2.0f), x64 = loom::full({64}, 2.0);
  std::atomic<bool> loaded{false}, finished{false};
  auto bad = run_threads([&](int t) -> std::string {
    if (t == 0) {
      struct Finish {
        std::atomic<bool>& f;
        ~Finish() { f = true; }
      } finish{finished};
      rt.load_library(LOOM_CONC_LAZY_MORE_LIB);
      loaded = true;
      return {};
    }
    if (t == 1) {
      try {
        rt.resolve_target("fakecuda");  // unavailable, but opened: the cuda family opens
      } catch (const loom::TargetError&) {
      }
      return {};
    }
    for (int i = 0; i < 20 || !finished; ++i) {
      const bool after = loaded;
      if (add(x32, x32).to_vector<double>()[63] != 4) return "lz_add float32";
      if (sum(x32).item<float>() != 128) return "lz_sum float32";
      Array out = loom::zeros({64}, DType::float32);
      fill.launch({.size = 64}, out, 3.0f);
      if (out.to_vector<double>()[0] != 3) return "lz_fill float32";
      if (after) {
        if (add(x64, x64).to_vector<double>()[0] != 4) return "lz_add float64 after the load";
        if (sum(x64).item<double>() != 128) return "lz_sum float64 after the load";
      }
    }
    return {};
  });
  EXPECT_TRUE(bad.empty()) << join(bad);
  EXPECT_TRUE(rt.kernel("lz_fill").desc().has_family(loom::Family::cuda));
}

// One thread loads a plugin while the others keep calling ops that exist; the new op is callable
// right after load_library returns, from any thread, and handles taken before stay valid.
TEST(Concurrency, LoadLibraryWhileCalling) {
  loom::Runtime rt;
  data();
  const auto targets = host_targets(rt);
  auto add = rt.ufunc("add");  // a handle taken before the load
  std::atomic<bool> loaded{false}, finished{false};
  auto bad = run_threads([&](int t) -> std::string {
    if (t == 0) {
      // The others call until the load is over, whether it worked or not (never spin forever).
      struct Finish {
        std::atomic<bool>& f;
        ~Finish() { f = true; }
      } finish{finished};
      rt.load_library(LOOM_CONC_LATE_LIB);
      loaded = true;
      auto r = rt.ufunc("c_triple")(loom::linspace(0.0, 1.0, 5), {.target = targets.back()});
      if (r.to_vector<double>() != std::vector<double>{0, 0.75, 1.5, 2.25, 3}) return "c_triple";
      return {};
    }
    for (int i = 0; i < 4 || !finished; ++i) {
      auto e = call_one(rt, t + i, targets[(t + i) % targets.size()]);
      if (!e.empty()) return e;
      if (add(data().a, data().b).to_vector<double>() != data().add) return "old add handle";
      if (loaded) {
        auto r = rt.ufunc("c_triple")(loom::linspace(0.0, 1.0, 3));
        if (r.to_vector<double>() != std::vector<double>{0, 1.5, 3}) return "c_triple after load";
      }
    }
    return {};
  });
  EXPECT_TRUE(bad.empty()) << join(bad);
  bool found = false;
  for (const auto& l : rt.libraries()) found = found || (l.name == "late" && l.ok);
  EXPECT_TRUE(found);
}

// Loading the same plugin from several threads at once: exactly one load wins, the others are
// refused (its op is already registered), and the runtime stays usable.
TEST(Concurrency, SameLibraryLoadedFromManyThreads) {
  loom::Runtime rt;
  std::atomic<int> ok{0}, refused{0};
  auto bad = run_threads([&](int) -> std::string {
    try {
      rt.load_library(LOOM_CONC_LATE_LIB);
      ++ok;
    } catch (const loom::PluginError&) {
      ++refused;
    }
    auto r = rt.ufunc("c_triple")(loom::linspace(0.0, 1.0, 3));
    return r.to_vector<double>() == std::vector<double>{0, 1.5, 3} ? "" : "c_triple";
  });
  EXPECT_TRUE(bad.empty()) << join(bad);
  EXPECT_EQ(ok, 1);
  EXPECT_EQ(refused, kThreads - 1);
}

// set_num_threads from one thread while the others run parallel calls: calls in flight finish on
// the pool they started with; results do not change.
TEST(Concurrency, SetNumThreadsWhileCalling) {
  loom::Runtime rt;
  if (!have_parallel(rt)) GTEST_SKIP() << "no parallel target";
  data();
  std::atomic<bool> done{false};
  auto bad = run_threads([&](int t) -> std::string {
    if (t == 0) {
      for (int n : {1, 3, 2, 4, 1, 2}) {
        rt.set_num_threads(n);
        if (rt.num_threads() < 1) return "num_threads";
        std::this_thread::yield();
      }
      done = true;
      return {};
    }
    for (int i = 0; i < 3 || !done; ++i) {
      auto e = call_one(rt, t + i, "parallel");
      if (!e.empty()) return e;
    }
    return {};
  });
  EXPECT_TRUE(bad.empty()) << join(bad);
}
