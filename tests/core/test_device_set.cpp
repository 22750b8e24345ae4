// Device sets (docs/multi-gpu.md) on the test backend "multidev" (tests/plugins/multidev: three
// host devices), so that the splitting, the combine and the failure paths run without GPUs: every
// result must equal the one-device call's, and the log must show each device's rows.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

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
  static const loom::test::MultidevLog l((rt(), LOOM_TEST_MULTIDEV_LIB));
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

TEST(DeviceSet, UfuncSplitsRowsOverEveryDeviceAndMatchesOneDevice) {
  const Array x = ramp({10, 4}), y = ramp({10, 4}, 0.5);
  const Array want = rt().ufunc("t_add")(x, y);
  log().reset();
  const Array got = rt().ufunc("t_add")(x, y, {.target = "multidev:all"});
  EXPECT_EQ(got.to_vector<double>(), want.to_vector<double>());
  // 10 rows over 3 devices: 4, 3, 3 rows of 4 elements.
  EXPECT_EQ(log().rows(0), 16);
  EXPECT_EQ(log().rows(1), 12);
  EXPECT_EQ(log().rows(2), 12);
}

TEST(DeviceSet, BroadcastOperandsGoWholeAndOutIsWrittenInPlace) {
  const Array x = ramp({7, 5}), row = ramp({5}, 2.0), col = ramp({7, 1}, 3.0);
  Array out = empty({7, 5});
  const Array want = rt().ufunc("t_add")(rt().ufunc("t_add")(x, row), col);
  const Array tmp = rt().ufunc("t_add")(x, row, {.target = "multidev:0,2"});
  const Array got = rt().ufunc("t_add")(tmp, col, {.target = "multidev:0,2", .out = {out}});
  EXPECT_EQ(got.data(), out.data());
  EXPECT_EQ(out.to_vector<double>(), want.to_vector<double>());
}

TEST(DeviceSet, FewerRowsThanDevicesUseFewerDevicesAndScalarsRunOnTheFirst) {
  const Array x = ramp({2, 3});
  log().reset();
  EXPECT_EQ(rt().ufunc("t_add")(x, x, {.target = "multidev:all"}).to_vector<double>(),
            rt().ufunc("t_add")(x, x).to_vector<double>());
  EXPECT_GT(log().rows(0), 0);
  EXPECT_GT(log().rows(1), 0);
  EXPECT_EQ(log().rows(2), 0);
  log().reset();
  const Array s = from_vector(V{2.0}, {});
  EXPECT_EQ(rt().ufunc("t_add")(s, s, {.target = "multidev:2,1"}).item<double>(), 4.0);
  EXPECT_GT(log().rows(2), 0);
  EXPECT_EQ(log().rows(1), 0);
}

TEST(DeviceSet, SeveralOutputsAndGufuncsOverLoopDims) {
  const Array a = ramp({9, 2}), b = from_vector(V(18, 0.75), {9, 2});  // no zero divisor
  const auto want = rt().ufunc("t_divmod").call({a, b});
  const auto got = rt().ufunc("t_divmod").call({a, b}, {.target = "multidev:all"});
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].to_vector<double>(), want[0].to_vector<double>());
  EXPECT_EQ(got[1].to_vector<double>(), want[1].to_vector<double>());
  const Array m = ramp({8, 3, 4}), n = ramp({8, 4, 2}, 0.5), v = ramp({4});
  EXPECT_EQ(rt().ufunc("t_matmul")(m, n, {.target = "multidev:all"}).to_vector<double>(),
            rt().ufunc("t_matmul")(m, n).to_vector<double>());
  log().reset();
  const Array dots = rt().ufunc("t_dot")(m, v, {.target = "multidev:all"});
  EXPECT_EQ(dots.shape(), (Shape{8, 3}));
  EXPECT_EQ(dots.to_vector<double>(), rt().ufunc("t_dot")(m, v).to_vector<double>());
  EXPECT_EQ(log().rows(0) + log().rows(1) + log().rows(2), 24);  // 8 x 3 instances
  EXPECT_EQ(log().rows(2), 6);                                   // rows 3, 3, 2 of 3 instances
}

TEST(DeviceSet, WhereAndAnOverlappingOutMatchOneDevice) {
  const Array x = ramp({6, 3});
  const Array mask = rt().ufunc("t_add")(x, x).astype(DType::bool_);  // nonzero entries
  Array o1 = zeros({6, 3}), o2 = zeros({6, 3});
  rt().ufunc("t_add")(x, x, {.out = {o1}, .where = mask});
  rt().ufunc("t_add")(x, x, {.target = "multidev:all", .out = {o2}, .where = mask});
  EXPECT_EQ(o2.to_vector<double>(), o1.to_vector<double>());
  // out = x[1:] + x[:-1] written over x: each device must read x as it was.
  Array a = ramp({10}), b = ramp({10});
  rt().ufunc("t_add")(a.slice(0, 1, 10), a.slice(0, 0, 9), {.out = {a.slice(0, 0, 9)}});
  rt().ufunc("t_add")(b.slice(0, 1, 10), b.slice(0, 0, 9),
                      {.target = "multidev:all", .out = {b.slice(0, 0, 9)}});
  EXPECT_EQ(b.to_vector<double>(), a.to_vector<double>());
}

