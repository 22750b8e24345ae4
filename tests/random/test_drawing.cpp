// Ufuncs that draw (docs/random.md): a def::ufunc functor taking loom::ElementIndex gets the
// C-order flat index of its element in the call's broadcast output shape, whatever the layout of
// the operands, out= and where=, and whatever the target, device set, sharding or chunking, so a
// Monte-Carlo step gives the same bits everywhere.
#include <cstdint>
#include <limits>
#include <vector>

#include "helpers.hpp"

namespace loom_random_test {
namespace {

using loom::Array;
using loom::DType;
using loom::random::Philox;

std::vector<std::int64_t> iota(std::int64_t n, std::int64_t from = 0) {
  std::vector<std::int64_t> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = from + i;
  return v;
}

std::vector<std::int64_t> ints_of(const Array& a) {
  const Array h = a.device().is_host() ? a : runtime().to_host(a);
  return (h.is_c_contiguous() ? h : h.copy()).to_vector<std::int64_t>();
}

// x[i] = i / 7 - 300 as float32 or float64, C-contiguous.
template <class T>
Array walkers(const loom::Shape& shape) {
  Array a = loom::empty(shape, loom::dtype_v<T>);
  T* p = reinterpret_cast<T*>(a.data());
  for (std::int64_t i = 0; i < a.size(); ++i) p[i] = static_cast<T>(i) / T(7) - T(300);
  return a;
}

// What test_mc_step must give: element by element on the host, index_base + i for element i.
template <class T>
Array mc_expected(const Array& x, T sigma, std::uint64_t seed, std::uint32_t step,
                  std::int64_t index_base = 0) {
  Array e = loom::empty(x.shape(), loom::dtype_v<T>);
  const Array xc = x.is_c_contiguous() ? x : x.copy();
  const T* in = reinterpret_cast<const T*>(xc.data());
  T* out = reinterpret_cast<T*>(e.data());
  const Philox p(seed, 0, step);
  for (std::int64_t i = 0; i < x.size(); ++i) {
    if constexpr (std::is_same_v<T, float>) {
      out[i] = in[i] + sigma * p.normal_float32(index_base + i);
    } else {
      out[i] = in[i] + sigma * p.normal_float64(index_base + i);
    }
  }
  return e;
}

class DrawingOn : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (auto why = unavailable(GetParam())) GTEST_SKIP() << GetParam() << " unavailable: " << *why;
  }
  loom::CallOptions on(std::vector<Array> out = {}) const {
    return {.target = GetParam(), .out = std::move(out)};
  }
  loom::Ufunc op(const char* name) const { return runtime().ufunc(name); }
};

TEST_P(DrawingOn, TheIndexIsTheCOrderFlatIndexOfTheOutput) {
  // Sizes past the parallel backend's serial cutoff (32768), so that it splits them.
  const Array flat = op("test_index_of")(loom::zeros({100003}), on());
  EXPECT_EQ(ints_of(flat), iota(100003));
  const Array two_d = op("test_index_of")(loom::zeros({301, 517}, DType::float32), on());
  EXPECT_EQ(two_d.shape(), (loom::Shape{301, 517}));
  EXPECT_EQ(ints_of(two_d), iota(301 * 517));
  // A transposed (strided) input: the index follows the output, not the input's memory.
  const Array xt = loom::zeros({517, 301}).transpose();
  EXPECT_EQ(ints_of(op("test_index_of")(xt, on())), iota(301 * 517));
  // A broadcast input (one row) into a given output, and a transposed out=.
  Array out = loom::full({301, 517}, std::int64_t{-1});
  op("test_index_of")(loom::zeros({517}), on({out}));
  EXPECT_EQ(ints_of(out), iota(301 * 517));
  Array base = loom::full({517, 301}, std::int64_t{-1});
  const Array out_t = base.transpose();
  op("test_index_of")(loom::zeros({301, 517}), on({out_t}));
  EXPECT_EQ(ints_of(out_t), iota(301 * 517));
  // Every third element of a strided view of a bigger array.
  Array big = loom::full({301, 3 * 517}, std::int64_t{-1});
  const Array every3 = big.slice(1, 0, 3 * 517, 3);
  op("test_index_of")(loom::zeros({301, 517}), on({every3}));
  EXPECT_EQ(ints_of(every3), iota(301 * 517));
}

