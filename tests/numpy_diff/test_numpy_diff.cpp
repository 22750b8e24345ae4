// Differential test against NumPy itself (issue 11): gen_cases.py draws random calls (op, method,
// dtypes, shapes, strides, broadcasting, axis, keepdims, initial, where, out, dtype, casting) and
// writes NumPy's answers or refusals; this test replays every call on every available target
// through loom's public API and compares (rules in compare.hpp, accepted differences in
// differences.cpp).
//
// Environment: LOOM_NUMPY_DIFF_SEED (replay a run; default: a fresh seed, printed),
// LOOM_NUMPY_DIFF_COUNT (calls, default 10000), LOOM_NUMPY_DIFF_CASE (replay one case id and
// print it), LOOM_NUMPY_DIFF_SHOW (failures printed in full per target, default 25),
// LOOM_NUMPY_DIFF_DUMP (a file: every finding, excused or not, one JSON line each, for triage),
// LOOM_NUMPY_DIFF_FILE (replay a cases file written earlier instead of drawing new cases),
// LOOM_NUMPY_DIFF_STRICT=1 (no documented differences: every disagreement fails). Each target's
// summary counts the calls each documented difference covered and those whose values NumPy
// leaves undefined (not compared); docs/numpy-diff.md has the commands and the counts of a run.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "compare.hpp"
#include "differences.hpp"
#include "python.hpp"
#include "replay.hpp"

