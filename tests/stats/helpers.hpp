// Shared pieces of the stats tests: the runtime, the targets, inputs of every dtype and
// long-double references of the reductions over any axes.
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loom/loom.hpp"
#include "loom/stats.hpp"

namespace loom_stats_test {

using loom::Array;
using loom::DType;

inline loom::Runtime& rt() {
  static loom::Runtime r;
  return r;
}

inline std::optional<std::string> unavailable(const std::string& target) {
  for (const auto& t : rt().targets()) {
    if (t.target == target) return t.available ? std::nullopt : std::optional(t.reason);
  }
  return "no backend for target '" + target + "' on the search path";
}

#define LOOM_STATS_SKIP_UNAVAILABLE(target) \
  if (const auto why = unavailable(target)) GTEST_SKIP() << target << ": " << *why

inline const std::string kTargets[] = {"cpu", "parallel", "cuda"};

inline const DType kRealDTypes[] = {DType::bool_,  DType::int8,    DType::uint8,   DType::int16,
                                    DType::uint16, DType::int32,   DType::uint32,  DType::int64,
                                    DType::uint64, DType::float16, DType::float32, DType::float64};

// Values a dtype holds exactly: small integers (0/1 for bool), halves for floats, from an LCG.
inline Array sample(DType dt, const loom::Shape& shape, std::uint64_t seed = 1) {
  std::int64_t n = 1;
  for (auto s : shape) n *= s;
  std::vector<double> v(static_cast<std::size_t>(n));
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + 7;
  for (auto& e : v) {
    z = z * 6364136223846793005ull + 1442695040888963407ull;
    const auto r = static_cast<std::int64_t>((z >> 33) % 100);
    if (dt == DType::bool_) {
      e = static_cast<double>(r % 2);
    } else if (loom::kind(dt) == loom::Kind::unsigned_int) {
      e = static_cast<double>(r);
    } else if (loom::kind(dt) == loom::Kind::floating) {
      e = static_cast<double>(r - 50) / 4.0;
    } else {
      e = static_cast<double>(r - 50);
    }
  }
  return loom::from_vector(v, shape).astype(dt);
}

inline std::vector<long double> values(const Array& a) {
  const Array h = a.device().is_host() ? a : rt().to_host(a);
  std::vector<long double> r;
  for (double d : h.astype(DType::float64).to_vector<double>()) r.push_back(d);
  return r;
}

// The reduction of `x` (host values in C order of `shape`) over the axes `red`: per output (C
// order of the kept axes), the kept elements' values, gathered for a reference to fold.
inline std::vector<std::vector<long double>> groups(const std::vector<long double>& x,
                                                    const loom::Shape& shape,
                                                    const std::vector<bool>& red) {
  const int nd = static_cast<int>(shape.size());
  std::int64_t outs = 1;
  for (int k = 0; k < nd; ++k) outs *= red[k] ? 1 : shape[k];
  std::vector<std::vector<long double>> g(static_cast<std::size_t>(outs));
  std::vector<std::int64_t> idx(nd, 0);
  for (std::size_t i = 0; i < x.size(); ++i) {
    std::int64_t o = 0;
    for (int k = 0; k < nd; ++k) {
      if (!red[k]) o = o * shape[k] + idx[k];
    }
    g[static_cast<std::size_t>(o)].push_back(x[i]);
    for (int k = nd - 1; k >= 0; --k) {
      if (++idx[k] < shape[k]) break;
      idx[k] = 0;
    }
  }
  return g;
}

inline long double ref_mean(const std::vector<long double>& v) {
  long double s = 0;
  for (auto e : v) s += e;
  return s / static_cast<long double>(v.size());
}

inline long double ref_var(const std::vector<long double>& v, double ddof) {
  const long double m = ref_mean(v);
  long double s = 0;
  for (auto e : v) s += (e - m) * (e - m);
  const long double d = std::max<long double>(static_cast<long double>(v.size()) - ddof, 0);
  return s / d;
}

// Relative tolerance of a result dtype's statistics.
inline double tol(DType dt) {
  return dt == DType::float16 ? 4e-3 : dt == DType::float32 ? 2e-6 : 1e-13;
}

inline void expect_close(long double want, long double got, double rel, const std::string& what) {
  if (std::isnan(static_cast<double>(want))) {
    EXPECT_TRUE(std::isnan(static_cast<double>(got))) << what << ": got " << (double)got;
    return;
  }
  if (std::isinf(static_cast<double>(want))) {
    EXPECT_EQ((double)want, (double)got) << what;
    return;
  }
  const long double err = std::fabs(want - got), scale = std::max<long double>(1, std::fabs(want));
  EXPECT_LE((double)(err / scale), rel)
      << what << ": want " << (double)want << " got " << (double)got;
}

inline std::string target_name(const ::testing::TestParamInfo<std::string>& i) { return i.param; }

}  // namespace loom_stats_test
