// Combining a sharded reduction's partials on the devices (docs/multi-gpu.md, "Combining on the
// devices") on the test backend "multidev" with plugins/math's reductions (the op's name picks the
// collective op), whose collectives (as NCCL's for cuda) fold in reverse
// device order and count their calls: which reductions take them under each Combine, that the
// results equal the host's fixed-order combine, and the errors when they cannot be used. The
// combines run on cuda:all and cuda:1,0 too (NCCL) where the machine has the GPUs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "../plugins/multidev/device_sets.hpp"
#include "../plugins/multidev/multidev_log.hpp"
#include "loom/collective.hpp"
#include "loom/error.hpp"
#include "loom/runtime.hpp"

namespace loom {
namespace {

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
int collective_calls() { return log().collectives(); }
void reset() { log().reset(); }

template <class T>
Array ints(std::int64_t n, std::int64_t cols, T scale) {
  std::vector<T> v(n * cols);
  for (std::int64_t i = 0; i < n * cols; ++i) v[i] = static_cast<T>((i * 37 % 101 - 50) * scale);
  return from_vector(v, {n, cols});
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(DeviceCombine, TheCollectivesAreFoundForTheirBackend) {
  ASSERT_NE(rt().collectives("multidev"), nullptr);
  EXPECT_EQ(rt().collectives("multidev")->name(), "multidev-coll");
  EXPECT_EQ(rt().collectives("cpu"), nullptr);
}

// The combines run on every set of loom::test::kDeviceSets: multidev's with its counting
// collectives, cuda's with NCCL (skipped with the reason where NCCL or the GPUs are missing). The
// call counts come from multidev's log, so they are checked there only.
class DeviceCombineOn : public ::testing::TestWithParam<loom::test::DeviceSetParam> {
 protected:
  void SetUp() override {
    if (auto why = loom::test::set_unavailable(rt(), set())) GTEST_SKIP() << *why;
    const std::string base = set().substr(0, set().find(':'));
    const Collectives* c = rt().collectives(base);
    if (!c) GTEST_SKIP() << "no collectives for " << base << " (libloom_nccl.so not built)";
    if (auto a = c->availability(); !a.ok) GTEST_SKIP() << base << " collectives: " << a.reason;
  }
  const std::string& set() const { return GetParam().set; }
  const std::string& one() const { return GetParam().one; }
  bool counted() const { return loom::test::is_multidev(set()); }
  void reset() const {
    if (counted()) log().reset();
  }
  // multidev counts its collective calls since reset(); NCCL's are not counted.
  void expect_calls(int want) const {
    if (counted()) {
      EXPECT_EQ(collective_calls(), want);
    }
  }
};

TEST_P(DeviceCombineOn, IntegerSumsCombineOnTheDevicesByDefaultWithTheFixedOrdersBits) {
  const Array x = ints<std::int64_t>(40, 3, 1000003);
  const ShardedArray s = rt().to_devices(x, set());
  const Reduce sum = rt().reduce("sum");
  const auto host = sum(x, {.target = one()}).item<std::int64_t>();
  reset();
  EXPECT_EQ(sum(s).item<std::int64_t>(), host);
  expect_calls(1);
  reset();
  EXPECT_EQ(sum(s, {.combine = Combine::fixed_order}).item<std::int64_t>(), host);
  expect_calls(0);
  EXPECT_EQ(sum(s, {.combine = Combine::collective}).item<std::int64_t>(), host);
  // Over axis 0 with keepdims, initial= counted once, and max.
  reset();
  EXPECT_EQ(
      sum(s, {.axis = 0, .keepdims = true, .initial = Initial(5.0)}).to_vector<std::int64_t>(),
      sum(x, {.target = one(), .axis = 0, .keepdims = true, .initial = Initial(5.0)})
          .to_vector<std::int64_t>());
  EXPECT_EQ(rt().reduce("max")(s, {.axis = 0}).to_vector<std::int64_t>(),
            rt().reduce("max")(x, {.target = one(), .axis = 0}).to_vector<std::int64_t>());
  expect_calls(2);
}

TEST_P(DeviceCombineOn, BoolsCombineAsBytesAnyIsMax) {
  std::vector<bool> v(20, false);
  v[17] = true;  // on the last device only
  const Array b = from_vector(v, {20});
  const ShardedArray s = rt().to_devices(b, set());
  reset();
  EXPECT_TRUE(rt().reduce("any")(s).item<bool>());
  EXPECT_FALSE(
      rt().reduce("any")(rt().to_devices(from_vector(std::vector<bool>(20, false), {20}), set()))
          .item<bool>());
  expect_calls(2);
}

TEST_P(DeviceCombineOn, FloatSumsKeepTheFixedOrderUnlessAskedForTheCollective) {
  std::vector<double> v(300);
  for (int i = 0; i < 300; ++i) v[i] = 1.0 / (i + 1) + (i % 7) * 1e10;
  const Array x = from_vector(v, {300});
  const ShardedArray s = rt().to_devices(x, set());
  const Reduce sum = rt().reduce("sum");
  reset();
  const double fixed = sum(s).item<double>();
  expect_calls(0);
  EXPECT_EQ(fixed, sum(s, {.combine = Combine::fixed_order}).item<double>());
  // The device-set call on the host array has the same partials and order.
  EXPECT_EQ(fixed, sum(x, {.target = set()}).item<double>());
  const double coll = sum(s, {.combine = Combine::collective}).item<double>();
  expect_calls(1);
  EXPECT_NEAR(coll, fixed, 1e-15 * std::abs(fixed) * 4);
  // One device adds in another order. Every term is positive, so any order is within
  // (n - 1) half-ulps of the sum: n * eps * sum bounds the difference of two orders.
  EXPECT_NEAR(sum(x, {.target = one()}).item<double>(), fixed,
              300 * std::numeric_limits<double>::epsilon() * fixed);
}

INSTANTIATE_TEST_SUITE_P(Sets, DeviceCombineOn, ::testing::ValuesIn(loom::test::kDeviceSets),
                         loom::test::device_set_name);

TEST(DeviceCombine, AskingForTheCollectiveWhereItCannotRunIsAnErrorThatSaysWhy) {
  const ShardedArray i16 = rt().to_devices(ints<std::int16_t>(9, 2, 1), "multidev:all");
  reset();
  EXPECT_EQ(rt().reduce("sum")(i16).item<std::int64_t>(),
            rt().reduce("sum")(rt().to_host(i16)).item<std::int64_t>());  // automatic: the host
  // max keeps int16 (sum widens to int64), which the collectives do not reduce.
  std::string m = error_of([&] { rt().reduce("max")(i16, {.combine = Combine::collective}); });
  EXPECT_NE(m.find("cannot reduce these partials: no int16 reductions"), std::string::npos) << m;
  const ShardedArray f = rt().to_devices(ints<double>(9, 2, 0.5), "multidev:all");
  m = error_of([&] { rt().reduce("max")(f, {.combine = Combine::collective}); });
  EXPECT_NE(m.find("max of float64 on the devices would not keep NumPy's NaN rule"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("use Combine::fixed_order or Combine::automatic"), std::string::npos) << m;
  m = error_of([&] { rt().reduce("t_sum")(f, {.combine = Combine::collective}); });
  EXPECT_NE(m.find("'t_sum' has no collective counterpart"), std::string::npos) << m;
  setenv("LOOM_TEST_MULTIDEV_COLL", "off", 1);
  m = error_of([&] { rt().reduce("sum")(f, {.combine = Combine::collective}); });
  const ShardedArray i64 = rt().to_devices(ints<std::int64_t>(9, 2, 3), "multidev:all");
  reset();
  const auto automatic = rt().reduce("sum")(i64).item<std::int64_t>();
  const int calls = collective_calls();
  unsetenv("LOOM_TEST_MULTIDEV_COLL");
  EXPECT_NE(m.find("multidev-coll is unavailable: switched off"), std::string::npos) << m;
  EXPECT_EQ(automatic, rt().reduce("sum")(rt().to_host(i64)).item<std::int64_t>());
  EXPECT_EQ(calls, 0);
  // A device set's reduction of a host array combines on the host: the collective is refused.
  m = error_of([&] {
    rt().reduce("sum")(ints<std::int64_t>(9, 2, 3),
                       {.target = "multidev:all", .combine = Combine::collective});
  });
  EXPECT_NE(m.find("reduce a sharded array"), std::string::npos) << m;
}

TEST(DeviceCombine, AFailingDeviceFailsTheCombinedReduction) {
  const ShardedArray s = rt().to_devices(ints<std::int64_t>(12, 2, 7), "multidev:all");
  setenv("LOOM_TEST_MULTIDEV_FAIL", "2", 1);
  EXPECT_THROW(rt().reduce("sum")(s, {.combine = Combine::collective}), DeviceError);
  unsetenv("LOOM_TEST_MULTIDEV_FAIL");
  EXPECT_EQ(rt().reduce("sum")(s).item<std::int64_t>(),
            rt().reduce("sum")(rt().to_host(s)).item<std::int64_t>());
}

}  // namespace
}  // namespace loom
