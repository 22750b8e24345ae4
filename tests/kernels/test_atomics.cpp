// Atomics under contention, for every type (int32, uint32, int64, uint64, float32, float64) and
// every operation (add, sub, max, min, exch, cas) on every target: 64 blocks of 256 threads hammer
// one address, with values whose results are exact in every type, so that any lost or doubled
// update shows. Each thread also keeps the old value its operation returned. Issue 15's nanmax,
// nanmin, and, or, xor, inc and dec are checked against CUDA's definitions written out again here:
// the old values must form one serial history of the definition.
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
    // from_vector, not full: full goes through a double, which rounds 64-bit integers.
    Array cell = put(loom::from_vector(std::vector<T>{init}));
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
      if (vals[i] == cell) {
        ASSERT_LT(old[i], cell) << "the maximum's thread saw it already";
      }
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

// CUDA's (and Numba's) definitions of the value each operation stores, given the old one.
template <class T>
T def_nanmax(T old, T v) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(old)) return v;
    if (std::isnan(v)) return old;
  }
  return old < v ? v : old;
}
template <class T>
T def_nanmin(T old, T v) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(old)) return v;
    if (std::isnan(v)) return old;
  }
  return v < old ? v : old;
}
template <class T>
T def_inc(T old, T v) {
  return old >= v ? T(0) : static_cast<T>(old + 1);
}
template <class T>
T def_dec(T old, T v) {
  return (old == 0 || old > v) ? v : static_cast<T>(old - 1);
}

// The bits of x, so that NaNs compare and sort as values.
template <class T>
std::uint64_t bits_of(T x) {
  std::uint64_t b = 0;
  std::memcpy(&b, &x, sizeof(T));
  return b;
}
template <class T>
std::vector<std::uint64_t> sorted_bits(const std::vector<T>& v) {
  std::vector<std::uint64_t> b;
  for (T x : v) b.push_back(bits_of(x));
  std::sort(b.begin(), b.end());
  return b;
}

// The old values of concurrent operations are one serial history of `def` (x[k+1] = def(x[k],
// vals of the k-th thread), old = x[k]) only if the old values and the final one are, as a
// multiset, the initial value and the values the operations stored. A lost or doubled update
// breaks it.
template <class T, class Def>
void expect_one_history(T init, T cell, const std::vector<T>& old, const std::vector<T>& vals,
                        Def def) {
  std::vector<T> before = old, after = {init};
  before.push_back(cell);
  for (std::size_t i = 0; i < old.size(); ++i) after.push_back(def(old[i], vals[i]));
  EXPECT_EQ(sorted_bits(before), sorted_bits(after)) << "not one serial history";
}

// nanmax/nanmin: every type; NaN cases on the float ones.
class NanAtomicTest : public AtomicTest {};

TEST_P(NanAtomicTest, NanMaxAndNanMinUnderContentionFollowTheirDefinition) {
  for_type([&](auto z) {
    using T = decltype(z);
    auto p = permutation();
    for (auto& v : p) v = is_unsigned() ? v + 1 : v - kN / 2;
    auto vals = cast_all<T>(p);
    if constexpr (std::is_floating_point_v<T>) {
      for (std::int64_t i = 0; i < kN; i += 3) vals[i] = std::numeric_limits<T>::quiet_NaN();
    }
    T hi = std::numeric_limits<T>::lowest(), lo = std::numeric_limits<T>::max();
    for (T v : vals) {
      if (v == v) hi = std::max(hi, v), lo = std::min(lo, v);
    }
    const Array va = put(loom::from_vector(vals));
    const T mid = static_cast<T>(is_unsigned() ? kN / 2 : 0);
    {
      const auto [cell, old] = run<T>("t_atomic_nanmax", mid, va);
      EXPECT_EQ(cell, hi);
      expect_one_history(mid, cell, old, vals, def_nanmax<T>);
    }
    {
      const auto [cell, old] = run<T>("t_atomic_nanmin", mid, va);
      EXPECT_EQ(cell, lo);
      expect_one_history(mid, cell, old, vals, def_nanmin<T>);
    }
  });
}

