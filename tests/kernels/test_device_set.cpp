// Kernels on a device set (docs/multi-gpu.md, "Kernels"): the grid split along its slowest axis
// of more than one block, each device running its part against its own copies of the arguments,
// the elements each device changed written back. On the test backend "multidev" (three host
// devices), on cuda:all where there is a GPU and on cuda:1,0 where there are two: every result
// must equal one device's, the kernel must see the whole grid, and what cannot be merged must be
// an error that changes nothing.
#include <cstdlib>

#include "../plugins/multidev/device_sets.hpp"
#include "../plugins/multidev/multidev_log.hpp"
#include "helpers.hpp"
#include "loom/backend.hpp"

namespace loom_kernel_test {
namespace {

loom::Runtime& set_rt() {
  static loom::Runtime r(loom::RuntimeOptions{
      .plugin_path = {kTestPlugins, LOOM_KTEST_MULTIDEV_DIR}, .use_default_path = true});
  return r;
}

const loom::test::MultidevLog& log() {
  static const loom::test::MultidevLog l(
      (set_rt().resolve_target("multidev"), LOOM_KTEST_MULTIDEV_LIB));
  return l;
}

// The sets each test runs on, and the one device it is compared with.
struct Set {
  std::string set, one;
};
class KernelOnSet : public ::testing::TestWithParam<Set> {
 protected:
  // Skips where the backend is unavailable or the set lists a device the machine lacks.
  void SetUp() override {
    if (auto why = loom::test::set_unavailable(set_rt(), set())) GTEST_SKIP() << *why;
  }
  const std::string& set() const { return GetParam().set; }
  const std::string& one() const { return GetParam().one; }
  LaunchConfig on_set(LaunchConfig c) const {
    c.target = set();
    return c;
  }
  LaunchConfig on_one(LaunchConfig c) const {
    c.target = one();
    return c;
  }
  template <class... A>
  void launch(const std::string& k, const LaunchConfig& c, const A&... args) const {
    set_rt().kernel(k).launch(c, args...);
  }
};

Array ramp(Shape s, double scale = 1.0) {
  std::int64_t n = 1;
  for (auto d : s) n *= d;
  std::vector<double> v(n);
  for (std::int64_t i = 0; i < n; ++i) v[i] = scale * static_cast<double>(i % 97) - 3.5;
  return loom::from_vector(v, s);
}

bool same(const Array& a, const Array& b) {
  return a.shape() == b.shape() && a.dtype() == b.dtype() &&
         set_rt().reduce("all")(set_rt().ufunc("equal")(a, b)).item<bool>();
}

TEST_P(KernelOnSet, OnePerThreadEqualsOneDeviceAndLeavesUncoveredElements) {
  const Array x = ramp({330}), y = ramp({330}, 0.5);
  for (const LaunchConfig& c :
       {LaunchConfig{.blocks = 10, .threads = 32},  // 320 of 330
        LaunchConfig{.blocks = 11, .threads = 32}, LaunchConfig{.size = 330}}) {
    Array got = loom::full({330}, -7.0), want = loom::full({330}, -7.0);
    launch("add_kernel", on_set(c), x, y, got);
    launch("add_kernel", on_one(c), x, y, want);
    EXPECT_TRUE(same(got, want));
  }
}

TEST_P(KernelOnSet, TheKernelSeesTheWholeGrid) {
  // One row of coordinates per thread (blockIdx, gridDim, grid(), gridsize() ...) on 1-, 2- and
  // 3-d grids: each split along its slowest axis of more than one block.
  for (const auto& [blocks, threads] : {std::pair<Extent, Extent>{{7}, {5}},
                                        {{3, 5}, {4, 2}},
                                        {{2, 3, 4}, {2, 2, 2}},
                                        {{3, 4, 1}, {2, 1, 1}},
                                        {{1, 1, 5}, {3, 1, 1}}}) {
    const std::int64_t rows =
        blocks.x * blocks.y * blocks.z * threads.x * threads.y * threads.z + 3;
    Array got = loom::full<std::int64_t>({rows, 20}, -1);
    Array want = loom::full<std::int64_t>({rows, 20}, -1);
    launch("t_coords", on_set({.blocks = blocks, .threads = threads}), got);
    launch("t_coords", on_one({.blocks = blocks, .threads = threads}), want);
    EXPECT_TRUE(same(got, want)) << "blocks (" << blocks.x << ", " << blocks.y << ", " << blocks.z
                                 << ")";
  }
}

TEST_P(KernelOnSet, GridsOfTwoAndThreeDimensions) {
  const Array a = ramp({12, 16, 8}), b = ramp({12, 16, 8}, -0.7);
  Array got = loom::zeros({12, 16, 8}), want = loom::zeros({12, 16, 8});
  launch("maximum_3d", on_set({.blocks = {3, 4, 2}, .threads = {4, 4, 4}}), a, b, got);
  launch("maximum_3d", on_one({.blocks = {3, 4, 2}, .threads = {4, 4, 4}}), a, b, want);
  EXPECT_TRUE(same(got, want));
  // Jacobi reads its neighbours' rows, which other devices' blocks cover: each device has all.
  const Array in = ramp({37, 45});
  Array gj = loom::zeros({37, 45}), wj = loom::zeros({37, 45});
  launch("jacobi_2d", on_set({.size = {45, 37}}), in, gj);
  launch("jacobi_2d", on_one({.size = {45, 37}}), in, wj);
  EXPECT_TRUE(same(gj, wj));
}

TEST_P(KernelOnSet, BlockKernelsWithSharedMemoryAndBarriers) {
  const Array x = ramp({1000});
  for (const char* k : {"block_sum", "block_sum_sync"}) {
    Array got = loom::full({8}, -1.0), want = loom::full({8}, -1.0);
    const LaunchConfig c{.blocks = 8, .threads = 128, .shared_bytes = 128 * sizeof(double)};
    launch(k, on_set(c), x, got);
    launch(k, on_one(c), x, want);
    EXPECT_TRUE(same(got, want)) << k;
  }
}

TEST_P(KernelOnSet, GridStrideKernelsGetAGridOnEveryDevice) {
  // Automatic blocks without a size: each device gets the grid that fills one device, and every
  // element is hit once.
  const std::int64_t n = 5000;
  Array hits = loom::zeros({n}, DType::int32), owner = loom::full<std::int64_t>({n}, -1);
  launch("t_grid_stride", on_set({}), hits, owner, n);
  EXPECT_EQ(hits.to_vector<std::int32_t>(), std::vector<std::int32_t>(n, 1));
  const Array x = ramp({n}), y = ramp({n}, 3.0);
  Array got = loom::zeros({n}), want = loom::zeros({n});
  launch("add_stride", on_set({}), x, y, got);
  launch("add_stride", on_one({}), x, y, want);
  EXPECT_TRUE(same(got, want));
}

TEST_P(KernelOnSet, StridedArgumentsAreWrittenInPlace) {
  const Array big = ramp({40});
  Array out = loom::full({40}, 9.0);
  const Array view = out.slice(0, 1, 40, 2);  // 20 elements, every second
  launch("square_kernel", on_set({.blocks = 5, .threads = 4}), big.slice(0, 0, 40, 2), view);
  const auto o = out.to_vector<double>(), b = big.to_vector<double>();
  for (int i = 0; i < 40; ++i) {
    EXPECT_EQ(o[i], i % 2 ? b[i - 1] * b[i - 1] : 9.0) << i;
  }
}

TEST_P(KernelOnSet, AnElementChangedOnTwoDevicesIsAnErrorThatChangesNothing) {
  if (set_rt().device_targets(set()).size() < 2) GTEST_SKIP() << set() << " has one device";
  const Array x = ramp({4000});
  Array hist = loom::full<std::int32_t>({10}, 5);
  Array other = loom::full<std::int32_t>({4}, 3);
  try {
    launch("histogram", on_set({.blocks = 8, .threads = 64}), x, -3.5, 93.5, hist);
    FAIL() << "no error";
  } catch (const loom::ValueError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("kernel 'histogram' on the device set '" + set() + "': argument 3 (int32[:])"),
              std::string::npos)
        << m;
    EXPECT_NE(m.find("was changed by blocks on"), std::string::npos) << m;
  }
  EXPECT_EQ(hist.to_vector<std::int32_t>(), std::vector<std::int32_t>(10, 5));
  // cell[0] is written by every thread's atomic; `old` by one thread each.
  Array cell = loom::zeros({1}, DType::int32);
  EXPECT_THROW(launch("t_atomic_add", on_set({.blocks = 4, .threads = 1}), cell, other, 1),
               loom::ValueError);
  EXPECT_EQ(cell.to_vector<std::int32_t>(), std::vector<std::int32_t>{0});
  EXPECT_EQ(other.to_vector<std::int32_t>(), std::vector<std::int32_t>(4, 3));
  // Blocks of one device only: merged as one device wrote them.
  launch("histogram", on_set({.blocks = 1, .threads = 64}), x, -3.5, 93.5, hist);
  Array want = loom::full<std::int32_t>({10}, 5);
  launch("histogram", on_one({.blocks = 1, .threads = 64}), x, -3.5, 93.5, want);
  EXPECT_TRUE(same(hist, want));
}

TEST_P(KernelOnSet, WritableArgumentsThatOverlapAreRefused) {
  if (set_rt().device_targets(set()).size() < 2) GTEST_SKIP() << set() << " has one device";
  Array a = loom::zeros({8}, DType::int32);
  try {
    launch("t_atomic_add", on_set({.blocks = 2, .threads = 4}), a.slice(0, 0, 1), a, 1);
    FAIL() << "no error";
  } catch (const loom::ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("arguments 0 (int32 array of shape (1,) on host) and 1 "
                                         "(int32 array of shape (8,) on host) are writable and "
                                         "may share memory"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(a.to_vector<std::int32_t>(), std::vector<std::int32_t>(8, 0));
}

TEST_P(KernelOnSet, AStreamIsRefused) {
  if (set().rfind("cuda", 0) != 0) GTEST_SKIP() << "streams are cuda's";
  Array out = loom::zeros({8});
  const Array x = ramp({8});
  EXPECT_THROW(
      launch("add_kernel",
             {.blocks = 1, .threads = 8, .target = set(), .stream = set_rt().stream(one())}, x, x,
             out),
      loom::ValueError);
}

INSTANTIATE_TEST_SUITE_P(Sets, KernelOnSet,
                         ::testing::Values(Set{"multidev:all", "multidev:0"},
                                           Set{"multidev:2,0", "multidev:1"},
                                           // One GPU: a set of one, no merge.
                                           Set{"cuda:all", "cuda:0"},
                                           // Two GPUs or more, out of order.
                                           Set{"cuda:1,0", "cuda:0"}),
                         [](const auto& i) {
                           std::string s = i.param.set;
                           for (char& c : s) c = (c == ':' || c == ',') ? '_' : c;
                           return s;
                         });

// How the multidev devices split a grid: along the slowest axis of more than one block, n / k
// each and the first n % k one more, only as many devices as blocks.
TEST(KernelOnSetSplit, BlocksSplitAlongTheSlowestAxis) {
  // t_coords writes one row per thread of the whole grid, so no two blocks share an element.
  auto run = [&](Extent blocks, const std::string& set) {
    Array rows = loom::zeros({blocks.x * blocks.y * blocks.z * 2, 20}, DType::int64);
    log().reset();
    set_rt().kernel("t_coords").launch({.blocks = blocks, .threads = 2, .target = set}, rows);
    return std::vector<std::int64_t>{log().rows(0), log().rows(1), log().rows(2)};
  };
  EXPECT_EQ(run({10}, "multidev:all"), (std::vector<std::int64_t>{4, 3, 3}));
  EXPECT_EQ(run({2}, "multidev:all"), (std::vector<std::int64_t>{1, 1, 0}));
  EXPECT_EQ(run({5, 4}, "multidev:all"), (std::vector<std::int64_t>{10, 5, 5}));      // y: 2, 1, 1
  EXPECT_EQ(run({2, 3, 4}, "multidev:2,0"), (std::vector<std::int64_t>{12, 0, 12}));  // z: 2, 2
  EXPECT_EQ(run({7, 1, 1}, "multidev:1"), (std::vector<std::int64_t>{0, 7, 0}));
}

TEST(KernelOnSetSplit, BlocksOfOneGridAxisOnTwoDevicesWritingOneElementAreRefused) {
  // add_kernel indexes by grid() (x alone): with 4 blocks along y, blocks on different devices
  // write the same elements, which cannot be merged.
  const Array x = ramp({64});
  Array out = loom::full({64}, 2.0);
  EXPECT_THROW(set_rt()
                   .kernel("add_kernel")
                   .launch({.blocks = {8, 4}, .threads = 8, .target = "multidev:all"}, x, x, out),
               loom::ValueError);
  EXPECT_EQ(out.to_vector<double>(), std::vector<double>(64, 2.0));
}

TEST(KernelOnSetSplit, AFailingDeviceFailsTheLaunchAndChangesNothing) {
  const Array x = ramp({64});
  Array out = loom::full({64}, 2.0);
  setenv("LOOM_TEST_MULTIDEV_FAIL", "1", 1);
  EXPECT_THROW(set_rt()
                   .kernel("add_kernel")
                   .launch({.blocks = 8, .threads = 8, .target = "multidev:all"}, x, x, out),
               loom::DeviceError);
  unsetenv("LOOM_TEST_MULTIDEV_FAIL");
  EXPECT_EQ(out.to_vector<double>(), std::vector<double>(64, 2.0));
}

// One device's part of a grid, handed straight to each target's backend as a device set hands it
// to one device: only the part's blocks run, and they see the whole grid. On cuda this checks the
// launch's block offset with one GPU, where every set is one device.
class KernelPart : public ::testing::TestWithParam<std::string> {};

TEST_P(KernelPart, OnlyThePartRunsAndSeesTheWholeGrid) {
  const std::string target = GetParam();
  for (const auto& t : set_rt().targets()) {
    if (target.rfind(t.target, 0) == 0 && !t.available) {
      GTEST_SKIP() << t.target << " unavailable: " << t.reason;
    }
  }
  struct Part {
    Extent blocks;
    int axis;
    unsigned begin, end;
  };
  for (const Part& p : {Part{{3, 4, 5}, 2, 1, 3}, Part{{3, 4, 1}, 1, 1, 3},
                        Part{{6, 1, 1}, 0, 2, 5}, Part{{2, 2, 3}, 2, 0, 1}}) {
    const Extent threads{2, 2, 1};
    const std::int64_t per = 4, nblocks = p.blocks.x * p.blocks.y * p.blocks.z;
    const std::int64_t rows = nblocks * per;
    Array want = loom::full<std::int64_t>({rows, 20}, -1);
    set_rt()
        .kernel("t_coords")
        .launch({.blocks = p.blocks, .threads = threads, .target = target}, want);

    const auto [backend, device] = set_rt().resolve_target(target);
    const loom::KernelDesc& d = set_rt().kernel("t_coords").desc();
    const bool gpu = backend->family() != loom::Family::host;
    loom::KernelCall c;
    c.kernel = &d.overloads[0];
    c.impl = &d.overloads[0].impl[static_cast<int>(backend->family())];
    c.name = "t_coords";
    c.blocks = loom::Dim3(p.blocks.x, p.blocks.y, p.blocks.z);
    c.threads = loom::Dim3(2, 2, 1);
    c.device = device;
    c.part_axis = p.axis;
    c.part_begin = p.begin;
    c.part_end = p.end;
    const Array host = loom::full<std::int64_t>({rows, 20}, -1);
    const Array mem = gpu ? set_rt().to_device(host, target) : host;
    c.args.resize(1);
    c.args[0].data = mem.data();
    for (int k = 0; k < 2; ++k) {
      c.args[0].shape[k] = mem.shape()[k];
      c.args[0].strides[k] = mem.strides()[k];
    }
    backend->run_kernel(c, device);
    const Array got = gpu ? set_rt().to_host(mem) : mem;

    const std::int64_t inner =
        p.axis == 0 ? 1 : (p.axis == 1 ? p.blocks.x : p.blocks.x * p.blocks.y);
    const std::int64_t lo = p.begin * inner * per, hi = p.end * inner * per;
    const auto g = got.to_vector<std::int64_t>(), w = want.to_vector<std::int64_t>();
    std::int64_t bad = 0;
    for (std::int64_t r = 0; r < rows; ++r) {
      for (int k = 0; k < 20; ++k) {
        const std::int64_t expect = r >= lo && r < hi ? w[r * 20 + k] : -1;
        bad += g[r * 20 + k] != expect;
      }
    }
    EXPECT_EQ(bad, 0) << "axis " << p.axis << ", blocks " << p.begin << " to " << p.end;
  }
}

INSTANTIATE_TEST_SUITE_P(Targets, KernelPart,
                         ::testing::Values("cpu", "parallel", "multidev:1", "cuda:0"),
                         [](const auto& i) {
                           std::string s = i.param;
                           for (char& c : s) c = c == ':' ? '_' : c;
                           return s;
                         });

}  // namespace
}  // namespace loom_kernel_test