TEST_P(DrawingOn, WhereKeepsTheIndicesOfTheBroadcastOutput) {
  const std::int64_t rows = 203, cols = 389;
  std::vector<bool> keep(cols);
  Array mask = loom::empty({1, cols}, DType::bool_);
  for (std::int64_t c = 0; c < cols; ++c) {
    keep[c] = c % 3 == 0;
    reinterpret_cast<bool*>(mask.data())[c] = keep[c];
  }
  Array out = loom::full({rows, cols}, std::int64_t{-1});
  loom::CallOptions o = on({out});
  o.where = mask;
  op("test_index_of")(loom::zeros({rows, 1}), o);
  std::vector<std::int64_t> want(rows * cols);
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t c = 0; c < cols; ++c) want[r * cols + c] = keep[c] ? r * cols + c : -1;
  }
  EXPECT_EQ(ints_of(out), want);
}

TEST_P(DrawingOn, AMonteCarloStepGivesTheHostsBits) {
  const std::uint64_t seed = 0x5eed1234abcdULL;
  for (std::uint32_t step : {0u, 1u, 41u}) {
    const Array x32 = walkers<float>({257, 389});
    const Array got32 = op("test_mc_step")(x32, loom::full({}, 0.25f), loom::full({}, seed),
                                           loom::full({}, step), on());
    EXPECT_EQ(bytes_of(got32), bytes_of(mc_expected<float>(x32, 0.25f, seed, step)))
        << GetParam() << " step " << step;
    const Array x64 = walkers<double>({100001});
    const Array got64 = op("test_mc_step")(x64, loom::full({}, 1.5), loom::full({}, seed),
                                           loom::full({}, step), on());
    EXPECT_EQ(bytes_of(got64), bytes_of(mc_expected<double>(x64, 1.5, seed, step)))
        << GetParam() << " step " << step;
  }
}

TEST_P(DrawingOn, IndexBaseShiftsTheIndicesSoRowsOfACallDrawWhatTheWholeCallDraws) {
  const Array x = walkers<float>({120, 701});
  const auto scalars = [](std::uint64_t seed) {
    return std::vector<Array>{loom::full({}, 2.0f), loom::full({}, seed),
                              loom::full({}, std::uint32_t{3})};
  };
  const auto s = scalars(99);
  const Array whole = op("test_mc_step")(x, s[0], s[1], s[2], on());
  Array pieces = loom::full({120, 701}, 0.0f);
  for (std::int64_t r0 : {0, 1, 50, 97}) {  // uneven row blocks [r0, next)
    const std::int64_t r1 = r0 == 97 ? 120 : r0 == 50 ? 97 : r0 == 1 ? 50 : 1;
    loom::CallOptions o = on({pieces.slice(0, r0, r1)});
    o.index_base = r0 * 701;
    op("test_mc_step")(x.slice(0, r0, r1), s[0], s[1], s[2], o);
  }
  EXPECT_EQ(bytes_of(pieces), bytes_of(whole));
  loom::CallOptions shifted = on();
  shifted.index_base = 1000000007;
  EXPECT_EQ(ints_of(op("test_index_of")(loom::zeros({5, 7}), shifted)), iota(35, 1000000007));
}

TEST_P(DrawingOn, SeveralOutputsGetTheIndexToo) {
  const Array x = walkers<float>({40000});
  const std::vector<Array> r = op("test_uniform_and_index").call({x}, on());
  ASSERT_EQ(r.size(), 2u);
  Array want = loom::empty({40000}, DType::float32);
  const float* in = reinterpret_cast<const float*>(x.data());
  for (std::int64_t i = 0; i < 40000; ++i) {
    reinterpret_cast<float*>(want.data())[i] = in[i] + Philox(7).uniform_float32(i);
  }
  EXPECT_EQ(bytes_of(r[0]), bytes_of(want));
  EXPECT_EQ(ints_of(r[1]), iota(40000));
}