TEST_P(NanAtomicTest, NanMaxAndNanMinReplaceAStoredNaNAndIgnoreNaNArguments) {
  for_type([&](auto z) {
    using T = decltype(z);
    if constexpr (std::is_floating_point_v<T>) {
      const T nan = std::numeric_limits<T>::quiet_NaN();
      std::vector<T> vals(kN);
      for (std::int64_t i = 0; i < kN; ++i) vals[i] = i % 2 ? nan : static_cast<T>(i - kN / 2);
      const Array va = put(loom::from_vector(vals));
      for (const char* k : {"t_atomic_nanmax", "t_atomic_nanmin"}) {
        SCOPED_TRACE(k);
        const bool is_max = std::string(k) == "t_atomic_nanmax";
        // A stored NaN is missing data: the first number replaces it.
        const auto [cell, old] = run<T>(k, nan, va);
        EXPECT_EQ(cell, is_max ? static_cast<T>(kN - 2 - kN / 2) : static_cast<T>(-kN / 2));
        expect_one_history(nan, cell, old, vals,
                           [&](T o, T v) { return is_max ? def_nanmax(o, v) : def_nanmin(o, v); });
        // NaN arguments alone leave a number as it is.
        const auto [kept, olds] = run<T>(k, T(2.5), put(loom::full<T>({kN}, nan)));
        EXPECT_EQ(kept, T(2.5));
        EXPECT_EQ(count_of(olds, T(2.5)), kN);
        // NaN with NaN stays NaN.
        const auto [still, _] = run<T>(k, nan, put(loom::full<T>({kN}, nan)));
        EXPECT_TRUE(std::isnan(still));
      }
    } else {
      GTEST_SKIP() << "integers have no NaN: nanmax/nanmin are max/min (covered above)";
    }
  });
}

TEST_P(NanAtomicTest, NanMaxOfMinusZeroAndZeroKeepsTheStoredOne) {
  for_type([&](auto z) {
    using T = decltype(z);
    if constexpr (std::is_floating_point_v<T>) {
      // fmax may return either zero; the stored one stays because neither is less than the other.
      const auto [cell, old] = run<T>("t_atomic_nanmax", T(-0.0), put(loom::full<T>({kN}, T(0))));
      EXPECT_TRUE(cell == 0 && std::signbit(cell));
    } else {
      GTEST_SKIP() << "no signed zero in integers";
    }
  });
}

INSTANTIATE_TEST_SUITE_P(Targets, NanAtomicTest,
                         ::testing::Combine(::testing::ValuesIn(kEveryWhere),
                                            ::testing::Values(DType::int32, DType::uint32,
                                                              DType::int64, DType::uint64,
                                                              DType::float32, DType::float64)),
                         atomic_name);

// and/or/xor: the integer types. Random bits per thread: the final value is the initial one
// combined with every thread's (in any order), and the old values one history.
class BitwiseAtomicTest : public AtomicTest {};

TEST_P(BitwiseAtomicTest, AndOrXorUnderContentionCombineEveryThreadsBits) {
  for_type([&](auto z) {
    using T = decltype(z);
    if constexpr (std::is_integral_v<T>) {
      std::mt19937_64 gen(7);
      std::vector<T> ors(kN), ands(kN), xors(kN);
      for (std::int64_t i = 0; i < kN; ++i) {
        // A sparse bit for or and and (one bit each, so the history keeps changing), random for
        // xor.
        const int bit = static_cast<int>(gen() % (8 * sizeof(T)));
        ors[i] = static_cast<T>(T(1) << bit);
        ands[i] = static_cast<T>(~ors[i]);
        xors[i] = static_cast<T>(gen());
      }
      const T init = static_cast<T>(0x5a5a5a5a5a5a5a5aull);
      T want_or = init, want_and = init, want_xor = init;
      for (std::int64_t i = 0; i < kN; ++i) {
        want_or = static_cast<T>(want_or | ors[i]);
        want_and = static_cast<T>(want_and & ands[i]);
        want_xor = static_cast<T>(want_xor ^ xors[i]);
      }
      {
        const auto [cell, old] = run<T>("t_atomic_or", init, put(loom::from_vector(ors)));
        EXPECT_EQ(cell, want_or);
        expect_one_history(init, cell, old, ors, [](T o, T v) { return static_cast<T>(o | v); });
      }
      {
        const auto [cell, old] = run<T>("t_atomic_and", init, put(loom::from_vector(ands)));
        EXPECT_EQ(cell, want_and);
        expect_one_history(init, cell, old, ands, [](T o, T v) { return static_cast<T>(o & v); });
      }
      {
        const auto [cell, old] = run<T>("t_atomic_xor", init, put(loom::from_vector(xors)));
        EXPECT_EQ(cell, want_xor);
        expect_one_history(init, cell, old, xors, [](T o, T v) { return static_cast<T>(o ^ v); });
      }
    }
  });
}

INSTANTIATE_TEST_SUITE_P(Targets, BitwiseAtomicTest,
                         ::testing::Combine(::testing::ValuesIn(kEveryWhere),
                                            ::testing::Values(DType::int32, DType::uint32,
                                                              DType::int64, DType::uint64)),
                         atomic_name);