TEST(DeviceSet, ReductionsCombinePartialsInDeviceOrder) {
  const Array x = ramp({11, 4});
  log().reset();
  const Array s = rt().reduce("t_sum")(x, {.target = "multidev:all"});
  EXPECT_EQ(log().rows(0) + log().rows(1) + log().rows(2), 44);
  // Small integers in double: every order gives the same sum.
  EXPECT_EQ(s.item<double>(), rt().reduce("t_sum")(x).item<double>());
  const Array rows = rt().reduce("t_sum")(x, {.target = "multidev:all", .axis = 1});
  EXPECT_EQ(rows.to_vector<double>(), rt().reduce("t_sum")(x, {.axis = 1}).to_vector<double>());
  const Array cols = rt().reduce("t_max")(
      x, {.target = "multidev:all", .axis = 0, .keepdims = true, .initial = 50.0});
  EXPECT_EQ(cols.shape(), (Shape{1, 4}));
  EXPECT_EQ(
      cols.to_vector<double>(),
      rt().reduce("t_max")(x, {.axis = 0, .keepdims = true, .initial = 50.0}).to_vector<double>());
  const Array plus = rt().reduce("t_sum")(x, {.target = "multidev:all", .initial = 1000.0});
  EXPECT_EQ(plus.item<double>(), rt().reduce("t_sum")(x, {.initial = 1000.0}).item<double>());
  // The same bits run to run (a fixed combine order) with values that round.
  const Array f = rt().ufunc("t_add")(ramp({1000}, 0.1), from_vector(V{1e-7}, {}));
  const double once = rt().reduce("t_sum")(f, {.target = "multidev:all"}).item<double>();
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(rt().reduce("t_sum")(f, {.target = "multidev:all"}).item<double>(), once);
  }
}

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

TEST(Sharded, ToDevicesSplitsRowsAndToHostGathersThem) {
  const Array x = ramp({10, 3});
  const ShardedArray s = rt().to_devices(x, "multidev:all");
  ASSERT_EQ(s.count(), 3);
  EXPECT_EQ(s.shape(), (Shape{10, 3}));
  EXPECT_EQ(s.shard(0).shape(), (Shape{4, 3}));
  EXPECT_EQ(s.shard(2).shape(), (Shape{3, 3}));
  EXPECT_EQ(s.row_begin(2), 7);
  EXPECT_EQ(s.target(1), "multidev:1");
  EXPECT_EQ(rt().to_host(s).to_vector<double>(), x.to_vector<double>());
  const ShardedArray r = rt().to_devices(x, "multidev:2,0", Sharding::replicated);
  EXPECT_EQ(r.shard(1).shape(), (Shape{10, 3}));
  EXPECT_EQ(rt().to_host(r).to_vector<double>(), x.to_vector<double>());
}

TEST(Sharded, CallsRunOnEveryDevicesShardsAndMatchOneDevice) {
  const Array x = ramp({11, 4}), y = ramp({11, 4}, 0.5), row = ramp({4}, 3.0);
  const ShardedArray xs = rt().to_devices(x, "multidev:all"),
                     ys = rt().to_devices(y, "multidev:all");
  log().reset();
  const ShardedArray z = rt().ufunc("t_add")(xs, ys);
  EXPECT_EQ(z.sharding(), Sharding::split);
  EXPECT_EQ(log().rows(0), 16);
  EXPECT_EQ(log().rows(2), 12);
  EXPECT_EQ(rt().to_host(z).to_vector<double>(), rt().ufunc("t_add")(x, y).to_vector<double>());
  // A host row and a scalar go whole to every device; a replicated operand too.
  const ShardedArray w = rt().ufunc("t_add")(z, row);
  EXPECT_EQ(rt().to_host(rt().ufunc("t_add")(w, 1.0)).to_vector<double>(),
            rt().ufunc("t_add")(rt().ufunc("t_add")(rt().ufunc("t_add")(x, y), row), 1.0)
                .to_vector<double>());
  const ShardedArray rr = rt().to_devices(row, "multidev:all", Sharding::replicated);
  EXPECT_EQ(rt().to_host(rt().ufunc("t_add")(xs, rr)).to_vector<double>(),
            rt().ufunc("t_add")(x, row).to_vector<double>());
  // gufunc over loop dims.
  const Array m = ramp({5, 2, 3});
  const ShardedArray ms = rt().to_devices(m, "multidev:all");
  const ShardedArray d = rt().ufunc("t_dot")(ms, ms);
  EXPECT_EQ(d.shape(), (Shape{5, 2}));
  EXPECT_EQ(rt().to_host(d).to_vector<double>(), rt().ufunc("t_dot")(m, m).to_vector<double>());
}

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

TEST(Sharded, ReductionsCombineInDeviceOrder) {
  const Array x = ramp({13, 3});
  const ShardedArray s = rt().to_devices(x, "multidev:all");
  EXPECT_EQ(rt().reduce("t_sum")(s).item<double>(), rt().reduce("t_sum")(x).item<double>());
  EXPECT_EQ(rt().reduce("t_max")(s, {.axis = 0}).to_vector<double>(),
            rt().reduce("t_max")(x, {.axis = 0}).to_vector<double>());
  // The same partials and order as the device-set call on the host array.
  const Array f = rt().ufunc("t_add")(ramp({999}, 0.1), from_vector(V{1e-7}, {}));
  EXPECT_EQ(rt().reduce("t_sum")(rt().to_devices(f, "multidev:all")).item<double>(),
            rt().reduce("t_sum")(f, {.target = "multidev:all"}).item<double>());
  const ShardedArray r = rt().to_devices(x, "multidev:all", Sharding::replicated);
  EXPECT_EQ(rt().reduce("t_sum")(r).item<double>(), rt().reduce("t_sum")(x).item<double>());
}

}  // namespace
}  // namespace loom
