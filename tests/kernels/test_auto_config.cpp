// Automatic N-d launch configuration (issue 15): LaunchConfig::size of 1, 2 or 3 extents with
// blocks and/or threads left out covers every element exactly once on every target (t_hits
// counts, with an atomic, each thread that lands inside the size), with the block shapes
// docs/kernels.md gives on the host and blocks = ceil(size / threads) per axis everywhere; a zero
// extent runs nothing, and a size no grid can hold is an error before anything runs.
#include <sstream>

#include "helpers.hpp"

namespace loom_kernel_test {
namespace {

using loom::Dim3;
using loom::LaunchSize;

// What thread 0 of block 0 saw.
struct Launched {
  Dim3 threads, blocks;
};

std::string dim_str(const Dim3& d) {
  std::ostringstream os;
  os << "(" << d.x << ", " << d.y << ", " << d.z << ")";
  return os.str();
}

std::string size_str(const LaunchSize& s) {
  std::ostringstream os;
  os << "{" << s.x << ", " << s.y << ", " << s.z << "} (ndim " << s.ndim << ")";
  return os.str();
}

class AutoConfigTest : public KernelTest {
 protected:
  // t_hits' array for a size: C order, x the last axis.
  static Shape shape_of(const LaunchSize& s) {
    if (s.ndim <= 1) return {s.x};
    if (s.ndim == 2) return {s.y, s.x};
    return {s.z, s.y, s.x};
  }
  // Launches t_hits with c over an array of s's shape; the hits per element and the launch.
  std::pair<std::vector<std::int32_t>, Launched> run(const LaunchConfig& c, const LaunchSize& s) {
    Array hits = put(loom::zeros(shape_of(s), DType::int32));
    Array dims = put(loom::full<std::int64_t>({6}, -1));
    launch("t_hits", c, hits, dims);
    const auto d = values_of<std::int64_t>(get(dims));
    const auto u = [](std::int64_t v) { return static_cast<unsigned>(v); };
    return {values_of<std::int32_t>(get(hits)),
            Launched{Dim3(u(d[0]), u(d[1]), u(d[2])), Dim3(u(d[3]), u(d[4]), u(d[5]))}};
  }
  // run(), expecting every element hit exactly once.
  Launched cover(const LaunchConfig& c, const LaunchSize& s) {
    SCOPED_TRACE("size " + size_str(s));
    const auto [h, l] = run(c, s);
    std::int64_t wrong = 0, first = -1;
    for (std::size_t i = 0; i < h.size(); ++i) {
      if (h[i] == 1) continue;
      if (first < 0) first = static_cast<std::int64_t>(i);
      ++wrong;
    }
    EXPECT_EQ(wrong, 0) << "of " << h.size() << " elements; the first at flat index " << first
                        << " was hit " << (first >= 0 ? h[first] : 0) << " times; threads "
                        << dim_str(l.threads) << ", blocks " << dim_str(l.blocks);
    return l;
  }
  // Blocks and threads both automatic: every element once, blocks = ceil(size / threads) per axis
  // and a block within CUDA's limits.
  Launched cover_auto(const LaunchSize& s) {
    const Launched l = cover(config_auto(s), s);
    expect_blocks_cover(l, s);
    return l;
  }
  static void expect_blocks_cover(const Launched& l, const LaunchSize& s) {
    const std::int64_t n[3] = {s.x, s.y, s.z};
    const std::int64_t t[3] = {l.threads.x, l.threads.y, l.threads.z};
    const std::int64_t b[3] = {l.blocks.x, l.blocks.y, l.blocks.z};
    for (int d = 0; d < 3; ++d) {
      EXPECT_EQ(b[d], (n[d] + t[d] - 1) / t[d])
          << "axis " << d << " of size " << size_str(s) << ": threads " << dim_str(l.threads)
          << ", blocks " << dim_str(l.blocks);
    }
    EXPECT_LE(l.threads.count(), 1024);
    EXPECT_LE(l.threads.z, 64u);
  }
};

TEST_P(AutoConfigTest, OneDSizesCoverEveryElementOnceWithBlocksAsBefore) {
  for (std::int64_t n : {1, 255, 256, 257, 100003}) {
    const Launched l = cover_auto(n);
    // A 1-d size keeps the target's block size whatever n (256 on the host, as before N-d sizes).
    if (on_host()) {
      EXPECT_EQ(l.threads, Dim3(256)) << "n = " << n;
    }
    EXPECT_EQ(l.threads.y * l.threads.z, 1u) << "n = " << n;
  }
}

TEST_P(AutoConfigTest, TwoDSizesCoverEveryElementOnceIn2DBlocks) {
  // Not multiples of any block extent, tiny, and long along one axis or the other.
  const std::pair<LaunchSize, Dim3> cases[] = {
      {{1, 1}, {1, 1}},     {{3, 5}, {4, 8}},      {{33, 9}, {32, 8}},     {{1000, 3}, {64, 4}},
      {{3, 1000}, {4, 64}}, {{257, 129}, {32, 8}}, {{1024, 768}, {32, 8}}, {{1, 100000}, {1, 256}}};
  for (const auto& [s, host_threads] : cases) {
    const Launched l = cover_auto(s);
    if (on_host()) {
      EXPECT_EQ(l.threads, host_threads) << size_str(s);
    }
    if (s.x >= 32 && s.y >= 32) {
      EXPECT_GT(l.threads.y, 1u) << size_str(s) << ": a 2-d block";
    }
    EXPECT_EQ(l.threads.z, 1u) << size_str(s);
  }
}

TEST_P(AutoConfigTest, ThreeDSizesCoverEveryElementOnceIn3DBlocks) {
  const std::pair<LaunchSize, Dim3> cases[] = {
      {{1, 1, 1}, {1, 1, 1}},     {{5, 7, 3}, {8, 8, 4}},     {{33, 17, 9}, {32, 4, 2}},
      {{64, 64, 64}, {32, 4, 2}}, {{2, 3, 1000}, {2, 4, 32}}, {{1, 1, 100000}, {1, 1, 64}}};
  for (const auto& [s, host_threads] : cases) {
    const Launched l = cover_auto(s);
    if (on_host()) {
      EXPECT_EQ(l.threads, host_threads) << size_str(s);
    }
    if (s.x >= 32 && s.y >= 32 && s.z >= 32) {
      EXPECT_GT(l.threads.y, 1u) << size_str(s);
      EXPECT_GT(l.threads.z, 1u) << size_str(s);
    }
  }
}

TEST_P(AutoConfigTest, ALongYAxisGetsTallerBlocksSoThatTheGridHoldsIt) {
  // 256 threads along y would need 65537 blocks there, one more than a grid's y holds.
  const LaunchSize s{1, (std::int64_t{1} << 24) + 3};
  const Launched l = cover_auto(s);
  if (on_host()) {
    EXPECT_EQ(l.threads, Dim3(1, 512));
  }
  EXPECT_LE(l.blocks.y, 65535u);
}

TEST_P(AutoConfigTest, GivenThreadsGetBlocksFromTheSizePerAxis) {
  // Extents a size or a block does not give are 1: threads along an axis the size lacks idle.
  const std::tuple<Extent, LaunchSize, Dim3> cases[] = {
      {Extent(16, 4), LaunchSize(100, 50), Dim3(7, 13)},
      {Extent(64), LaunchSize(100, 50), Dim3(2, 50)},
      {Extent(8, 8, 4), LaunchSize(1000), Dim3(125)},
      {Extent(4, 4, 4), LaunchSize(9, 9, 9), Dim3(3, 3, 3)},
      {Extent(1), LaunchSize(3, 2, 2), Dim3(3, 2, 2)}};
  for (const auto& [threads, s, blocks] : cases) {
    LaunchConfig c = config_auto(s);
    c.threads = threads;
    const Launched l = cover(c, s);
    EXPECT_EQ(l.blocks, blocks) << size_str(s);
    EXPECT_EQ(l.threads, Dim3(threads.x, threads.y, threads.z)) << size_str(s);
  }
}

TEST_P(AutoConfigTest, GivenBlocksGetThreadsShapedByTheSize) {
  // The grid is the caller's (here smaller than the size): each thread still lands once.
  const LaunchSize s{1000, 1000};
  LaunchConfig c = config_auto(s);
  c.blocks = Extent(2, 2);
  const auto [h, l] = run(c, s);
  EXPECT_EQ(l.blocks, Dim3(2, 2));
  if (on_host()) {
    EXPECT_EQ(l.threads, Dim3(32, 8));
  }
  EXPECT_GT(l.threads.y, 1u);
  std::int64_t ones = 0, more = 0;
  for (auto v : h) ones += v == 1, more += v > 1;
  EXPECT_EQ(ones, 4 * l.threads.count());
  EXPECT_EQ(more, 0);
}

TEST_P(AutoConfigTest, AZeroExtentRunsNothing) {
  for (const LaunchSize& s : {LaunchSize(0), LaunchSize(0, 5), LaunchSize(4, 0, 3)}) {
    const auto [h, l] = run(config_auto(s), s);
    EXPECT_TRUE(h.empty());
    EXPECT_EQ(l.threads,
              Dim3(static_cast<unsigned>(-1), static_cast<unsigned>(-1), static_cast<unsigned>(-1)))
        << size_str(s) << ": a thread ran";
  }
}

TEST_P(AutoConfigTest, AZeroExtentWithBlocksGivenRunsTheGivenGrid) {
  const LaunchSize s{0, 5};
  LaunchConfig c = config(1, {2, 2});
  c.size = s;
  const auto [h, l] = run(c, s);
  EXPECT_EQ(l.threads, Dim3(2, 2));
  EXPECT_EQ(l.blocks, Dim3(1));
}

TEST_P(AutoConfigTest, ASizeNoGridHoldsIsALaunchErrorBeforeTheLaunch) {
  // y: at most 1024 threads a block and 65535 blocks; z: at most 64 threads a block.
  for (const LaunchSize& s : {LaunchSize(1, 70'000'000), LaunchSize(1, 1, 5'000'000)}) {
    Array hits = put(loom::zeros(s.ndim == 2 ? Shape{1, 1} : Shape{1, 1, 1}, DType::int32));
    Array dims = put(loom::full<std::int64_t>({6}, -1));
    try {
      launch("t_hits", config_auto(s), hits, dims);
      ADD_FAILURE() << "no error for " << size_str(s);
    } catch (const loom::LaunchError& e) {
      const std::string m = e.what();
      const std::string want =
          s.ndim == 2 ? "size=(1, 70000000) needs blocks=(1, " : "size=(1, 1, 5000000) needs ";
      EXPECT_EQ(m.rfind("kernel 't_hits'", 0), 0u) << m;
      EXPECT_NE(m.find(want), std::string::npos) << m;
      EXPECT_NE(m.find("more than a grid holds"), std::string::npos) << m;
    }
    EXPECT_EQ(values_of<std::int64_t>(get(dims)), std::vector<std::int64_t>(6, -1));
  }
}

TEST_P(AutoConfigTest, ANegativeExtentIsAValueErrorNamingTheAxis) {
  Array hits = put(loom::zeros({1, 10}, DType::int32));
  Array dims = put(loom::full<std::int64_t>({6}, -1));
  try {
    launch("t_hits", config_auto({10, -1}), hits, dims);
    ADD_FAILURE() << "no error";
  } catch (const loom::ValueError& e) {
    EXPECT_STREQ(e.what(), "kernel 't_hits': size=(10, -1) is negative along y");
  }
  try {
    launch("t_hits", config_auto({10, 1, -3}), hits, dims);
    ADD_FAILURE() << "no error";
  } catch (const loom::ValueError& e) {
    EXPECT_STREQ(e.what(), "kernel 't_hits': size=(10, 1, -3) is negative along z");
  }
  EXPECT_EQ(values_of<std::int64_t>(get(dims)), std::vector<std::int64_t>(6, -1));
}

INSTANTIATE_TEST_SUITE_P(Targets, AutoConfigTest, ::testing::ValuesIn(kEveryWhere), where_name);

}  // namespace
}  // namespace loom_kernel_test
