// Ops defined in the program itself (Runtime::define): a ufunc, a two-output ufunc, binary ufuncs
// with reduction traits, a gufunc, a reduction and a kernel from define_ops.hpp, called on cpu and
// parallel and checked against plain loops; the ownership rules against plugins; snapshots;
// what libraries() and the descriptors record.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <sstream>
#include <vector>

#include "loom/def/gufunc.hpp"
#include "loom/def/kernel.hpp"
#include "loom/def/reduce.hpp"
#include "loom/def/ufunc.hpp"
#include "loom/error.hpp"
#include "loom/info.hpp"
#include "loom/runtime.hpp"
// After the def headers: the table uses whichever loom::def functions are in scope.
#include "define_ops.hpp"

namespace loom {
namespace {

using V = std::vector<double>;

// The runtime a program gets (serial, math and tbb of this build) with the test's ops defined.
Runtime& rt() {
  static Runtime r;
  static const bool defined = (r.define("test_define", define_test::define_ops), true);
  (void)defined;
  return r;
}

// cpu, and parallel where its backend runs here.
std::vector<std::string> host_targets() {
  std::vector<std::string> out;
  for (const auto& t : rt().targets()) {
    if (t.available && (t.target == "cpu" || t.target == "parallel")) out.push_back(t.target);
  }
  return out;
}

V random_values(std::size_t n, unsigned seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> d(-100, 100);
  V v(n);
  for (auto& x : v) x = d(g);
  return v;
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

TEST(Define, HostTargetsAreThere) {
  const auto t = host_targets();
  ASSERT_FALSE(t.empty()) << "no host target available";
  EXPECT_EQ(t.front(), "cpu");
  if (t.size() == 1) std::cout << "[ note ] target parallel unavailable: parallel not checked\n";
}

TEST(Define, UfuncMatchesAPlainLoopBitForBitOnEveryHostTarget) {
  const std::size_t n = 10007;  // not a multiple of any SIMD width or chunk
  const V x = random_values(n, 1), y = random_values(n, 2);
  V want(n);
  for (std::size_t i = 0; i < n; ++i) want[i] = x[i] * 2.0 + y[i];
  std::vector<float> xf(x.begin(), x.end()), yf(y.begin(), y.end()), wantf(n);
  for (std::size_t i = 0; i < n; ++i) wantf[i] = xf[i] * 2.0f + yf[i];
  for (const auto& t : host_targets()) {
    SCOPED_TRACE(t);
    const Array r = rt().ufunc("app_affine")(from_vector(x), from_vector(y), {.target = t});
    EXPECT_EQ(r.dtype(), DType::float64);
    EXPECT_TRUE(same_bits(r.to_vector<double>(), want));
    const Array rf = rt().ufunc("app_affine")(from_vector(xf), from_vector(yf), {.target = t});
    EXPECT_EQ(rf.dtype(), DType::float32);
    EXPECT_TRUE(same_bits(rf.to_vector<float>(), wantf));
    // Strided and broadcast: the same loops through NumPy's iteration.
    const Array s = rt().ufunc("app_affine")(from_vector(x).slice(0, 0, n, 3), from_vector(V{1.5}),
                                             {.target = t});
    V want_s;
    for (std::size_t i = 0; i < n; i += 3) want_s.push_back(x[i] * 2.0 + 1.5);
    EXPECT_TRUE(same_bits(s.to_vector<double>(), want_s));
  }
}

TEST(Define, TwoOutputUfuncGivesBothOutputs) {
  const V x = random_values(1001, 3), y = random_values(1001, 4);
  std::vector<std::vector<double>> first;
  for (const auto& t : host_targets()) {
    SCOPED_TRACE(t);
    const auto r = rt().ufunc("app_sumdiff").call({from_vector(x), from_vector(y)}, {.target = t});
    ASSERT_EQ(r.size(), 2u);
    const V s = r[0].to_vector<double>(), d = r[1].to_vector<double>();
    for (std::size_t i = 0; i < x.size(); ++i) {
      ASSERT_EQ(s[i], x[i] + y[i]) << i;
      ASSERT_EQ(d[i], x[i] - y[i]) << i;
    }
    if (first.empty()) first = {s, d};
    EXPECT_TRUE(same_bits(s, first[0]) && same_bits(d, first[1]));
  }
}

TEST(Define, ReductionTraitsGiveTheUfuncMethods) {
  V x(1000);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>((i * 37) % 101) - 50;
  double sum = 0, mx = x[0];
  V acc(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    sum += x[i];  // integers: exact in any order
    acc[i] = sum;
    mx = std::max(mx, x[i]);
  }
  const Ufunc plus = rt().ufunc("app_plus"), larger = rt().ufunc("app_larger");
  EXPECT_EQ(plus.desc().identity, std::optional<double>(0.0));
  EXPECT_TRUE(plus.desc().reorderable);
  EXPECT_FALSE(larger.desc().identity);
  EXPECT_TRUE(larger.desc().reorderable);
  for (const auto& t : host_targets()) {
    SCOPED_TRACE(t);
    EXPECT_EQ(plus.reduce(from_vector(x), {.target = t}).item<double>(), sum);
    EXPECT_EQ(plus.accumulate(from_vector(x), {.target = t}).to_vector<double>(), acc);
    EXPECT_EQ(larger.reduce(from_vector(x), {.target = t}).item<double>(), mx);
    // Over a 2-d array's rows, and an empty one: the identity, as np.add.reduce gives 0.
    const Array m = from_vector(x, {10, 100});
    const V rows = plus.reduce(m, {.target = t, .axis = 1}).to_vector<double>();
    for (int r = 0; r < 10; ++r) {
      double s = 0;
      for (int c = 0; c < 100; ++c) s += x[r * 100 + c];
      EXPECT_EQ(rows[r], s) << r;
    }
    EXPECT_EQ(plus.reduce(zeros({0}), {.target = t}).item<double>(), 0.0);
    // No identity: reducing nothing is NumPy's ValueError.
    EXPECT_THROW(larger.reduce(zeros({0}), {.target = t}), ValueError);
  }
}

TEST(Define, ReductionMatchesAPlainSum) {
  std::vector<std::int64_t> xi(5000);
  for (std::size_t i = 0; i < xi.size(); ++i) xi[i] = static_cast<std::int64_t>(i * i % 977) - 400;
  std::int64_t want = 0;
  for (auto v : xi) want += v;
  const V x = random_values(4099, 5);
  for (const auto& t : host_targets()) {
    SCOPED_TRACE(t);
    EXPECT_EQ(rt().reduce("app_total")(from_vector(xi), {.target = t}).item<std::int64_t>(), want);
    double plain = 0;
    for (double v : x) plain += v;
    const double got = rt().reduce("app_total")(from_vector(x), {.target = t}).item<double>();
    // Pairwise, not left to right: within the serial sum's error bound, not bit for bit.
    double abs_sum = 0;
    for (double v : x) abs_sum += std::fabs(v);
    EXPECT_NEAR(got, plain, 4099 * 1.2e-16 * abs_sum);
    EXPECT_EQ(rt().reduce("app_total")(zeros({0}), {.target = t}).item<double>(), 0.0);
  }
  // Every host target folds in the same fixed tree: the same bits.
  const auto t = host_targets();
  if (t.size() > 1) {
    const double a = rt().reduce("app_total")(from_vector(x), {.target = t[0]}).item<double>();
    const double b = rt().reduce("app_total")(from_vector(x), {.target = t[1]}).item<double>();
    EXPECT_EQ(std::memcmp(&a, &b, sizeof a), 0) << a << " vs " << b;
  }
}

TEST(Define, GufuncMatchesAPlainLoop) {
  const int rows = 37, n = 53;
  const V a = random_values(rows * n, 6), b = random_values(n, 7);
  V want(rows);
  for (int r = 0; r < rows; ++r) {
    double s = 0;
    for (int i = 0; i < n; ++i) s += a[r * n + i] * b[i];
    want[r] = s;
  }
  for (const auto& t : host_targets()) {
    SCOPED_TRACE(t);
    const Array r =
        rt().gufunc("app_dot")(from_vector(a, {rows, n}), from_vector(b), {.target = t});
    EXPECT_EQ(r.shape(), (Shape{rows}));
    EXPECT_TRUE(same_bits(r.to_vector<double>(), want));
  }
}

TEST(Define, KernelMatchesAPlainLoop) {
  const V x = random_values(3001, 8);
  const std::vector<float> xf(x.begin(), x.end());
  for (const auto& t : host_targets()) {
    SCOPED_TRACE(t);
    Array out = zeros({3001});
    rt().kernel("app_scale")
        .launch({.blocks = 4, .threads = 64, .target = t}, from_vector(x), 3.0, out);
    const V got = out.to_vector<double>();
    for (std::size_t i = 0; i < x.size(); ++i) ASSERT_EQ(got[i], 3.0 * x[i]) << i;
    Array outf = zeros({3001}, DType::float32);
    rt().kernel("app_scale").launch({.size = 3001, .target = t}, from_vector(xf), 0.5f, outf);
    const auto gotf = outf.to_vector<float>();
    for (std::size_t i = 0; i < xf.size(); ++i) ASSERT_EQ(gotf[i], 0.5f * xf[i]) << i;
  }
}

TEST(Define, RecordsTheProgramAsTheSource) {
  const auto op = rt().registry().find("app_affine");
  ASSERT_TRUE(op);
  EXPECT_EQ(op->plugins, "test_define (defined by the program, host)");
  EXPECT_EQ(Registry::program_source("test_define", Family::host), op->plugins);
  EXPECT_EQ(rt().registry().find_kernel("app_scale")->plugins, op->plugins);
  int records = 0;
  for (const auto& l : rt().libraries()) {
    if (!l.program) continue;
    ++records;
    EXPECT_EQ(l.name, "test_define");
    EXPECT_EQ(l.family, Family::host);
    EXPECT_TRUE(l.ok);
    EXPECT_NE(l.path.find("loom_core_tests"), std::string::npos) << l.path;
  }
  EXPECT_EQ(records, 1);
}

TEST(Define, LoomInfosListingMarksTheProgramsDefinitions) {
  std::ostringstream os;
  print_info(rt(), os);
  const std::string s = os.str();
  // The libraries: the program's record, marked, with its executable.
  EXPECT_NE(s.find("test_define  (defined by the program) "), std::string::npos) << s;
  // The ops and kernels: where each comes from.
  for (const char* name : {"app_affine", "app_sumdiff", "app_dot", "app_total", "app_scale"}) {
    const auto at = s.find("  " + std::string(name) + " ");
    ASSERT_NE(at, std::string::npos) << name << " not listed:\n" << s;
    const auto eol = s.find('\n', at);
    EXPECT_NE(s.substr(at, eol - at).find("from test_define (defined by the program, host)"),
              std::string::npos)
        << s.substr(at, eol - at);
  }
  // A plugin's op stays its library's.
  EXPECT_NE(s.find("from libloom_math.so"), std::string::npos);
}

// The tests below define more in runtimes of their own, so that rt() stays as the others expect.
std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Define, DefiningAnOpTwiceIsRefusedAndChangesNothing) {
  Runtime r;
  r.define("app", [](Registrar& reg) {
    def::ufunc<define_test::Plus, double(double, double)>(reg, "twice", "x + y");
  });
  const std::size_t ops = r.registry().list().size();
  const std::string msg = message_of([&] {
    r.define("app", [](Registrar& reg) {
      def::ufunc<define_test::Larger, double(double, double)>(reg, "not_yet", "max");
      def::ufunc<define_test::Plus, double(double, double)>(reg, "twice", "x + y again");
    });
  });
  EXPECT_EQ(msg,
            "Runtime::define('app') registers op 'twice' float64(float64,float64) for family host, "
            "already registered by app (defined by the program, host); nothing was defined");
  EXPECT_FALSE(r.registry().find("not_yet")) << "merged in part";
  EXPECT_EQ(r.registry().list().size(), ops);
  EXPECT_EQ(r.registry().find("twice")->doc, "x + y");
  int records = 0;
  for (const auto& l : r.libraries()) records += l.program;
  EXPECT_EQ(records, 1) << "a refused definition is not recorded";
}

// x + y of an int8 and a float64: a loop no build of math's add has (nor NumPy's).
struct MixedAdd {
  double operator()(std::int8_t x, double y) const { return x + y; }
};

TEST(Define, AProgramMayNotAddLoopsToAPluginsOp) {
  Runtime r;
  ASSERT_TRUE(r.registry().find("add")) << "the math plugin is not loaded";
  // A loop math's add lacks: still refused, as for a plugin (it could subtract).
  const std::string msg = message_of([&] {
    r.define("app", [](Registrar& reg) {
      def::ufunc<MixedAdd, double(std::int8_t, double)>(reg, "add", "x + y", def::identity(0));
    });
  });
  EXPECT_NE(msg.find("Runtime::define('app') adds float64(int8,float64) to ufunc 'add', which "
                     "belongs "
                     "to plugin 'math' (libloom_math.so"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("give yours another name; nothing was defined"), std::string::npos) << msg;
  EXPECT_THROW(r.define("app",
                        [](Registrar& reg) {
                          def::ufunc<define_test::Plus, float(float, float)>(reg, "add", "x + y");
                        }),
               PluginError);  // a loop math has: a duplicate first
  // Another shape under a plugin's name: refused as well.
  EXPECT_THROW(r.define("app",
                        [](Registrar& reg) {
                          def::gufunc<define_test::Dot, double(double, double)>(reg, "add",
                                                                                "(n),(n)->()", "");
                        }),
               PluginError);
  EXPECT_EQ(r.registry().find("add")->plugins.find("program"), std::string::npos);
}

TEST(Define, APluginMayNotAddLoopsToTheProgramsOp) {
  Runtime r(RuntimeOptions{.plugin_path = {LOOM_TEST_SERIAL_DIR}, .use_default_path = false});
  // libloom_testops.so defines t_add; the program defined it first.
  r.define("app", [](Registrar& reg) {
    def::ufunc<define_test::Plus, std::int64_t(std::int64_t, std::int64_t)>(reg, "t_add", "x + y");
  });
  const std::string msg = message_of([&] { r.load_library(LOOM_TEST_GOOD_LIB); });
  EXPECT_NE(msg.find("to ufunc 't_add', which the program defined "
                     "(Runtime::define('app')); only builds of the plugin that defined it may add "
                     "loops; the plugin is refused"),
            std::string::npos)
      << msg;
}

TEST(Define, TheSameOwnerAddsSignaturesInALaterCallButOldHandlesKeepTheirSnapshot) {
  Runtime r;
  r.define("app", [](Registrar& reg) {
    def::ufunc<define_test::Plus, float(float, float)>(reg, "grow", "x + y");
  });
  const Ufunc before = r.ufunc("grow");
  r.define("app", [](Registrar& reg) {
    def::ufunc<define_test::Plus, double(double, double)>(reg, "grow", "x + y");
  });
  const Array x = from_vector(V{1.5, 2.5});
  EXPECT_EQ(before.desc().loops.size(), 1u);
  EXPECT_THROW(before(x, x), TypeError);  // its snapshot: float64 does not cast to float32 safely
  const Ufunc after = r.ufunc("grow");
  EXPECT_EQ(after.desc().loops.size(), 2u);
  EXPECT_EQ(after(x, x).to_vector<double>(), (V{3.0, 5.0}));
  EXPECT_EQ(after.desc().plugins, "app (defined by the program, host)") << "listed once";
  // Another owner may not: the op is app's.
  EXPECT_THROW(r.define("other",
                        [](Registrar& reg) {
                          def::ufunc<define_test::Plus, std::int64_t(std::int64_t, std::int64_t)>(
                              reg, "grow", "x + y");
                        }),
               PluginError);
}

TEST(Define, CudaDefinitionsNeedTheCudaBackend) {
  Runtime r(RuntimeOptions{.plugin_path = {LOOM_TEST_GOOD_DIR}, .use_default_path = false});
  bool ran = false;
  const std::string msg =
      message_of([&] { r.define("app", Family::cuda, [&](Registrar&) { ran = true; }); });
  EXPECT_EQ(msg,
            "Runtime::define('app') for family cuda: no loaded backend runs cuda loops (target "
            "cuda (libloom_cuda.so) is not on the plugin search path or was refused: "
            "Runtime::libraries() says why); nothing was defined");
  EXPECT_FALSE(ran) << "the function ran though nothing could be defined";
  EXPECT_THROW(r.define("app", [](Registrar&) {}), TargetError);  // no host backend either
}

TEST(Define, MalformedDefinitionsAndTheProgramsOwnExceptionsPassThrough) {
  Runtime r;
  EXPECT_THROW(r.define("", [](Registrar&) {}), ValueError);
  EXPECT_THROW(r.define("app", std::function<void(Registrar&)>{}), ValueError);
  struct Boom {};
  EXPECT_THROW(r.define("app", [](Registrar&) { throw Boom{}; }), Boom);
  EXPECT_FALSE(r.registry().find("app_affine"));
}

TEST(Define, CallingTheProgramsOpWhereNoLoopRunsIsAnError) {
  // Host loops only: a host-family definition never reaches a cuda backend (no silent fallback:
  // the lookup on cuda is an error, tested where a GPU is, tests/backends/cuda).
  const auto op = rt().registry().find("app_affine");
  EXPECT_TRUE(op->has_family(Family::host));
  EXPECT_FALSE(op->has_family(Family::cuda));
}

}  // namespace
}  // namespace loom