TEST_P(DrawingOn, OuterGivesTheIndexOfTheOuterShape) {
  const Array a = loom::array<std::int64_t>({1, 2, 3});
  const Array b = loom::array<std::int64_t>({4, 5, 6, 7});
  const Array r = op("test_index_plus").outer(a, b, on());
  std::vector<std::int64_t> want;
  for (std::int64_t i = 0; i < 3; ++i) {
    for (std::int64_t j = 0; j < 4; ++j)
      want.push_back((i + 1) * 1000000 + (j + 4) * 1000 + i * 4 + j);
  }
  EXPECT_EQ(ints_of(r), want);
}

INSTANTIATE_TEST_SUITE_P(Targets, DrawingOn, ::testing::ValuesIn(kTargets), target_name);

// The parallel backend cuts a call by its thread count: every count, and sizes around the cut
// points, give the serial bits.
TEST(Drawing, EveryChunkingOfParallelGivesTheSerialBits) {
  if (auto why = unavailable("parallel")) GTEST_SKIP() << "parallel unavailable: " << *why;
  const loom::Ufunc step = runtime().ufunc("test_mc_step");
  const Array sigma = loom::full({}, 0.5), seed = loom::full({}, std::uint64_t{8}),
              call = loom::full({}, std::uint32_t{2});
  for (std::int64_t n : {32767, 32768, 32769, 65536 + 63, 250007}) {
    const Array x = walkers<double>({n});
    const Array want = mc_expected<double>(x, 0.5, 8, 2);
    for (int threads : {1, 2, 3, 7, 16}) {
      runtime().set_num_threads(threads);
      const Array got = step(x, sigma, seed, call, {.target = "parallel"});
      EXPECT_EQ(bytes_of(got), bytes_of(want)) << "n " << n << " threads " << threads;
    }
  }
  runtime().set_num_threads(0);
}

// Sharded arrays: each shard's call starts at its first row of the whole result.
TEST(Drawing, ShardedCallsDrawWhatOneCallDraws) {
  if (auto why = unavailable("multidev:all")) GTEST_SKIP() << "multidev unavailable: " << *why;
  const Array x = walkers<float>({101, 33});
  const loom::ShardedArray xs = runtime().to_devices(x, "multidev:all");
  const loom::ShardedArray idx = runtime().ufunc("test_index_of")(xs);
  EXPECT_EQ(ints_of(runtime().to_host(idx)), iota(101 * 33));
}

TEST(Drawing, MethodsThatFoldPartialResultsAreRefused) {
  const loom::Ufunc op = runtime().ufunc("test_index_plus");
  const Array x = loom::arange(6);
  auto refused = [](auto&& call, const char* method) {
    try {
      call();
      ADD_FAILURE() << method << " of an indexed ufunc ran";
    } catch (const loom::TypeError& e) {
      EXPECT_NE(std::string(e.what()).find(std::string(method) + " of ufunc 'test_index_plus'"),
                std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find("loom::ElementIndex"), std::string::npos) << e.what();
    }
  };
  refused([&] { op.reduce(x); }, "reduce");
  refused([&] { op.accumulate(x); }, "accumulate");
  refused([&] { op.reduceat(x, loom::array<std::int64_t>({0, 2})); }, "reduceat");
  refused([&] { op.at(x, loom::array<std::int64_t>({0, 1}), loom::arange(2)); }, "at");
}

TEST(Drawing, TheSignatureListsOnlyTheOperands) {
  const loom::Ufunc op = runtime().ufunc("test_mc_step");
  EXPECT_EQ(op.desc().nin, 4);
  EXPECT_EQ(op.desc().signatures(),
            "float32(float32,float32,uint64,uint32), float64(float64,float64,uint64,uint32)");
  EXPECT_TRUE(op.desc().takes_index());
}

TEST(Drawing, ANegativeIndexBaseIsRefused) {
  loom::CallOptions o;
  o.index_base = -1;
  EXPECT_THROW(runtime().ufunc("test_index_of")(loom::zeros({3}), o), loom::ValueError);
  o.index_base = std::numeric_limits<std::int64_t>::max() - 2;
  EXPECT_THROW(runtime().ufunc("test_index_of")(loom::zeros({3}), o), loom::ValueError);
}

}  // namespace
}  // namespace loom_random_test
