// Launch errors on every target: bad configurations (LaunchError), arguments that fit no overload
// (TypeError), unknown kernels and kernels without a half for the target (LookupError), device
// arrays on host targets (DeviceError). Every one is raised before the kernel runs, so the
// caller's arrays are left as they were.
#include "helpers.hpp"

namespace loom_kernel_test {
namespace {

class LaunchErrorTest : public KernelTest {
 protected:
  void SetUp() override {
    KernelTest::SetUp();
    if (IsSkipped()) return;
    xv = random_values<float>(100, 16);
    yv = random_values<float>(100, 17);
    x = put(loom::from_vector(xv));
    y = put(loom::from_vector(yv));
    out = put(loom::full<float>({100}, -7.0f));
  }
  // Runs f, which must throw E with a message containing every part; then checks x, y and out
  // still hold what they held.
  template <class E, class F>
  void expect_error(F&& f, std::initializer_list<std::string> parts) {
    try {
      f();
      ADD_FAILURE() << "no error";
    } catch (const E& e) {
      const std::string m = e.what();
      for (const auto& p : parts)
        EXPECT_NE(m.find(p), std::string::npos) << "'" << p << "' not in: " << m;
    } catch (const std::exception& e) {
      ADD_FAILURE() << "another error: " << e.what();
    }
    EXPECT_EQ(values_of<float>(get(x)), xv) << "x changed";
    EXPECT_EQ(values_of<float>(get(y)), yv) << "y changed";
    EXPECT_EQ(values_of<float>(get(out)), std::vector<float>(100, -7.0f)) << "out changed";
  }
  void add(const LaunchConfig& c) { launch("add_kernel", c, x, y, out); }

