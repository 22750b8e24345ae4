// Combining a sharded reduction's partials on the devices (docs/multi-gpu.md, "Combining on the
// devices") on the test backend "multidev" with plugins/math's reductions (the op's name picks the
// collective op), whose collectives (as NCCL's for cuda) fold in reverse
// device order and count their calls: which reductions take them under each Combine, that the
// results equal the host's fixed-order combine, and the errors when they cannot be used.
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

TEST(DeviceCombine, IntegerSumsCombineOnTheDevicesByDefaultWithTheFixedOrdersBits) {
  const Array x = ints<std::int64_t>(40, 3, 1000003);
  const ShardedArray s = rt().to_devices(x, "multidev:all");
  const Reduce sum = rt().reduce("sum");
  const auto host = sum(x).item<std::int64_t>();
  reset();
  EXPECT_EQ(sum(s).item<std::int64_t>(), host);
  EXPECT_EQ(collective_calls(), 1);
  reset();
  EXPECT_EQ(sum(s, {.combine = Combine::fixed_order}).item<std::int64_t>(), host);
  EXPECT_EQ(collective_calls(), 0);
  // Over axis 0 with keepdims, initial= counted once, and max.
  reset();
  EXPECT_EQ(
      sum(s, {.axis = 0, .keepdims = true, .initial = Initial(5.0)}).to_vector<std::int64_t>(),
      sum(x, {.axis = 0, .keepdims = true, .initial = Initial(5.0)}).to_vector<std::int64_t>());
  EXPECT_EQ(rt().reduce("max")(s, {.axis = 0}).to_vector<std::int64_t>(),
            rt().reduce("max")(x, {.axis = 0}).to_vector<std::int64_t>());
  EXPECT_EQ(collective_calls(), 2);
  // Two devices of three, listed out of order: device 2's partial is the root.
  const ShardedArray two = rt().to_devices(x, "multidev:2,0");
  EXPECT_EQ(sum(two, {.combine = Combine::collective}).item<std::int64_t>(), host);
}

TEST(DeviceCombine, BoolsCombineAsBytesAnyIsMax) {
  std::vector<bool> v(20, false);
  v[17] = true;  // on the last device only
  const Array b = from_vector(v, {20});
  const ShardedArray s = rt().to_devices(b, "multidev:all");
  reset();
  EXPECT_TRUE(rt().reduce("any")(s).item<bool>());
  EXPECT_FALSE(rt().reduce("any")(rt().to_devices(from_vector(std::vector<bool>(20, false), {20}),
                                                  "multidev:all"))
                   .item<bool>());
  EXPECT_EQ(collective_calls(), 2);
}

TEST(DeviceCombine, FloatSumsKeepTheFixedOrderUnlessAskedForTheCollective) {
  std::vector<double> v(300);
  for (int i = 0; i < 300; ++i) v[i] = 1.0 / (i + 1) + (i % 7) * 1e10;
  const Array x = from_vector(v, {300});
  const ShardedArray s = rt().to_devices(x, "multidev:all");
  const Reduce sum = rt().reduce("sum");
  reset();
  const double fixed = sum(s).item<double>();
  EXPECT_EQ(collective_calls(), 0);
  EXPECT_EQ(fixed, sum(s, {.combine = Combine::fixed_order}).item<double>());
  const double coll = sum(s, {.combine = Combine::collective}).item<double>();
  EXPECT_EQ(collective_calls(), 1);
  EXPECT_NEAR(coll, fixed, 1e-15 * std::abs(fixed) * 4);
}

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