namespace numpy_diff {

namespace {

loom::Runtime& runtime() {
  static loom::Runtime rt;
  return rt;
}

std::int64_t env_int(const char* name, std::int64_t dflt) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoll(v, nullptr, 10) : dflt;
}

struct Suite {
  std::uint64_t seed = 0;
  std::int64_t count = 0;
  std::string path, numpy_version, error;
  std::vector<Case> cases;
  bool failed = false;
};

std::string replay_hint(const Suite& s) {
  return "replay: LOOM_NUMPY_DIFF_SEED=" + std::to_string(s.seed) +
         " LOOM_NUMPY_DIFF_COUNT=" + std::to_string(s.count);
}

// Runs gen_cases.py once per process and reads its cases.
Suite& suite() {
  static Suite s = [] {
    Suite r;
    const char* seed_env = std::getenv("LOOM_NUMPY_DIFF_SEED");
    r.seed = seed_env && *seed_env ? std::strtoull(seed_env, nullptr, 10)
                                   : std::random_device{}() % 1000000000u;
    r.count = env_int("LOOM_NUMPY_DIFF_COUNT", 10000);
    r.path = std::string(LOOM_NUMPY_DIFF_DIR) + "/cases-" + std::to_string(r.seed) + ".jsonl";
    const std::string cmd = std::string("'") + loom::numpy_diff::python3() + "' '" +
                            LOOM_NUMPY_DIFF_SCRIPT + "' " + std::to_string(r.seed) + " " +
                            std::to_string(r.count) + " '" + r.path + "'";
    const char* file = std::getenv("LOOM_NUMPY_DIFF_FILE");
    if (file && *file) {
      r.path = file;
      std::printf("numpy_diff: replaying %s\n", file);
    } else {
      std::printf("numpy_diff: seed %llu, %lld calls (%s)\n  %s\n",
                  static_cast<unsigned long long>(r.seed), static_cast<long long>(r.count),
                  replay_hint(r).c_str(), cmd.c_str());
    }
    std::fflush(stdout);
    const auto t0 = std::chrono::steady_clock::now();
    const int st = file && *file ? 0 : std::system(cmd.c_str());
    const int code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    if (code == 127) {
      r.error = std::string("cannot run ") + loom::numpy_diff::python3() +
                " (configure with -DLOOM_PYTHON3=<python3 with NumPy>, or run scripts/setup-deps)";
      return r;
    }
    if (code == 3) {
      r.error = std::string("NumPy is not installed for ") + loom::numpy_diff::python3() +
                ": run scripts/setup-deps (it installs NumPy from PyPI)";
      return r;
    }
    if (code != 0) {
      r.error = "gen_cases.py failed (exit status " + std::to_string(code) + "): " + cmd;
      return r;
    }
    std::ifstream in(r.path);
    std::string line;
    if (!std::getline(in, line)) {
      r.error = "gen_cases.py wrote nothing to " + r.path;
      return r;
    }
    const json head = json::parse(line);
    r.numpy_version = head.at("numpy").get<std::string>();
    r.seed = head.at("seed").get<std::uint64_t>();  // the file's own, when replaying a file
    r.count = head.at("count").get<std::int64_t>();
    const std::int64_t only = env_int("LOOM_NUMPY_DIFF_CASE", -1);
    while (std::getline(in, line)) {
      Case c = parse_case(line);
      if (only < 0 || c.id == only) r.cases.push_back(std::move(c));
    }
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("numpy_diff: %zu cases from NumPy %s in %.1f s\n", r.cases.size(),
                r.numpy_version.c_str(), secs);
    return r;
  }();
  return s;
}

TEST(NumpyDiff, NumPyAnswersTheDrawnCalls) {
  Suite& s = suite();
  ASSERT_TRUE(s.error.empty()) << s.error;
  if (env_int("LOOM_NUMPY_DIFF_CASE", -1) < 0) {
    // the issue asks for at least 10^4 random calls per CI run
    EXPECT_EQ(static_cast<std::int64_t>(s.cases.size()), s.count);
  }
}

class OnTarget : public testing::TestWithParam<std::string> {};

TEST_P(OnTarget, AgreesWithNumPy) {
  Suite& s = suite();
  ASSERT_TRUE(s.error.empty()) << s.error;
  // "cuda_device": target cuda with the operands in device memory (CuPy's way); else host arrays.
  const std::string param = GetParam();
  const bool device = param == "cuda_device";
  const std::string target = device ? "cuda" : param;
  const loom::Runtime& rt = runtime();
  bool listed = false;
  for (const auto& t : rt.targets()) {
    if (t.target != target) continue;
    listed = true;
    if (!t.available) GTEST_SKIP() << "target '" << target << "' is unavailable: " << t.reason;
  }
  if (!listed) GTEST_SKIP() << "target '" << target << "': its backend was not built or loaded";

  const bool one = env_int("LOOM_NUMPY_DIFF_CASE", -1) >= 0;
  const std::int64_t show = env_int("LOOM_NUMPY_DIFF_SHOW", 25);
  std::map<std::string, int> failures, excused;
  int agreed = 0, both_refused = 0, documented = 0, failed_cases = 0;
  // NumPy's undefined results (gen_cases.py cast_undefined): values not compared, per reason.
  std::map<std::string, int> undefined;
  const char* dump_path = std::getenv("LOOM_NUMPY_DIFF_DUMP");
  std::ofstream dump;
  if (dump_path && *dump_path) dump.open(std::string(dump_path) + "." + param);
  const auto t0 = std::chrono::steady_clock::now();
  for (const Case& c : s.cases) {
    const Outcome o = replay(rt, c, target, device);
    const std::vector<Problem> probs = check(rt, c, o, target != "cpu");
    if (!c.expect.undefined.empty() && !c.expect.error && !o.refused)
      ++undefined[c.expect.undefined];
    bool bad = false, differs = false;
    for (const Problem& p : probs) {
      const Difference* d = excuse(rt, c, o, p);
      if (dump.is_open()) {
        dump << json{{"id", c.id},
                     {"finding", name(p.what)},
                     {"detail", p.detail},
                     {"loom", o.message},
                     {"excused", d ? d->name : ""}}
                    .dump()
             << "\n";
      }
      if (d) {
        ++excused[d->name];
        differs = true;
        continue;
      }
      bad = true;
      ++failures[name(p.what)];
      if (failed_cases < show || one) {
        ADD_FAILURE() << "case " << c.id << " on '" << param << "' (seed " << s.seed
                      << "): " << name(p.what) << ": " << p.detail
                      << (o.refused && p.what != Finding::loom_refuses
                              ? "\n  loom refused: " + o.message
                              : std::string())
                      << "\n  case: "
                      << (one || c.line.size() < 1500 ? c.line : c.line.substr(0, 1500) + "...")
                      << "\n  " << replay_hint(s) << " LOOM_NUMPY_DIFF_CASE=" << c.id;
      }
    }
    if (bad) {
      ++failed_cases;
    } else if (differs) {
      ++documented;
    } else if (c.expect.error) {
      ++both_refused;
    } else {
      ++agreed;
    }
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf(
      "numpy_diff '%s': %zu cases in %.1f s: %d agree, %d refused by both, %d differ as "
      "documented, %d fail\n",
      param.c_str(), s.cases.size(), secs, agreed, both_refused, documented, failed_cases);
  for (const auto& [k, v] : failures) std::printf("  failing: %-50s %d\n", k.c_str(), v);
  for (const auto& [k, v] : excused)
    std::printf("  documented difference: %-50s %d\n", k.c_str(), v);
  for (const auto& [k, v] : undefined)
    std::printf("  values not compared, NumPy's result undefined (%s): %d\n", k.c_str(), v);
  for (const auto& n : difference_names()) {
    if (!excused.count(n))
      std::printf("  documented difference not met in this run: %s\n", n.c_str());
  }
  if (failed_cases) {
    s.failed = true;
    ADD_FAILURE() << failed_cases << " of " << s.cases.size() << " cases fail on '" << param
                  << "' (seed " << s.seed << "; " << replay_hint(s) << "); cases kept in "
                  << s.path;
  }
}

INSTANTIATE_TEST_SUITE_P(Targets, OnTarget,
                         testing::Values("cpu", "parallel", "cuda", "cuda_device"),
                         [](const auto& info) { return info.param; });

}  // namespace

}  // namespace numpy_diff

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  const int rc = RUN_ALL_TESTS();
  auto& s = numpy_diff::suite();
  // The cases of a passing run are not needed again (the seed regenerates them).
  const char* file = std::getenv("LOOM_NUMPY_DIFF_FILE");
  if (rc == 0 && !s.failed && !s.path.empty() && !(file && *file)) std::filesystem::remove(s.path);
  return rc;
}
