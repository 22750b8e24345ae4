// Device sets (docs/multi-gpu.md) on the test backend "multidev" (tests/plugins/multidev: three
// host devices), so that the splitting, the combine and the failure paths run without GPUs, and on
// the GPUs there are (cuda:all, cuda:1,0; skipped with the reason where there are too few): every
// result must equal the one-device call's, and on multidev the log must show each device's rows.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "../plugins/multidev/device_sets.hpp"
#include "../plugins/multidev/multidev_log.hpp"
#include "loom/error.hpp"
#include "loom/runtime.hpp"

namespace loom {
namespace {

using V = std::vector<double>;

Runtime& rt() {
  static Runtime r(RuntimeOptions{
      .plugin_path = {LOOM_TEST_SERIAL_DIR, LOOM_TEST_GOOD_DIR, LOOM_TEST_MULTIDEV_DIR},
      .use_default_path = false});
  return r;
}

const loom::test::MultidevLog& log() {
  static const loom::test::MultidevLog l((rt().resolve_target("multidev"), LOOM_TEST_MULTIDEV_LIB));
  return l;
}

Array ramp(Shape s, double scale = 1.0) {
  std::int64_t n = 1;
  for (auto d : s) n *= d;
  V v(n);
  for (std::int64_t i = 0; i < n; ++i) v[i] = scale * static_cast<double>(i % 97) - 3.5;
  return from_vector(v, s);
}

TEST(DeviceSet, TargetsOfASet) {
  EXPECT_EQ(rt().device_targets("multidev:all"),
            (std::vector<std::string>{"multidev:0", "multidev:1", "multidev:2"}));
  EXPECT_EQ(rt().device_targets("multidev:2,0"),
            (std::vector<std::string>{"multidev:2", "multidev:0"}));
  EXPECT_EQ(rt().device_targets("cpu"), (std::vector<std::string>{"cpu"}));
}

// The skip of a set this machine cannot run (cuda:1,0 on one GPU), checked where it can be: on
// multidev's three devices.
TEST(DeviceSet, ASetOfDevicesTheMachineLacksSkipsWithTheReason) {
  EXPECT_EQ(loom::test::set_unavailable(rt(), "multidev:all"), std::nullopt);
  EXPECT_EQ(loom::test::set_unavailable(rt(), "multidev:2,0"), std::nullopt);
  EXPECT_EQ(loom::test::set_unavailable(rt(), "multidev:1,3"),
            "multidev:1,3 needs 4 devices; this machine has 3");
  EXPECT_EQ(loom::test::set_unavailable(rt(), "nosuch:all"),
            "no backend for target 'nosuch' on the search path");
}

TEST(DeviceSet, BadListsAreTargetErrorsNamingTheEntry) {
  auto msg = [](const std::string& t) {
    try {
      rt().device_targets(t);
    } catch (const TargetError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(msg("multidev:0,0").find("device 0 is listed twice"), std::string::npos);
  EXPECT_NE(msg("multidev:0,7").find("device 7 does not exist (3 device(s))"), std::string::npos);
  EXPECT_NE(msg("multidev:0,").find("an empty entry"), std::string::npos);
  EXPECT_NE(msg("multidev:0,x").find("must be a number"), std::string::npos);
  EXPECT_NE(msg("nosuch:all").find("unknown target 'nosuch'"), std::string::npos);
}

// The result-checking tests run on every set of loom::test::kDeviceSets (multidev's, and cuda:all
// and cuda:1,0 where there are GPUs), with plugins/math's and linalg's ops, which have host and
// CUDA loops (the t_ ops of libloom_testops have host loops only). Every result must equal the
// call on the set's one device bit for bit: the inputs are multiples of 0.5, whose sums and
// products are exact in any order. On multidev the log also shows which device got which rows.
class DeviceSetCalls : public ::testing::TestWithParam<loom::test::DeviceSetParam> {
 protected:
  void SetUp() override {
    if (auto why = loom::test::set_unavailable(rt(), set())) GTEST_SKIP() << *why;
  }
  const std::string& set() const { return GetParam().set; }
  const std::string& one() const { return GetParam().one; }
  std::vector<std::string> devices() const { return rt().device_targets(set()); }
  // The device number of each of the set's devices ("multidev:2" -> 2).
  std::vector<int> numbers() const {
    std::vector<int> n;
    for (const auto& d : devices()) n.push_back(std::stoi(d.substr(d.find(':') + 1)));
    return n;
  }
  // On multidev, that `n` rows of `per_row` elements each went over the set's devices by the
  // rows rule (n / k each, the first n % k one more) and nothing ran on the others. Other
  // backends keep no log: nothing to check.
  void expect_rows(std::int64_t n, std::int64_t per_row) const {
    if (!loom::test::is_multidev(set())) return;
    const std::vector<int> d = numbers();
    const auto k = static_cast<std::int64_t>(d.size());
    for (int dev = 0; dev < 3; ++dev) {
      const auto at = std::find(d.begin(), d.end(), dev) - d.begin();
      const std::int64_t want = at < k ? (n / k + (at < n % k ? 1 : 0)) * per_row : 0;
      EXPECT_EQ(log().rows(dev), want) << "device " << dev;
    }
  }
  // On multidev, the elements all the set's devices ran (and none else did).
  std::int64_t logged_rows() const {
    std::int64_t sum = 0;
    for (int dev : numbers()) sum += log().rows(dev);
    EXPECT_EQ(log().rows(0) + log().rows(1) + log().rows(2), sum) << "a device outside the set ran";
    return sum;
  }
  void reset_log() const {
    if (loom::test::is_multidev(set())) log().reset();
  }
};

TEST_P(DeviceSetCalls, UfuncSplitsRowsOverEveryDeviceAndMatchesOneDevice) {
  const Array x = ramp({10, 4}), y = ramp({10, 4}, 0.5);
  const Array want = rt().ufunc("add")(x, y, {.target = one()});
  reset_log();
  const Array got = rt().ufunc("add")(x, y, {.target = set()});
  EXPECT_EQ(got.to_vector<double>(), want.to_vector<double>());
  expect_rows(10, 4);  // multidev:all: 4, 3, 3 rows of 4 elements
}

TEST_P(DeviceSetCalls, BroadcastOperandsGoWholeAndOutIsWrittenInPlace) {
  const Array x = ramp({7, 5}), row = ramp({5}, 2.0), col = ramp({7, 1}, 3.0);
  Array out = empty({7, 5});
  const Array want =
      rt().ufunc("add")(rt().ufunc("add")(x, row, {.target = one()}), col, {.target = one()});
  const Array tmp = rt().ufunc("add")(x, row, {.target = set()});
  const Array got = rt().ufunc("add")(tmp, col, {.target = set(), .out = {out}});
  EXPECT_EQ(got.data(), out.data());
  EXPECT_EQ(out.to_vector<double>(), want.to_vector<double>());
}

TEST_P(DeviceSetCalls, FewerRowsThanDevicesUseFewerDevicesAndScalarsRunOnTheFirst) {
  const Array x = ramp({2, 3});
  const Array want = rt().ufunc("add")(x, x, {.target = one()});  // before the log's reset
  reset_log();
  EXPECT_EQ(rt().ufunc("add")(x, x, {.target = set()}).to_vector<double>(),
            want.to_vector<double>());
  expect_rows(2, 3);  // on multidev:all the third device gets none
  const Array s = from_vector(V{2.0}, {});
  reset_log();
  EXPECT_EQ(rt().ufunc("add")(s, s, {.target = set()}).item<double>(), 4.0);
  expect_rows(1, 1);  // the set's first device only
}

TEST_P(DeviceSetCalls, SeveralOutputsAndGufuncsOverLoopDims) {
  const Array a = ramp({9, 2}), b = from_vector(V(18, 0.75), {9, 2});  // no zero divisor
  const auto want = rt().ufunc("divmod").call({a, b}, {.target = one()});
  const auto got = rt().ufunc("divmod").call({a, b}, {.target = set()});
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].to_vector<double>(), want[0].to_vector<double>());
  EXPECT_EQ(got[1].to_vector<double>(), want[1].to_vector<double>());
  const Array m = ramp({8, 3, 4}), n = ramp({8, 4, 2}, 0.5), v = ramp({4});
  EXPECT_EQ(rt().ufunc("matmul")(m, n, {.target = set()}).to_vector<double>(),
            rt().ufunc("matmul")(m, n, {.target = one()}).to_vector<double>());
  reset_log();
  const Array dots = rt().ufunc("dot")(m, v, {.target = set()});
  EXPECT_EQ(dots.shape(), (Shape{8, 3}));
  expect_rows(8, 3);  // 8 x 3 instances, split by rows of 3
  EXPECT_EQ(dots.to_vector<double>(),
            rt().ufunc("dot")(m, v, {.target = one()}).to_vector<double>());
}

TEST_P(DeviceSetCalls, WhereAndAnOverlappingOutMatchOneDevice) {
  const Array x = ramp({6, 3});
  const Array mask = rt().ufunc("add")(x, x).astype(DType::bool_);  // nonzero entries
  Array o1 = zeros({6, 3}), o2 = zeros({6, 3});
  rt().ufunc("add")(x, x, {.target = one(), .out = {o1}, .where = mask});
  rt().ufunc("add")(x, x, {.target = set(), .out = {o2}, .where = mask});
  EXPECT_EQ(o2.to_vector<double>(), o1.to_vector<double>());
  // out = x[1:] + x[:-1] written over x: each device must read x as it was.
  Array a = ramp({10}), b = ramp({10});
  rt().ufunc("add")(a.slice(0, 1, 10), a.slice(0, 0, 9),
                    {.target = one(), .out = {a.slice(0, 0, 9)}});
  rt().ufunc("add")(b.slice(0, 1, 10), b.slice(0, 0, 9),
                    {.target = set(), .out = {b.slice(0, 0, 9)}});
  EXPECT_EQ(b.to_vector<double>(), a.to_vector<double>());
}

TEST_P(DeviceSetCalls, ReductionsCombinePartialsInDeviceOrder) {
  const Array x = ramp({11, 4});
  const Reduce sum = rt().reduce("sum"), max = rt().reduce("max");
  reset_log();
  const Array s = sum(x, {.target = set()});
  if (loom::test::is_multidev(set())) {
    EXPECT_EQ(logged_rows(), 44);
  }
  EXPECT_EQ(s.item<double>(), sum(x, {.target = one()}).item<double>());
  EXPECT_EQ(sum(x, {.target = set(), .axis = 1}).to_vector<double>(),
            sum(x, {.target = one(), .axis = 1}).to_vector<double>());
  const Array cols = max(x, {.target = set(), .axis = 0, .keepdims = true, .initial = 50.0});
  EXPECT_EQ(cols.shape(), (Shape{1, 4}));
  EXPECT_EQ(
      cols.to_vector<double>(),
      max(x, {.target = one(), .axis = 0, .keepdims = true, .initial = 50.0}).to_vector<double>());
  EXPECT_EQ(sum(x, {.target = set(), .initial = 1000.0}).item<double>(),
            sum(x, {.target = one(), .initial = 1000.0}).item<double>());
  // The same bits run to run (a fixed combine order) with values that round; one device's sum
  // adds in another order, so only this is held to bits.
  const Array f = rt().ufunc("add")(ramp({1000}, 0.1), from_vector(V{1e-7}, {}));
  const double once = sum(f, {.target = set()}).item<double>();
  for (int i = 0; i < 5; ++i) EXPECT_EQ(sum(f, {.target = set()}).item<double>(), once);
}

TEST_P(DeviceSetCalls, ShardedToDevicesSplitsRowsAndToHostGathersThem) {
  const Array x = ramp({10, 3});
  const std::vector<std::string> d = devices();
  const auto k = static_cast<std::int64_t>(d.size());
  const ShardedArray s = rt().to_devices(x, set());
  ASSERT_EQ(s.count(), k);
  EXPECT_EQ(s.shape(), (Shape{10, 3}));
  std::int64_t begin = 0;
  for (std::int64_t i = 0; i < k; ++i) {  // the rows rule: 10 / k each, the first 10 % k one more
    const std::int64_t rows = 10 / k + (i < 10 % k ? 1 : 0);
    EXPECT_EQ(s.shard(static_cast<int>(i)).shape(), (Shape{rows, 3})) << i;
    EXPECT_EQ(s.row_begin(static_cast<int>(i)), begin) << i;
    EXPECT_EQ(s.target(static_cast<int>(i)), d[i]) << i;
    begin += rows;
  }
  EXPECT_EQ(rt().to_host(s).to_vector<double>(), x.to_vector<double>());
  const ShardedArray r = rt().to_devices(x, set(), Sharding::replicated);
  EXPECT_EQ(r.shard(static_cast<int>(k - 1)).shape(), (Shape{10, 3}));
  EXPECT_EQ(rt().to_host(r).to_vector<double>(), x.to_vector<double>());
}

TEST_P(DeviceSetCalls, ShardedCallsRunOnEveryDevicesShardsAndMatchOneDevice) {
  const Array x = ramp({11, 4}), y = ramp({11, 4}, 0.5), row = ramp({4}, 3.0);
  const Ufunc add = rt().ufunc("add");
  const CallOptions on_one{.target = one()};
  const ShardedArray xs = rt().to_devices(x, set()), ys = rt().to_devices(y, set());
  reset_log();
  const ShardedArray z = add(xs, ys);
  EXPECT_EQ(z.sharding(), Sharding::split);
  expect_rows(11, 4);
  EXPECT_EQ(rt().to_host(z).to_vector<double>(), add(x, y, on_one).to_vector<double>());
  // A host row and a scalar go whole to every device; a replicated operand too.
  const ShardedArray w = add(z, row);
  EXPECT_EQ(rt().to_host(add(w, 1.0)).to_vector<double>(),
            add(add(add(x, y, on_one), row, on_one), 1.0, on_one).to_vector<double>());
  const ShardedArray rr = rt().to_devices(row, set(), Sharding::replicated);
  EXPECT_EQ(rt().to_host(add(xs, rr)).to_vector<double>(), add(x, row, on_one).to_vector<double>());
  // gufunc over loop dims.
  const Array m = ramp({5, 2, 3});
  const ShardedArray ms = rt().to_devices(m, set());
  const ShardedArray d = rt().ufunc("dot")(ms, ms);
  EXPECT_EQ(d.shape(), (Shape{5, 2}));
  EXPECT_EQ(rt().to_host(d).to_vector<double>(),
            rt().ufunc("dot")(m, m, on_one).to_vector<double>());
}

TEST_P(DeviceSetCalls, ShardedReductionsCombineInDeviceOrder) {
  const Array x = ramp({13, 3});
  const Reduce sum = rt().reduce("sum"), max = rt().reduce("max");
  const ShardedArray s = rt().to_devices(x, set());
  EXPECT_EQ(sum(s).item<double>(), sum(x, {.target = one()}).item<double>());
  EXPECT_EQ(max(s, {.axis = 0}).to_vector<double>(),
            max(x, {.target = one(), .axis = 0}).to_vector<double>());
  // The same partials and order as the device-set call on the host array.
  const Array f = rt().ufunc("add")(ramp({999}, 0.1), from_vector(V{1e-7}, {}));
  EXPECT_EQ(sum(rt().to_devices(f, set())).item<double>(),
            sum(f, {.target = set()}).item<double>());
  const ShardedArray r = rt().to_devices(x, set(), Sharding::replicated);
  EXPECT_EQ(sum(r).item<double>(), sum(x, {.target = one()}).item<double>());
}

INSTANTIATE_TEST_SUITE_P(Sets, DeviceSetCalls, ::testing::ValuesIn(loom::test::kDeviceSets),
                         loom::test::device_set_name);

TEST(DeviceSet, AFailingDeviceIsAnErrorAfterEveryPartEnded) {
  const Array x = ramp({30, 2});
  setenv("LOOM_TEST_MULTIDEV_FAIL", "1", 1);
  EXPECT_THROW(rt().ufunc("t_add")(x, x, {.target = "multidev:all"}), DeviceError);
  EXPECT_THROW(rt().reduce("t_sum")(x, {.target = "multidev:all"}), DeviceError);
  unsetenv("LOOM_TEST_MULTIDEV_FAIL");
  EXPECT_EQ(rt().ufunc("t_add")(x, x, {.target = "multidev:all"}).to_vector<double>(),
            rt().ufunc("t_add")(x, x).to_vector<double>());
}

TEST(DeviceSet, CallsThatRunOnOneDeviceSaySo) {
  const Array x = ramp({4});
  try {
    rt().ufunc("t_add").accumulate(x, {.target = "multidev:all"});
    FAIL() << "no error";
  } catch (const TargetError& e) {
    EXPECT_NE(std::string(e.what()).find("names a device set"), std::string::npos) << e.what();
  }
  Array wrong = empty({3});
  EXPECT_THROW(
      rt().ufunc("t_add")(ramp({6}), ramp({6}), {.target = "multidev:all", .out = {wrong}}),
      ShapeError);
}

}  // namespace
}  // namespace loom

namespace loom {
namespace {

TEST(Sharded, MixedShardingsAreErrorsThatSayWhatToDo) {
  const Array x = ramp({6, 2});
  const ShardedArray a = rt().to_devices(x, "multidev:all");
  auto msg = [](auto f) {
    try {
      f();
    } catch (const ValueError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(msg([&] {
              rt().ufunc("t_add")(a, rt().to_devices(x, "multidev:0,1"));
            }).find("mixed shardings: argument 1 is on multidev:0,multidev:1"),
            std::string::npos);
  EXPECT_NE(msg([&] {
              rt().ufunc("t_add")(a, rt().to_devices(ramp({7, 2}), "multidev:all"));
            }).find("has 7 rows split over the devices, argument 0 6"),
            std::string::npos);
  EXPECT_NE(msg([&] {
              rt().ufunc("t_add")(a, rt().to_devices(ramp({6, 4, 2}), "multidev:all"));
            }).find("not the call's first loop dim"),
            std::string::npos);
  EXPECT_NE(msg([&] { rt().reduce("t_sum")(a, {.axis = 1}); }).find("over axes without axis 0"),
            std::string::npos);
}

}  // namespace
}  // namespace loom
