// Device arrays on every target: to_device / to_host / empty / zeros on host targets give host
// arrays (to_device a copy, as on cuda), so one program runs on whatever target it is given;
// transfer counters and the transfer guard on host targets.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "loom/error.hpp"
#include "loom/runtime.hpp"

namespace loom {
namespace {

Runtime& rt() {
  static Runtime r;  // the default search path: serial, tbb where built, math
  return r;
}

std::vector<std::string> host_targets() {
  std::vector<std::string> out;
  for (const auto& t : rt().targets()) {
    if (t.available && t.target != "cuda") out.push_back(t.target);
  }
  return out;
}

// The program the issue asks for: written once, given a target.
std::vector<double> program(const std::string& target) {
  Runtime& r = rt();
  const Array x = r.to_device(linspace(0.0, 1.0, 5), target);
  const Array y = r.zeros({5}, DType::float64, target);
  const Array z = r.ufunc("add")(x, y, {.target = target});
  r.synchronize(target);
  return r.to_host(z).to_vector<double>();
}

// to_device copies on every target, as cuda does (and Numba's simulator): a write through the
// "device" array must not reach the caller's array on cpu and parallel only. A strided or
// broadcast (read-only) array gives a contiguous, writable copy, as cuda's.
TEST(AnyTargetArrays, ToDeviceOnAHostTargetIsACopy) {
  for (const auto& t : host_targets()) {
    const Array x = arange(4);
    Array d = rt().to_device(x, t);
    EXPECT_NE(d.buffer(), x.buffer()) << t;
    EXPECT_TRUE(d.device().is_host()) << t;
    d.fill(0);
    EXPECT_EQ(x.to_vector<int>(), (std::vector<int>{0, 1, 2, 3})) << t;
    EXPECT_EQ(d.to_vector<int>(), (std::vector<int>{0, 0, 0, 0})) << t;
    Array b = rt().to_device(arange(8).slice(0, 1, 8, 3).broadcast_to({2, 3}), t);
    EXPECT_TRUE(b.is_c_contiguous()) << t;
    b.fill(9);  // writable, unlike the broadcast view it came from
    EXPECT_EQ(b.to_vector<int>(), std::vector<int>(6, 9)) << t;
  }
}

TEST(AnyTargetArrays, ToHostOfAHostArrayIsTheArrayItself) {
  const Array x = arange(4).slice(0, 0, 4, 2);
  const Array h = rt().to_host(x);
  EXPECT_EQ(h.buffer(), x.buffer());
  EXPECT_EQ(h.strides(), x.strides());
}

TEST(AnyTargetArrays, EmptyAndZerosOnHostTargetsAreHostArrays) {
  for (const auto& t : host_targets()) {
    const Array e = rt().empty({2, 3}, DType::float32, t);
    const Array z = rt().zeros({2, 3}, DType::int16, t);
    EXPECT_TRUE(e.device().is_host()) << t;
    EXPECT_EQ(e.shape(), (Shape{2, 3}));
    EXPECT_EQ(z.to_vector<int>(), std::vector<int>(6, 0)) << t;
  }
}

TEST(AnyTargetArrays, OneProgramRunsOnEveryHostTarget) {
  const std::vector<double> want{0, 0.25, 0.5, 0.75, 1};
  for (const auto& t : host_targets()) EXPECT_EQ(program(t), want) << t;
}

TEST(AnyTargetArrays, HostTargetsCountNoTransfers) {
  for (const auto& t : host_targets()) {
    (void)program(t);
    EXPECT_EQ(rt().transfer_counts(t), TransferCounts{}) << t;
  }
}

TEST(AnyTargetArrays, UnknownTargetIsStillTargetError) {
  EXPECT_THROW((void)rt().to_device(arange(2), "tpu"), TargetError);
}

class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* o = std::getenv(name)) old_ = o, had_ = true;
    ::setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (had_)
      ::setenv(name_, old_.c_str(), 1);
    else
      ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::string old_;
  bool had_ = false;
};

RuntimeOptions serial_only(TransferGuard g = TransferGuard::from_env) {
  return RuntimeOptions{
      .plugin_path = {LOOM_TEST_SERIAL_DIR}, .use_default_path = false, .transfer_guard = g};
}

TEST(TransferGuard, DefaultsToAllowAndReadsTheEnvironment) {
  {
    ScopedEnv e("LOOM_TRANSFER_GUARD", "");
    EXPECT_EQ(Runtime(serial_only()).transfer_guard(), TransferGuard::allow);
  }
  {
    ScopedEnv e("LOOM_TRANSFER_GUARD", "disallow");
    EXPECT_EQ(Runtime(serial_only()).transfer_guard(), TransferGuard::disallow);
    // The option wins over the variable.
    EXPECT_EQ(Runtime(serial_only(TransferGuard::allow)).transfer_guard(), TransferGuard::allow);
  }
}

TEST(TransferGuard, BadEnvironmentValueIsValueErrorNamingIt) {
  ScopedEnv e("LOOM_TRANSFER_GUARD", "sometimes");
  try {
    Runtime r(serial_only());
    FAIL() << "LOOM_TRANSFER_GUARD=sometimes accepted";
  } catch (const ValueError& err) {
    EXPECT_NE(std::string(err.what()).find("LOOM_TRANSFER_GUARD='sometimes'"), std::string::npos)
        << err.what();
  }
}

TEST(TransferGuard, HostTargetsNeverTransferSoNeverRefuse) {
  Runtime r(serial_only(TransferGuard::disallow));
  EXPECT_EQ(r.to_device(arange(3), "cpu").to_vector<int>(), (std::vector<int>{0, 1, 2}));
}

}  // namespace
}  // namespace loom