// inc/dec: uint32 and uint64. Every thread passes the same limit, so the value after k operations
// does not depend on their order: the old values are exactly the first kN values of the orbit
// init, f(init), f(f(init)), ... of CUDA's definition f, wrapping included.
class WrapAtomicTest : public AtomicTest {
 protected:
  template <class T, class Def>
  void orbit_case(const char* kernel, T init, T v, Def def) {
    SCOPED_TRACE(std::string(kernel) + " from " + std::to_string(+init) + " with limit " +
                 std::to_string(+v));
    std::vector<T> want(kN);
    T x = init;
    for (std::int64_t k = 0; k < kN; ++k) want[k] = x, x = def(x, v);
    const auto [cell, old] = run<T>(kernel, init, v);
    EXPECT_EQ(cell, x);
    EXPECT_EQ(sorted(old), sorted(want));
  }
};

TEST_P(WrapAtomicTest, IncWrapsToZeroAfterTheLimitUnderContention) {
  for_type([&](auto z) {
    using T = decltype(z);
    if constexpr (std::is_unsigned_v<T>) {
      constexpr T top = std::numeric_limits<T>::max();
      orbit_case<T>("t_atomic_inc", T(0), T(100), def_inc<T>);     // wraps every 101 steps
      orbit_case<T>("t_atomic_inc", T(250), T(100), def_inc<T>);   // above the limit: 0 first
      orbit_case<T>("t_atomic_inc", T(100), T(100), def_inc<T>);   // at the limit: 0 first
      orbit_case<T>("t_atomic_inc", T(top - 5), top, def_inc<T>);  // wraps at the type's top
      orbit_case<T>("t_atomic_inc", T(7), T(0), def_inc<T>);       // limit 0: always 0
      orbit_case<T>("t_atomic_inc", T(0), T(kN * 2), def_inc<T>);  // never wraps: a counter
    }
  });
}

TEST_P(WrapAtomicTest, DecWrapsToTheLimitFromZeroOrAboveItUnderContention) {
  for_type([&](auto z) {
    using T = decltype(z);
    if constexpr (std::is_unsigned_v<T>) {
      constexpr T top = std::numeric_limits<T>::max();
      orbit_case<T>("t_atomic_dec", T(0), T(100), def_dec<T>);    // 0 wraps to the limit
      orbit_case<T>("t_atomic_dec", T(50), T(100), def_dec<T>);   // counts down, then wraps
      orbit_case<T>("t_atomic_dec", T(250), T(100), def_dec<T>);  // above the limit: the limit
      orbit_case<T>("t_atomic_dec", T(3), T(0), def_dec<T>);      // limit 0: always 0
      orbit_case<T>("t_atomic_dec", top, top, def_dec<T>);        // a count down from the top
    }
  });
}

INSTANTIATE_TEST_SUITE_P(Targets, WrapAtomicTest,
                         ::testing::Combine(::testing::ValuesIn(kEveryWhere),
                                            ::testing::Values(DType::uint32, DType::uint64)),
                         atomic_name);

// The host functions on a plain variable, one thread: the values CUDA documents.
TEST(AtomicDefinitions, IncDecNanMaxNanMinOnOneVariable) {
  std::uint32_t u = 5;
  EXPECT_EQ(loom::atomic_inc(&u, 5u), 5u);
  EXPECT_EQ(u, 0u);
  EXPECT_EQ(loom::atomic_dec(&u, 9u), 0u);
  EXPECT_EQ(u, 9u);
  EXPECT_EQ(loom::atomic_dec(&u, 9u), 9u);
  EXPECT_EQ(u, 8u);
  std::uint64_t w = 20;
  EXPECT_EQ(loom::atomic_dec(&w, std::uint64_t{10}), 20u);
  EXPECT_EQ(w, 10u);
  double d = std::nan("");
  EXPECT_TRUE(std::isnan(loom::atomic_nanmax(&d, 1.0)));
  EXPECT_EQ(d, 1.0);
  EXPECT_EQ(loom::atomic_nanmax(&d, std::nan("")), 1.0);
  EXPECT_EQ(d, 1.0);
  EXPECT_EQ(loom::atomic_nanmin(&d, -3.0), 1.0);
  EXPECT_EQ(d, -3.0);
  std::int64_t b = 0b1100;
  EXPECT_EQ(loom::atomic_and(&b, std::int64_t{0b1010}), 0b1100);
  EXPECT_EQ(b, 0b1000);
  EXPECT_EQ(loom::atomic_or(&b, std::int64_t{1}), 0b1000);
  EXPECT_EQ(loom::atomic_xor(&b, std::int64_t{-1}), 0b1001);
  EXPECT_EQ(b, ~std::int64_t{0b1001});
}

}  // namespace
}  // namespace loom_kernel_test
