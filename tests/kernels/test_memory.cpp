// Where a kernel's arrays live: host arrays given to cuda are copied in, and back out only where
// the kernel may write them (View<T>, not View<const T>); device arrays stay on the device. On
// every target, an array passed as both input and output is updated in place.
#include "helpers.hpp"

namespace loom_kernel_test {
namespace {

class MemoryTest : public KernelTest {};

TEST_P(MemoryTest, AnArrayPassedAsInputAndOutputIsUpdatedInPlace) {
  const auto xv = random_values<double>(1000, 18), yv = random_values<double>(1000, 19);
  Array x = put(loom::from_vector(xv));
  launch("add_stride", config(3, 64), x, put(loom::from_vector(yv)), x);
  std::vector<double> want(1000);
  for (int i = 0; i < 1000; ++i) want[i] = xv[i] + yv[i];
  EXPECT_EQ(values_of<double>(get(x)), want);
}

TEST_P(MemoryTest, DeviceArraysStayOnTheDevice) {
  if (!where().device_arrays) GTEST_SKIP() << "host arrays here";
  Array out = put(loom::zeros({100}, DType::float32));
  launch("add_kernel", config(1, 128), put(loom::zeros({100}, DType::float32)),
         put(loom::zeros({100}, DType::float32)), out);
  EXPECT_EQ(out.device().str(), "cuda:0");
}

// Launches queued on two streams of the device each give their own result; the launch returns
// before its stream is synchronized, and the stream's synchronize makes the result visible.
TEST_P(MemoryTest, LaunchesOnTwoStreamsGiveIndependentResults) {
  if (!where().device_arrays) GTEST_SKIP() << "streams order device arrays' work";
  const loom::Stream s1 = rt().stream(target()), s2 = rt().stream(target());
  const int n = 1 << 20;
  const auto av = random_values<float>(n, 30), bv = random_values<float>(n, 31);
  const Array a = rt().to_device(loom::from_vector(av), target(), s1);
  const Array b = rt().to_device(loom::from_vector(bv), target(), s2);
  Array o1 = rt().empty({n}, DType::float32, target(), s1);
  Array o2 = rt().empty({n}, DType::float32, target(), s2);
  LaunchConfig c1 = config(64, 256), c2 = config(64, 256);
  c1.stream = s1;
  c2.stream = s2;
  rt().kernel("add_stride").launch(c1, a, a, o1);
  rt().kernel("add_stride").launch(c2, b, b, o2);
  s1.synchronize();
  s2.synchronize();
  const Array h1 = rt().to_host(o1, s1), h2 = rt().to_host(o2, s2);
  for (int i = 0; i < n; i += 997) {
    ASSERT_EQ(h1.at<float>(i), av[i] + av[i]) << i;
    ASSERT_EQ(h2.at<float>(i), bv[i] + bv[i]) << i;
  }
}

class CudaHostArrayTest : public KernelTest {
 protected:
  void SetUp() override {
    KernelTest::SetUp();
    if (!IsSkipped() && (on_host() || where().device_arrays)) {
      GTEST_SKIP() << "host arrays given to cuda only";
    }
  }
};

TEST_P(CudaHostArrayTest, WritableHostArraysComeBackWithTheKernelsResults) {
  const auto xv = random_values<float>(1000, 20), yv = random_values<float>(1000, 21);
  Array out = loom::zeros({1000}, DType::float32);
  launch("add_kernel", config(4, 256), loom::from_vector(xv), loom::from_vector(yv), out);
  ASSERT_TRUE(out.device().is_host());
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(out.at<float>(i), xv[i] + yv[i]) << i;
}

TEST_P(CudaHostArrayTest, ConstHostArraysAreNotWrittenBackEvenIfTheKernelWritesItsCopy) {
  const auto inv = random_values<float>(500, 22);
  const Array in = loom::from_vector(inv);
  Array out = loom::zeros({500}, DType::float32);
  launch("t_scribble_const", config(2, 128), in, out);
  EXPECT_EQ(values_of<float>(in), inv);
  EXPECT_EQ(values_of<float>(out), inv);
}

TEST_P(CudaHostArrayTest, AStridedHostOutputComesBackIntoItsView) {
  Array base = loom::full<double>({200}, -7.0);
  const Array x = loom::arange(0.0, 100.0), y = loom::full<double>({100}, 0.5);
  launch("add_stride", config(1, 32), x, y, base.slice(0, 1, 200, 2));
  for (int i = 0; i < 200; ++i) {
    ASSERT_EQ(base.at<double>(i), i % 2 ? (i / 2) + 0.5 : -7.0) << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Targets, MemoryTest, ::testing::ValuesIn(kEveryWhere), where_name);
INSTANTIATE_TEST_SUITE_P(Targets, CudaHostArrayTest, ::testing::ValuesIn(kEveryWhere), where_name);

}  // namespace
}  // namespace loom_kernel_test
