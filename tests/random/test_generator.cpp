// loom::random::Generator: every target, device set and chunking gives the array that the
// element functions of loom/random.hpp give one element at a time on the host.
#include <cstdint>

#include "helpers.hpp"

namespace loom_random_test {
namespace {

using loom::Array;
using loom::DType;
using loom::random::Generator;
using loom::random::Philox;

// What call `call` of Generator(seed, stream) must give, element by element on the host.
template <class T, class F>
Array expected(const loom::Shape& shape, F&& element) {
  Array a = loom::empty(shape, loom::dtype_v<T>);
  T* p = reinterpret_cast<T*>(a.data());
  for (std::int64_t i = 0; i < a.size(); ++i) p[i] = element(i);
  return a;
}

class GeneratorOn : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (auto why = unavailable(GetParam())) GTEST_SKIP() << GetParam() << " unavailable: " << *why;
  }
  loom::random::RandomOptions on(std::optional<Array> out = {}) const {
    return {.target = GetParam(), .out = std::move(out)};
  }
};

TEST_P(GeneratorOn, ArraysEqualTheElementFunctions) {
  Generator g(2024, 3);
  // Odd sizes: the last Philox block is partly used.
  const Array u32 = g.uniform(runtime(), {37, 5}, DType::float32, on());
  const Array n64 = g.normal(runtime(), {1001}, DType::float64, on());
  const Array i16 = g.integers(runtime(), -5, 17, {3, 333}, DType::int16, on());
  const Array i64 = g.integers(runtime(), -7, std::int64_t{1} << 40, {999}, DType::int64, on());
  const Array u64 = g.uniform(runtime(), {2, 3, 7}, DType::float64, on());
  const Array n32 = g.normal(runtime(), {1023}, DType::float32, on());
  const Array u8 = g.integers(runtime(), 0, 256, {515}, DType::uint8, on());
  EXPECT_EQ(g.next_call(), 7u);
  const auto p = [](std::uint32_t call) { return Philox(2024, 3, call); };
  EXPECT_EQ(bytes_of(u32), bytes_of(expected<float>(
                               {37, 5}, [&](std::int64_t i) { return p(0).uniform_float32(i); })));
  EXPECT_EQ(bytes_of(n64), bytes_of(expected<double>(
                               {1001}, [&](std::int64_t i) { return p(1).normal_float64(i); })));
  EXPECT_EQ(bytes_of(i16), bytes_of(expected<std::int16_t>({3, 333}, [&](std::int64_t i) {
              return static_cast<std::int16_t>(
                  -5 + static_cast<std::int64_t>(p(2).integer_offset(i, 21)));
            })));
  EXPECT_EQ(
      bytes_of(i64), bytes_of(expected<std::int64_t>({999}, [&](std::int64_t i) {
        return -7 + static_cast<std::int64_t>(p(3).integer_offset(i, (std::uint64_t{1} << 40) + 6));
      })));
  EXPECT_EQ(bytes_of(u64), bytes_of(expected<double>({2, 3, 7}, [&](std::int64_t i) {
              return p(4).uniform_float64(i);
            })));
  EXPECT_EQ(bytes_of(n32), bytes_of(expected<float>(
                               {1023}, [&](std::int64_t i) { return p(5).normal_float32(i); })));
  EXPECT_EQ(bytes_of(u8), bytes_of(expected<std::uint8_t>({515}, [&](std::int64_t i) {
              return static_cast<std::uint8_t>(p(6).integer_offset(i, 255));
            })));
}

TEST_P(GeneratorOn, NewArraysLiveOnTheTarget) {
  Generator g(1);
  const Array a = g.uniform(runtime(), {10}, DType::float32, on());
  const bool one_gpu = GetParam() == "cuda";
  EXPECT_EQ(a.device().is_host(), !one_gpu) << GetParam();
  EXPECT_EQ(a.shape(), loom::Shape{10});
  EXPECT_EQ(a.dtype(), DType::float32);
}

TEST_P(GeneratorOn, OutEqualsANewArrayWhateverItsLayout) {
  const Array want = Generator(9).normal(runtime(), {6, 8}, DType::float64, on());
  Array plain = loom::full({6, 8}, -1.0);
  Generator(9).normal(runtime(), {6, 8}, DType::float64, on(plain));
  EXPECT_EQ(bytes_of(plain), bytes_of(want));
  // A transposed out= (not C-contiguous): filled in its own C order.
  Array base = loom::full({8, 6}, -1.0);
  const Array t = base.transpose();
  const Array r = Generator(9).normal(runtime(), {6, 8}, DType::float64, on(t));
  EXPECT_EQ(bytes_of(t), bytes_of(want));
  EXPECT_EQ(r.data(), t.data());  // the call returns out= itself
}

TEST_P(GeneratorOn, AnyGridGivesTheSameBits) {
  // The plugin's kernel launched by hand with grids that split the Philox blocks differently.
  const std::int64_t n = 4097;
  const Array want = Generator(77, 1, 5).uniform(runtime(), {n}, DType::float32, {.target = "cpu"});
  for (const loom::LaunchConfig& c : {loom::LaunchConfig{.blocks = 1, .threads = 1},
                                      loom::LaunchConfig{.blocks = 3, .threads = 7},
                                      loom::LaunchConfig{.blocks = 1000, .threads = 64},
                                      loom::LaunchConfig{.size = n}, loom::LaunchConfig{}}) {
    loom::LaunchConfig cfg = c;
    cfg.target = GetParam();
    Array got = loom::zeros({n}, DType::float32);
    runtime()
        .kernel("random_uniform")
        .launch(cfg, got, std::uint64_t{77}, std::uint32_t{1}, std::uint32_t{5}, std::int64_t{0});
    EXPECT_EQ(bytes_of(got), bytes_of(want))
        << GetParam() << " blocks " << c.blocks.x << " threads " << c.threads.x;
  }
}

