// gufunc keywords against NumPy itself: gufunc_cases.py draws calls of NumPy's test gufuncs with
// axes=, axis=, keepdims= and matmul's flexible dims and records NumPy's results or refusals;
// this test replays each on every available target through loom's dot, matmul and the program's
// app_matmul (m?,n),(n,p?)->(m?,p?), and wants the same shape and values (small integers: exact),
// or an error of the matching class (NumPy's TypeError: loom's TypeError; ValueError and
// AxisError: loom's ValueError or ShapeError).
//
// Environment: LOOM_NUMPY_DIFF_SEED (replay a run), LOOM_GUFUNC_DIFF_COUNT (calls, default 3000).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "loom/def/gufunc.hpp"
#include "loom/def/kernel.hpp"
#include "loom/def/reduce.hpp"
#include "loom/def/ufunc.hpp"
#include "loom/runtime.hpp"
// After the def headers: the table uses whichever loom::def functions are in scope.
#include "../core/define_ops.hpp"
#include "python.hpp"

namespace numpy_diff {
namespace {

using json = nlohmann::json;

loom::Runtime& rt() {
  static loom::Runtime r;
  static const bool defined = (r.define("numpy_diff", define_test::define_ops), true);
  (void)defined;
  return r;
}

struct Cases {
  std::string error;
  std::uint64_t seed = 0;
  std::vector<json> calls;
};

const Cases& cases() {
  static const Cases c = [] {
    Cases r;
    const char* s = std::getenv("LOOM_NUMPY_DIFF_SEED");
    r.seed = s && *s ? std::strtoull(s, nullptr, 10) : std::random_device{}() % 1000000000u;
    const char* n = std::getenv("LOOM_GUFUNC_DIFF_COUNT");
    const long count = n && *n ? std::strtol(n, nullptr, 10) : 3000;
    const std::string path =
        std::string(LOOM_NUMPY_DIFF_DIR) + "/gufunc-cases-" + std::to_string(r.seed) + ".jsonl";
    const std::string cmd = std::string("'") + loom::numpy_diff::python3() + "' '" +
                            LOOM_GUFUNC_CASES_SCRIPT + "' " + std::to_string(r.seed) + " " +
                            std::to_string(count) + " '" + path + "'";
    std::printf("gufunc numpy_diff: seed %llu (LOOM_NUMPY_DIFF_SEED replays it)\n",
                static_cast<unsigned long long>(r.seed));
    const int st = std::system(cmd.c_str());
    const int code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    if (code == 3) r.error = "NumPy is not installed for " + loom::numpy_diff::python3();
    if (code != 0 && r.error.empty()) r.error = "gufunc_cases.py failed: " + cmd;
    if (!r.error.empty()) return r;
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);  // the header
    while (std::getline(in, line)) r.calls.push_back(json::parse(line));
    return r;
  }();
  return c;
}

loom::Array operand(const json& shape) {
  loom::Shape s;
  for (const auto& d : shape) s.push_back(d.get<std::int64_t>());
  std::vector<double> v(loom::shape_size(s));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i % 7) - 3;  // as NumPy's
  return loom::from_vector(v, s);
}

// What loom did with one call: "ok" with shape and values, or the error's class.
std::string replay(const json& c, const std::string& target) {
  loom::CallOptions o{.target = target};
  const json& kw = c.at("kw");
  if (kw.contains("axes")) {
    for (const auto& e : kw.at("axes")) o.axes.push_back(e.get<std::vector<int>>());
  }
  if (kw.contains("axis")) o.axis = kw.at("axis").get<int>();
  if (kw.contains("keepdims")) o.keepdims = kw.at("keepdims").get<bool>();
  const auto& sh = c.at("shapes");
  try {
    const loom::Array r =
        rt().gufunc(c.at("op").get<std::string>())(operand(sh[0]), operand(sh[1]), o);
    if (!c.contains("shape"))
      return "loom answered, NumPy raised " + c.at("error").get<std::string>();
    std::vector<std::int64_t> want_shape = c.at("shape").get<std::vector<std::int64_t>>();
    if (std::vector<std::int64_t>(r.shape().begin(), r.shape().end()) != want_shape) {
      return "shape " + loom::shape_str(r.shape()) + ", NumPy's " + c.at("shape").dump();
    }
    if (r.to_vector<double>() != c.at("values").get<std::vector<double>>()) return "other values";
    return "";
  } catch (const loom::TypeError& e) {
    if (c.value("error", "") == "TypeError") return "";
    return std::string("loom TypeError: ") + e.what();
  } catch (const loom::Error& e) {
    const std::string np = c.value("error", "");
    if ((np == "ValueError" || np == "AxisError") &&
        (dynamic_cast<const loom::ValueError*>(&e) || dynamic_cast<const loom::ShapeError*>(&e))) {
      return "";
    }
    return std::string("loom: ") + e.what();
  }
}

class GufuncNumpyDiff : public ::testing::TestWithParam<std::string> {};

TEST_P(GufuncNumpyDiff, SameAnswersAsNumPy) {
  const Cases& cs = cases();
  ASSERT_TRUE(cs.error.empty()) << cs.error;
  bool available = false;
  for (const auto& t : rt().targets())
    available = available || (t.target == GetParam() && t.available);
  if (!available) GTEST_SKIP() << GetParam() << " is not available here";
  int failures = 0;
  for (const json& c : cs.calls) {
    const std::string why = replay(c, GetParam());
    if (why.empty()) continue;
    if (++failures <= 20) {
      ADD_FAILURE() << "case " << c.at("id") << " (seed " << cs.seed << "): " << c.dump() << "\n  "
                    << why;
    }
  }
  EXPECT_EQ(failures, 0) << "of " << cs.calls.size() << " calls";
}

// The app_* ops are defined by this program for the host family only (define_ops.hpp), so cuda has
// no loop for them (an H100 run refused every call there). The options themselves are a view
// transform in the core, the same for every target; tests/core/test_gufunc_options.cpp and
// tests/linalg/test_matmul.cpp run them on cuda.
INSTANTIATE_TEST_SUITE_P(Targets, GufuncNumpyDiff, ::testing::Values("cpu", "parallel"));

}  // namespace
}  // namespace numpy_diff
