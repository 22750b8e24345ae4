// Atomics under contention, for every type (int32, uint32, int64, uint64, float32, float64) and
// every operation (add, sub, max, min, exch, cas) on every target: 64 blocks of 256 threads hammer
// one address, with values whose results are exact in every type, so that any lost or doubled
// update shows. Each thread also keeps the old value its operation returned.
#include <algorithm>
#include <limits>
#include <map>

#include "helpers.hpp"

namespace loom_kernel_test {
namespace {

using loom::dtype_v;

constexpr std::int64_t kBlocks = 64, kThreads = 256, kN = kBlocks * kThreads;

using AtomicParam = std::tuple<Where, DType>;

class AtomicTest : public KernelTestOf<AtomicParam> {
 protected:
  DType dtype() const { return std::get<1>(GetParam()); }
  bool is_unsigned() const { return dtype() == DType::uint32 || dtype() == DType::uint64; }

  // A permutation of 0..kN-1 (so that the largest value is not the last thread's).
  static std::vector<std::int64_t> permutation() {
    std::vector<std::int64_t> p(kN);
    for (std::int64_t i = 0; i < kN; ++i) p[i] = i;
    std::shuffle(p.begin(), p.end(), std::mt19937(42));
    return p;
  }
  template <class T>
  static std::vector<T> cast_all(const std::vector<std::int64_t>& v) {
    std::vector<T> out(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) out[i] = static_cast<T>(v[i]);
    return out;
  }

  // Runs `kernel` with cell = {init}, old = zeros(kN) and the extra arguments; returns
  // (final cell, old values).
  template <class T, class... A>
  std::pair<T, std::vector<T>> run(const std::string& kernel, T init, const A&... extra) {
    Array cell = put(loom::full<T>({1}, init));
    Array old = put(loom::zeros({kN}, dtype_v<T>));
    launch(kernel, config(kBlocks, kThreads), cell, old, extra...);
    return {values_of<T>(get(cell))[0], values_of<T>(get(old))};
  }