TEST_P(GeneratorOn, LongRunsEqualTheElementFunctions) {
  // A thread with a long run takes the host's 32-block groups (plugins/random/host_simd.hpp) and
  // then single blocks: every kernel on a grid of one thread and of 3 x 7 against the element
  // functions, sizes that end in a partial group and block, integer spans whose first draw is
  // rejected about half (32-bit) and a quarter (64-bit) of the time, and first elements
  // (index_base) that start inside a block, so that the first block is partial too.
  const std::uint64_t seed = 0x0123456789ABCDEFull;
  const std::uint32_t stream = 2, call = 9;
  const Philox p(seed, stream, call);
  const std::int64_t n = 16 * 4 * 7 + 5;
  const std::uint64_t spans[] = {21, (std::uint64_t{1} << 31), 0xFFFFFFFFull,
                                 (std::uint64_t{1} << 62), ~std::uint64_t{0}};
  for (const std::int64_t base :
       {std::int64_t{0}, std::int64_t{1}, std::int64_t{3}, std::int64_t{130}}) {
    for (const loom::LaunchConfig& c : {loom::LaunchConfig{.blocks = 1, .threads = 1},
                                        loom::LaunchConfig{.blocks = 3, .threads = 7}}) {
      loom::LaunchConfig cfg = c;
      cfg.target = GetParam();
      const auto launch = [&](const char* kernel, DType t, auto... args) {
        const bool device = GetParam() == "cuda";
        Array got = device ? runtime().empty({n}, t, GetParam()) : loom::zeros({n}, t);
        runtime().kernel(kernel).launch(cfg, got, args...);
        return runtime().to_host(got);
      };
      const auto at = [&](auto f) { return [&, f](std::int64_t i) { return f(base + i); }; };
      const std::string where = GetParam() + " blocks " + std::to_string(c.blocks.x) +
                                " index_base " + std::to_string(base);
      EXPECT_EQ(
          bytes_of(launch("random_uniform", DType::float32, seed, stream, call, base)),
          bytes_of(expected<float>({n}, at([&](std::int64_t i) { return p.uniform_float32(i); }))))
          << where;
      EXPECT_EQ(
          bytes_of(launch("random_uniform", DType::float64, seed, stream, call, base)),
          bytes_of(expected<double>({n}, at([&](std::int64_t i) { return p.uniform_float64(i); }))))
          << where;
      EXPECT_EQ(
          bytes_of(launch("random_normal", DType::float32, seed, stream, call, base)),
          bytes_of(expected<float>({n}, at([&](std::int64_t i) { return p.normal_float32(i); }))))
          << where;
      EXPECT_EQ(
          bytes_of(launch("random_normal", DType::float64, seed, stream, call, base)),
          bytes_of(expected<double>({n}, at([&](std::int64_t i) { return p.normal_float64(i); }))))
          << where;
      for (std::uint64_t span : spans) {
        const std::int64_t low = span > (std::uint64_t{1} << 62) ? INT64_MIN : -3;
        EXPECT_EQ(
            bytes_of(launch("random_integers", DType::int64, low, span, seed, stream, call, base)),
            bytes_of(expected<std::int64_t>({n}, at([&](std::int64_t i) {
                                              return static_cast<std::int64_t>(
                                                  static_cast<std::uint64_t>(low) +
                                                  p.integer_offset(i, span));
                                            }))))
            << where << " span " << span;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Targets, GeneratorOn, ::testing::ValuesIn(kTargets), target_name);

TEST(Generator, CallsAndStreamsDrawDifferentNumbersAndResume) {
  Generator g(5);
  const Array a = g.uniform(runtime(), {64}, DType::float64, {.target = "cpu"});
  const Array b = g.uniform(runtime(), {64}, DType::float64, {.target = "cpu"});
  const Array s = Generator(5, 1).uniform(runtime(), {64}, DType::float64, {.target = "cpu"});
  const Array k = Generator(6).uniform(runtime(), {64}, DType::float64, {.target = "cpu"});
  EXPECT_NE(bytes_of(a), bytes_of(b));
  EXPECT_NE(bytes_of(a), bytes_of(s));
  EXPECT_NE(bytes_of(a), bytes_of(k));
  const Array resumed =
      Generator(5, 0, 1).uniform(runtime(), {64}, DType::float64, {.target = "cpu"});
  EXPECT_EQ(bytes_of(resumed), bytes_of(b));
  EXPECT_EQ(g.next_call(), 2u);
  EXPECT_EQ(g.next_philox().uniform_float64(3), Philox(5, 0, 2).uniform_float64(3));
}

TEST(Generator, EmptyArraysDrawNothing) {
  Generator g(5);
  EXPECT_EQ(g.uniform(runtime(), {0, 3}, DType::float32, {.target = "cpu"}).size(), 0);
  EXPECT_EQ(g.integers(runtime(), 0, 3, {0}, DType::int32, {.target = "cpu"}).size(), 0);
  EXPECT_EQ(g.next_call(), 2u);  // the calls still take their numbers
}

}  // namespace
}  // namespace loom_random_test
