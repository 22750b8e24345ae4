// loom_parity_tests: one GoogleTest case per (op, loop, target), enumerated at run time from a
// Runtime's registry and targets, so new ops and backends join with no new test code. Prints
// "parity: ran N cases (op x loop x target), M skipped" at the end. LOOM_PARITY_REPORT=1 also
// prints the largest error seen per case, which is how tolerances.hpp's bounds were chosen.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>

#include "cases.hpp"

namespace parity {

loom::Runtime& runtime() {
  static loom::Runtime rt;
  return rt;
}

namespace {

std::string sanitize(std::string s) {
  for (auto& ch : s) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return s;
}

struct Target {
  std::string name;
  bool available;
  std::string reason;
};

// Every listed target; a backend with several devices adds "name:1", "name:2", ...
std::vector<Target> targets() {
  std::vector<Target> out;
  for (const auto& t : runtime().targets()) {
    out.push_back({t.target, t.available, t.reason});
    if (!t.available) continue;
    const int n = runtime().resolve_target(t.target).first->device_count();
    for (int d = 1; d < n; ++d) out.push_back({t.target + ":" + std::to_string(d), true, ""});
  }
  return out;
}

class ParityTest : public testing::Test {
 public:
  ParityTest(std::string op, std::size_t loop, Target target)
      : op_(std::move(op)), loop_(loop), target_(std::move(target)) {}

  void TestBody() override {
    Stats& st = stats();
    if (!target_.available) {
      ++st.skipped;
      GTEST_SKIP() << "target '" << target_.name << "' is unavailable: " << target_.reason;
    }
    const auto op = runtime().registry().find(op_);
    ASSERT_TRUE(op) << "op '" << op_ << "' vanished from the registry";
    const loom::Loop& loop = op->loops.at(loop_);
    const loom::Family family = runtime().resolve_target(target_.name).first->family();
    if (!loop.impl[static_cast<int>(family)].present()) {
      ++st.skipped;
      GTEST_SKIP() << "op '" << op_ << "' has no " << loom::name(family) << " loop for "
                   << loop.sig.str() << " (target '" << target_.name << "')";
    }
    if (op->kind == loom::OpKind::gufunc && family != loom::Family::host) {
      if (const std::string why = gufunc_device_skip(*op, loop); !why.empty()) {
        ++st.skipped;
        GTEST_SKIP() << why;
      }
    }
    Checker check(op_ + " " + loop.sig.str() + " " + target_.name);
    Case c{op,
           &loop,
           target_.name,
           family == loom::Family::host,
           loop.impl[static_cast<int>(loom::Family::host)].present(),
           &check};
    switch (op->kind) {
      case loom::OpKind::ufunc:
        run_ufunc(c);
        run_methods(c);
        break;
      case loom::OpKind::gufunc:
        run_gufunc(c);
        break;
      case loom::OpKind::reduce:
        run_reduce(c);
        break;
    }
    ++st.ran;
    st.checks += check.checks();
    if (c.has_reference) {
      ++st.with_reference;
    } else {
      ++st.cpu_only;
      const std::string what = op_ + " " + loop.sig.str() + " on " + target_.name;
      std::printf("parity: %s has no reference: compared with cpu%s only\n", what.c_str(),
                  c.on_cpu() ? " (itself: views vs copies, determinism)" : "");
    }
    RecordProperty("checks", static_cast<int>(std::min<std::int64_t>(check.checks(), 1 << 30)));
    EXPECT_GT(check.checks(), 0) << "no comparison was made";
  }

 private:
  std::string op_;
  std::size_t loop_;
  Target target_;
};

class Summary : public testing::Environment {
 public:
  void TearDown() override {
    const Stats& st = stats();
    if (const char* r = std::getenv("LOOM_PARITY_REPORT"); r && *r && *r != '0') {
      std::printf(
          "parity: largest error per case (element-wise: ulp; sums: fraction of the bound)\n");
      for (const auto& [key, w] : st.worst) {
        std::printf("  %-50s %8.4f %s (bound %g) at %s\n", key.c_str(), w.err, w.mode.c_str(),
                    w.bound, w.where.c_str());
      }
    }
    std::printf("parity: ran %d cases (op x loop x target), %d skipped\n", st.ran, st.skipped);
    std::printf(
        "parity: %d against cpu and a long double reference, %d against cpu only; "
        "%lld element checks\n",
        st.with_reference, st.cpu_only, static_cast<long long>(st.checks));
    std::fflush(stdout);
  }
};

}  // namespace

}  // namespace parity

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  using parity::runtime;
  std::vector<parity::Target> targets;
  try {
    targets = parity::targets();
  } catch (const loom::Error& e) {
    std::fprintf(stderr, "parity: cannot start a loom Runtime: %s\n", e.what());
    return 1;
  }
  int registered = 0;
  for (const auto& op : runtime().registry().list()) {
    for (std::size_t i = 0; i < op->loops.size(); ++i) {
      for (const auto& t : targets) {
        const std::string suite = "Parity_" + parity::sanitize(op->name);
        const std::string name =
            parity::loop_name(op->loops[i].sig) + "_on_" + parity::sanitize(t.name);
        testing::RegisterTest(
            suite.c_str(), name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
            [=]() -> testing::Test* { return new parity::ParityTest(op->name, i, t); });
        ++registered;
      }
    }
  }
  if (registered == 0) {  // no plugin found: fail loudly rather than pass with nothing run
    testing::RegisterTest("Parity", "RegistryHasOps", nullptr, nullptr, __FILE__, __LINE__,
                          []() -> testing::Test* {
                            struct Empty : testing::Test {
                              void TestBody() override {
                                FAIL() << "no op is registered: is LOOM_PLUGIN_PATH right?";
                              }
                            };
                            return new Empty;
                          });
  }
  testing::AddGlobalTestEnvironment(new parity::Summary);
  return RUN_ALL_TESTS();
}