  template <class F>
  void for_type(F&& f) {
    with_type(dtype(), std::forward<F>(f));
  }
};

std::string atomic_name(const ::testing::TestParamInfo<AtomicParam>& i) {
  return std::get<0>(i.param).name() + "_" + std::string(loom::name(std::get<1>(i.param)));
}

template <class T>
std::vector<T> sorted(std::vector<T> v) {
  std::sort(v.begin(), v.end());
  return v;
}
template <class T>
std::int64_t count_of(const std::vector<T>& v, T x) {
  return std::count(v.begin(), v.end(), x);
}

TEST_P(AtomicTest, AddByEveryThreadCountsEveryThreadAndReturnsEachIntermediateValueOnce) {
  for_type([&](auto z) {
    using T = decltype(z);
    const auto [cell, old] = run<T>("t_atomic_add", T(5), T(3));
    EXPECT_EQ(cell, static_cast<T>(5 + 3 * kN));
    std::vector<T> want(kN);
    for (std::int64_t k = 0; k < kN; ++k) want[k] = static_cast<T>(5 + 3 * k);
    EXPECT_EQ(sorted(old), want);
  });
}

TEST_P(AtomicTest, SubByEveryThreadCountsEveryThreadAndReturnsEachIntermediateValueOnce) {
  for_type([&](auto z) {
    using T = decltype(z);
    const auto [cell, old] = run<T>("t_atomic_sub", static_cast<T>(5 + 3 * kN), T(3));
    EXPECT_EQ(cell, T(5));
    std::vector<T> want(kN);
    for (std::int64_t k = 0; k < kN; ++k) want[k] = static_cast<T>(5 + 3 * (k + 1));
    EXPECT_EQ(sorted(old), want);
  });
}

TEST_P(AtomicTest, MaxOfEveryThreadsValueLeavesTheLargestAndOnlyTheFirstSeesTheInitialValue) {
  for_type([&](auto z) {
    using T = decltype(z);
    // Distinct values all above the initial one (negative ones too where T is signed).
    auto p = permutation();
    for (auto& v : p) v = is_unsigned() ? v + 1 : v - kN / 2;
    const T init = is_unsigned() ? T(0) : static_cast<T>(-kN);
    const auto vals = cast_all<T>(p);
    const auto [cell, old] = run<T>("t_atomic_max", init, put(loom::from_vector(vals)));
    EXPECT_EQ(cell, *std::max_element(vals.begin(), vals.end()));
    EXPECT_EQ(count_of(old, init), 1) << "exactly one thread comes first";
    const auto sv = sorted(vals);
    for (std::int64_t i = 0; i < kN; ++i) {
      ASSERT_LE(old[i], cell) << "thread " << i << " saw more than the maximum";
      if (vals[i] == cell) ASSERT_LT(old[i], cell) << "the maximum's thread saw it already";
      ASSERT_NE(old[i], vals[i]) << "thread " << i << " saw its own distinct value";
      ASSERT_TRUE(old[i] == init || std::binary_search(sv.begin(), sv.end(), old[i]))
          << "thread " << i << " saw " << +old[i] << ", which no thread stored";
    }
  });
}

TEST_P(AtomicTest, MinOfEveryThreadsValueLeavesTheSmallestAndOnlyTheFirstSeesTheInitialValue) {
  for_type([&](auto z) {
    using T = decltype(z);
    auto p = permutation();
    for (auto& v : p) v = is_unsigned() ? v + 1 : v - kN / 2;
    const T init = static_cast<T>(kN + 1);
    const auto vals = cast_all<T>(p);
    const auto [cell, old] = run<T>("t_atomic_min", init, put(loom::from_vector(vals)));
    EXPECT_EQ(cell, *std::min_element(vals.begin(), vals.end()));
    EXPECT_EQ(count_of(old, init), 1) << "exactly one thread comes first";
    const auto sv = sorted(vals);
    for (std::int64_t i = 0; i < kN; ++i) {
      ASSERT_GE(old[i], cell) << "thread " << i << " saw less than the minimum";
      ASSERT_NE(old[i], vals[i]) << "thread " << i << " saw its own distinct value";
      ASSERT_TRUE(old[i] == init || std::binary_search(sv.begin(), sv.end(), old[i]))
          << "thread " << i << " saw " << +old[i] << ", which no thread stored";
    }
  });
}

// Every value goes in once and comes out once: the old values and the final one are exactly the
// initial value and every thread's value (a chain of exchanges, in some order).
TEST_P(AtomicTest, ExchangeByEveryThreadPassesEveryValueOnAlongOneChain) {
  for_type([&](auto z) {
    using T = decltype(z);
    std::vector<std::int64_t> p(kN);
    for (std::int64_t i = 0; i < kN; ++i) p[i] = i + 1;
    const auto vals = cast_all<T>(p);
    const auto [cell, old] = run<T>("t_atomic_exch", T(0), put(loom::from_vector(vals)));
    EXPECT_NE(std::find(vals.begin(), vals.end(), cell), vals.end()) << "final value " << +cell;
    std::vector<T> seen = old, want = vals;
    seen.push_back(cell);
    want.push_back(T(0));
    EXPECT_EQ(sorted(seen), sorted(want));
    // Following the chain from the initial value visits every thread once.
    std::map<T, std::int64_t> by_old;
    for (std::int64_t i = 0; i < kN; ++i) by_old[old[i]] = i;
    T at = T(0);
    std::int64_t steps = 0;
    for (auto it = by_old.find(at); it != by_old.end() && steps <= kN; it = by_old.find(at)) {
      at = vals[it->second];
      ++steps;
    }
    EXPECT_EQ(steps, kN);
    EXPECT_EQ(at, cell);
  });
}

TEST_P(AtomicTest, CompareAndSwapLetsExactlyOneThreadReplaceTheExpectedValue) {
  for_type([&](auto z) {
    using T = decltype(z);
    std::vector<std::int64_t> p(kN);
    for (std::int64_t i = 0; i < kN; ++i) p[i] = i + 1;
    const auto vals = cast_all<T>(p);
    const auto [cell, old] = run<T>("t_atomic_cas_once", T(0), put(loom::from_vector(vals)), T(0));
    std::int64_t winners = 0, winner = -1;
    for (std::int64_t i = 0; i < kN; ++i) {
      if (old[i] == T(0)) ++winners, winner = i;
    }
    ASSERT_EQ(winners, 1);
    EXPECT_EQ(cell, vals[winner]);
    EXPECT_EQ(count_of(old, cell), kN - 1) << "every other thread saw the winner's value";
  });
}

TEST_P(AtomicTest, CompareAndSwapLoopCountsEveryThreadAndReturnsEachIntermediateValueOnce) {
  for_type([&](auto z) {
    using T = decltype(z);
    const auto [cell, old] = run<T>("t_atomic_cas_counter", T(7));
    EXPECT_EQ(cell, static_cast<T>(7 + kN));
    std::vector<T> want(kN);
    for (std::int64_t k = 0; k < kN; ++k) want[k] = static_cast<T>(7 + k);
    EXPECT_EQ(sorted(old), want);
  });
}

INSTANTIATE_TEST_SUITE_P(Targets, AtomicTest,
                         ::testing::Combine(::testing::ValuesIn(kEveryWhere),
                                            ::testing::Values(DType::int32, DType::uint32,
                                                              DType::int64, DType::uint64,
                                                              DType::float32, DType::float64)),
                         atomic_name);

// Float max/min replace only when old < v (v < old): a NaN argument never replaces, a stored NaN
// stays; float compare-and-swap compares bits, as CUDA's atomicCAS does.
class FloatAtomicTest : public AtomicTest {};

TEST_P(FloatAtomicTest, MaxAndMinIgnoreNaNArguments) {
  for_type([&](auto z) {
    using T = decltype(z);
    const T nan = std::numeric_limits<T>::quiet_NaN();
    std::vector<T> vals(kN);
    for (std::int64_t i = 0; i < kN; ++i) vals[i] = i % 3 == 0 ? nan : static_cast<T>(i - kN / 2);
    const Array v = put(loom::from_vector(vals));
    EXPECT_EQ((run<T>("t_atomic_max", T(-1e9), v).first), static_cast<T>(kN - 1 - kN / 2 - 1));
    EXPECT_EQ((run<T>("t_atomic_min", T(1e9), v).first), static_cast<T>(1 - kN / 2));
  });
}

TEST_P(FloatAtomicTest, MaxAndMinKeepAStoredNaN) {
  for_type([&](auto z) {
    using T = decltype(z);
    const T nan = std::numeric_limits<T>::quiet_NaN();
    std::vector<T> vals(kN);
    for (std::int64_t i = 0; i < kN; ++i) vals[i] = static_cast<T>(i);
    const Array v = put(loom::from_vector(vals));
    for (const char* k : {"t_atomic_max", "t_atomic_min"}) {
      const auto [cell, old] = run<T>(k, nan, v);
      EXPECT_TRUE(std::isnan(cell)) << k;
      EXPECT_TRUE(std::all_of(old.begin(), old.end(), [](T x) { return std::isnan(x); })) << k;
    }
  });
}

TEST_P(FloatAtomicTest, CompareAndSwapComparesBitsSoMinusZeroIsNotZero) {
  for_type([&](auto z) {
    using T = decltype(z);
    const auto vals = std::vector<T>(kN, T(1));
    const auto [cell, old] =
        run<T>("t_atomic_cas_once", T(-0.0), put(loom::from_vector(vals)), T(0));
    EXPECT_TRUE(cell == T(0) && std::signbit(cell)) << "-0.0 was replaced by " << cell;
    EXPECT_TRUE(std::all_of(old.begin(), old.end(), [](T x) { return x == 0 && std::signbit(x); }));
  });
}

TEST_P(FloatAtomicTest, CompareAndSwapMatchesANaNOfTheSameBits) {
  for_type([&](auto z) {
    using T = decltype(z);
    const T nan = std::numeric_limits<T>::quiet_NaN();
    std::vector<T> vals(kN);
    for (std::int64_t i = 0; i < kN; ++i) vals[i] = static_cast<T>(i + 1);
    const auto [cell, old] = run<T>("t_atomic_cas_once", nan, put(loom::from_vector(vals)), nan);
    EXPECT_FALSE(std::isnan(cell)) << "the NaN was not replaced";
    EXPECT_EQ(std::count_if(old.begin(), old.end(), [](T x) { return std::isnan(x); }), 1);
  });
}

INSTANTIATE_TEST_SUITE_P(Targets, FloatAtomicTest,
                         ::testing::Combine(::testing::ValuesIn(kEveryWhere),
                                            ::testing::Values(DType::float32, DType::float64)),
                         atomic_name);

}  // namespace
}  // namespace loom_kernel_test