  std::vector<float> xv, yv;
  Array x, y, out;
};

// --- configurations -----------------------------------------------------------------------------

TEST_P(LaunchErrorTest, ZeroBlocksIsALaunchError) {
  expect_error<loom::LaunchError>([&] { add(config(0, 64)); },
                                  {"kernel 'add_kernel': blocks=(0, 1, 1) is not a valid grid"});
}

TEST_P(LaunchErrorTest, NegativeBlocksIsALaunchError) {
  expect_error<loom::LaunchError>([&] { add(config(-3, 64)); },
                                  {"kernel 'add_kernel': blocks=(-3, 1, 1) is not a valid grid"});
}

TEST_P(LaunchErrorTest, ZeroThreadsOnAnyAxisIsALaunchError) {
  expect_error<loom::LaunchError>(
      [&] {
        add(config(4, {8, 0}));
      },
      {"threads=(8, 0, 1) is not a valid block"});
}

TEST_P(LaunchErrorTest, MoreThan1024ThreadsAlongXIsALaunchError) {
  expect_error<loom::LaunchError>([&] { add(config(1, 1025)); },
                                  {"kernel 'add_kernel': threads=(1025, 1, 1) is not a valid block",
                                   "at most 1024 threads per block"});
}

TEST_P(LaunchErrorTest, MoreThan1024ThreadsPerBlockInAllIsALaunchError) {
  expect_error<loom::LaunchError>(
      [&] {
        add(config(1, {64, 32}));
      },
      {"threads=(64, 32, 1) is not a valid block"});
}

TEST_P(LaunchErrorTest, ThreadsZAbove64IsALaunchError) {
  expect_error<loom::LaunchError>(
      [&] {
        add(config(1, {1, 1, 65}));
      },
      {"threads=(1, 1, 65) is not a valid block", "z at most 64"});
}

TEST_P(LaunchErrorTest, BlocksYAbove65535IsALaunchError) {
  expect_error<loom::LaunchError>(
      [&] {
        add(config({1, 65536}, 32));
      },
      {"blocks=(1, 65536, 1) is not a valid grid", "y and z at most 65535"});
}

TEST_P(LaunchErrorTest, BlocksZAbove65535IsALaunchError) {
  expect_error<loom::LaunchError>(
      [&] {
        add(config({1, 1, 65536}, 32));
      },
      {"blocks=(1, 1, 65536) is not a valid grid"});
}

TEST_P(LaunchErrorTest, SharedBytesOverWhatABlockMayHaveIsALaunchError) {
  // 227 KiB is sm_90's opt-in maximum, and the host targets' limit.
  expect_error<loom::LaunchError>([&] { add(config(1, 32, 227 * 1024 + 1)); },
                                  {"kernel 'add_kernel'", "shared_bytes=232449 is more"});
}

TEST_P(LaunchErrorTest, SizeNeedingMoreBlocksThanAGridHoldsIsALaunchError) {
  LaunchConfig c = config_auto(std::int64_t{1} << 31);
  c.threads = 1;
  expect_error<loom::LaunchError>([&] { add(c); }, {"kernel 'add_kernel'", "2147483648"});
}

TEST_P(LaunchErrorTest, NegativeSizeIsAValueError) {
  expect_error<loom::ValueError>([&] { add(config_auto(-5)); },
                                 {"kernel 'add_kernel': size=-5 is negative"});
}

// --- arguments ----------------------------------------------------------------------------------

TEST_P(LaunchErrorTest, ArraysOfADtypeNoOverloadHasIsATypeErrorListingTheSignatures) {
  const Array a = put(loom::zeros({100}, DType::int16));
  expect_error<loom::TypeError>(
      [&] { launch("add_kernel", config(1, 128), a, a, a); },
      {"kernel 'add_kernel' has no overload for arguments (int16[:], int16[:], int16[:]) on "
       "target '" +
           target() + "'",
       "Signatures:\n  add_kernel(const int32[:], const int32[:], int32[:])\n"
       "  add_kernel(const int64[:], const int64[:], int64[:])\n"
       "  add_kernel(const float32[:], const float32[:], float32[:])\n"
       "  add_kernel(const float64[:], const float64[:], float64[:])"});
}

TEST_P(LaunchErrorTest, ArraysOfMixedDtypesAreATypeErrorNotACast) {
  const Array d = put(loom::zeros({100}, DType::float64));
  expect_error<loom::TypeError>([&] { launch("add_kernel", config(1, 128), x, d, out); },
                                {"no overload for arguments (float32[:], float64[:], float32[:])"});
}

TEST_P(LaunchErrorTest, ArraysOfAnotherRankAreATypeError) {
  const Array m = put(loom::zeros({10, 10}, DType::float32));
  expect_error<loom::TypeError>([&] { launch("add_kernel", config(1, 128), m, m, out); },
                                {"(float32[:, :], float32[:, :], float32[:])"});
}

TEST_P(LaunchErrorTest, TooFewArgumentsIsATypeError) {
  expect_error<loom::TypeError>([&] { launch("add_kernel", config(1, 128), x, y); },
                                {"no overload for arguments (float32[:], float32[:])"});
}

TEST_P(LaunchErrorTest, TooManyArgumentsIsATypeError) {
  expect_error<loom::TypeError>([&] { launch("add_kernel", config(1, 128), x, y, out, out); },
                                {"(float32[:], float32[:], float32[:], float32[:])"});
}

TEST_P(LaunchErrorTest, AScalarWhereAnArrayIsExpectedIsATypeError) {
  expect_error<loom::TypeError>([&] { launch("add_kernel", config(1, 128), x, 1.0f, out); },
                                {"(float32[:], float32, float32[:])"});
}

TEST_P(LaunchErrorTest, AFloat64ScalarForAnInt32ParameterIsATypeError) {
  Array ints = put(loom::full<std::int32_t>({10}, 5));
  expect_error<loom::TypeError>([&] { launch("t_fill_i32", config(1, 32), ints, 2.5); },
                                {"(int32[:], float64)", "t_fill_i32(int32[:], int32)"});
  EXPECT_EQ(values_of<std::int32_t>(get(ints)), std::vector<std::int32_t>(10, 5));
}

TEST_P(LaunchErrorTest, AnInt64ScalarForAnInt32ParameterIsConverted) {
  Array ints = put(loom::zeros({1000}, DType::int32));
  launch("t_fill_i32", config(2, 32), ints, std::int64_t{42});
  EXPECT_EQ(values_of<std::int32_t>(get(ints)), std::vector<std::int32_t>(1000, 42));
}

// --- arrays the kernel writes -------------------------------------------------------------------

TEST_P(LaunchErrorTest, AReadOnlyArrayForAWritableParameterIsAValueError) {
  const Array ro = put(loom::full<float>({1}, -7.0f)).broadcast_to({100});
  ASSERT_FALSE(ro.writeable());
  expect_error<loom::ValueError>([&] { launch("add_kernel", config(1, 128), x, y, ro); },
                                 {"kernel 'add_kernel': argument 2 (float32[:]) is read-only"});
}

TEST_P(LaunchErrorTest, AWriteableArrayWithAStrideZeroAxisIsAValueErrorBeforeTheLaunch) {
  // The stride trick: out's buffer seen as 100 copies of its first element, writeable.
  const Array rep(out.buffer(), DType::float32, {100}, {0}, out.offset());
  ASSERT_TRUE(rep.writeable());
  expect_error<loom::ValueError>(
      [&] { launch("add_kernel", config(1, 128), x, y, rep); },
      {"kernel 'add_kernel': argument 2 (float32[:]) repeats its elements: axis 0 has stride 0 "
       "and 100 elements (float32 array of shape (100,) on ",
       "strides (0,)), so threads writing different elements would write the same one"});
}

TEST_P(LaunchErrorTest, AStrideZeroAxisOfAnNdArrayIsNamedWithItsAxis) {
  Array hits = put(loom::zeros({8}, DType::int32));
  const Array rows(hits.buffer(), DType::int32, {2, 4}, {4, 0}, hits.offset());
  Array dims = put(loom::full<std::int64_t>({6}, -1));
  expect_error<loom::ValueError>(
      [&] {
        launch("t_hits", config_auto({4, 2}), rows, dims);
      },
      {"kernel 't_hits': argument 0 (int32[:, :]) repeats its elements: axis 1 has stride 0 and 4 "
       "elements"});
  EXPECT_EQ(values_of<std::int32_t>(get(hits)), std::vector<std::int32_t>(8, 0));
  EXPECT_EQ(values_of<std::int64_t>(get(dims)), std::vector<std::int64_t>(6, -1));
}

TEST_P(LaunchErrorTest, AStrideZeroAxisOfOneElementIsWritable) {
  // One element along the stride-0 axis: nothing repeats.
  Array hits = put(loom::zeros({5}, DType::int32));
  const Array row(hits.buffer(), DType::int32, {1, 5}, {0, 4}, hits.offset());
  Array dims = put(loom::full<std::int64_t>({6}, -1));
  launch("t_hits", config_auto({5, 1}), row, dims);
  EXPECT_EQ(values_of<std::int32_t>(get(hits)), std::vector<std::int32_t>(5, 1));
}

TEST_P(LaunchErrorTest, ABroadcastArrayForAConstParameterIsRead) {
  const Array two = put(loom::full<float>({1}, 2.0f)).broadcast_to({100});
  launch("add_kernel", config(1, 128), x, two, out);
  std::vector<float> want(xv);
  for (auto& v : want) v += 2.0f;
  EXPECT_EQ(values_of<float>(get(out)), want);
}

TEST_P(LaunchErrorTest, AnEmptyArrayIsAValueError) {
  expect_error<loom::ValueError>([&] { launch("add_kernel", config(1, 128), x, Array(), out); },
                                 {"kernel 'add_kernel' got an empty (default-constructed) Array"});
}

TEST_P(LaunchErrorTest, ADeviceArrayOnAHostTargetIsADeviceError) {
  if (!on_host()) GTEST_SKIP() << "device arrays belong on cuda";
  // A host buffer labelled as cuda:0 memory: the check looks at the label before any access.
  static float storage[100];
  const Array dev =
      loom::wrap(storage, {100}, DType::float32, {}, {}, loom::Device{loom::DeviceKind::cuda, 0});
  expect_error<loom::DeviceError>(
      [&] { launch("add_kernel", config(1, 128), x, dev, out); },
      {"kernel 'add_kernel' on target '" + target() +
       "' got float32 array of shape (100,) on cuda:0; move it with Runtime::to_host / to_device "
       "first"});
}

TEST_P(LaunchErrorTest, AKernelWithoutACudaHalfIsALookupErrorOnCuda) {
  if (on_host()) GTEST_SKIP() << "t_host_only runs on host targets";
  Array ints = put(loom::full<std::int32_t>({10}, 5));
  expect_error<loom::LookupError>(
      [&] { launch("t_host_only", config(1, 32), ints); },
      {"kernel 't_host_only' has no cuda implementation, so it cannot run on target 'cuda' "
       "(registered by libloom_test_kernels.so)"});
  EXPECT_EQ(values_of<std::int32_t>(get(ints)), std::vector<std::int32_t>(10, 5));
}

TEST_P(LaunchErrorTest, AKernelWithoutAHostHalfIsALookupErrorOnHostTargets) {
  if (!on_host()) GTEST_SKIP() << "t_cuda_only's CUDA half is a stand-in that must not run";
  loom::Runtime r(options());
  r.load_library(kExtraPlugins + "/libloom_ktest_fake_cuda_only.so");
  Array ints = loom::full<std::int32_t>({10}, 5);
  expect_error<loom::LookupError>(
      [&] { r.kernel("t_cuda_only").launch(config(1, 32), ints); },
      {"kernel 't_cuda_only' has no host implementation, so it cannot run on target '" + target() +
       "' (registered by libloom_ktest_fake_cuda_only.so)"});
  EXPECT_EQ(values_of<std::int32_t>(ints), std::vector<std::int32_t>(10, 5));
}

TEST_P(LaunchErrorTest, AnUnknownTargetIsATargetError) {
  LaunchConfig c = config(1, 128);
  c.target = "tpu";
  expect_error<loom::TargetError>([&] { add(c); }, {"unknown target 'tpu'"});
}

INSTANTIATE_TEST_SUITE_P(Targets, LaunchErrorTest, ::testing::ValuesIn(kEveryWhere), where_name);

// --- names
// ----------------------------------------------------------------------------------------

TEST(KernelLookup, AnUnknownKernelNameIsALookupError) {
  try {
    runtime().kernel("no_such_kernel");
    FAIL() << "no error";
  } catch (const loom::LookupError& e) {
    EXPECT_STREQ(e.what(),
                 "no kernel named 'no_such_kernel' is registered; loom-info lists the registered "
                 "kernels");
  }
}

TEST(KernelLookup, AnOpsNameIsNotAKernelAndTheErrorSaysSo) {
  try {
    runtime().kernel("add");
    FAIL() << "no error";
  } catch (const loom::LookupError& e) {
    EXPECT_NE(std::string(e.what()).find("(there is an op of that name: use ufunc/reduce)"),
              std::string::npos)
        << e.what();
  }
}

TEST(KernelLookup, AKernelsNameIsNotAnOp) {
  EXPECT_THROW(runtime().ufunc("add_kernel"), loom::LookupError);
}

}  // namespace
}  // namespace loom_kernel_test
