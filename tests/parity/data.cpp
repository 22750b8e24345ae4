// Seeded random inputs, special values and strided views for the parity suite.
#include "data.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace parity {

namespace {

std::uint64_t fnv1a(const std::string& s) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

// The range of dtype t as doubles (integers are clamped into it).
std::pair<double, double> range_of(DType t) {
  return loom::visit_dtype(t, [](auto v) -> std::pair<double, double> {
    using T = decltype(v);
    if constexpr (std::is_integral_v<T>) {
      return {static_cast<double>(std::numeric_limits<T>::min()),
              static_cast<double>(std::numeric_limits<T>::max())};
    } else {
      return {-1e308, 1e308};
    }
  });
}

}  // namespace

Rng::Rng(const std::string& seed) : g_(fnv1a(seed)) {}

double Rng::uniform(double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(g_);
}
std::int64_t Rng::integer(std::int64_t lo, std::int64_t hi) {
  return std::uniform_int_distribution<std::int64_t>(lo, hi)(g_);
}
bool Rng::coin(double p) { return std::bernoulli_distribution(p)(g_); }

Array from_values(const std::vector<double>& v, const Shape& shape, DType t) {
  return loom::from_vector(v, shape).astype(t);
}

Array from_ints(const std::vector<std::int64_t>& v, DType t) {
  return loom::from_vector(v).astype(t);
}

Array random(Rng& rng, const Shape& shape, DType t, const Domain& d) {
  const auto n = static_cast<std::size_t>(loom::shape_size(shape));
  std::vector<double> v(n);
  if (is_integer(t)) {
    const auto [tlo, thi] = range_of(t);
    const auto lo = static_cast<std::int64_t>(std::ceil(std::max(d.lo, tlo)));
    const auto hi = static_cast<std::int64_t>(std::floor(std::min(d.hi, thi)));
    for (auto& x : v) {
      std::int64_t k;
      do {
        k = rng.integer(lo, hi);
        if (d.random_sign && rng.coin() && -k >= tlo) k = -k;
      } while (d.nonzero && k == 0);
      x = static_cast<double>(k);
    }
  } else {
    for (auto& x : v) {
      x = d.log_uniform ? std::exp(rng.uniform(std::log(d.lo), std::log(d.hi)))
                        : rng.uniform(d.lo, d.hi);
      if (d.random_sign && rng.coin()) x = -x;
    }
  }
  return from_values(v, shape, t);
}

std::vector<double> specials(DType t) {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> v = {std::numeric_limits<double>::quiet_NaN(),
                           inf,
                           -inf,
                           0.0,
                           -0.0,
                           1.0,
                           -1.0,
                           0.5,
                           -2.5,
                           3.0,
                           3.141592653589793,
                           -7.25,
                           1e10,
                           -1e-10};
  if (t == DType::float16) {  // subnormals, the smallest normal, the largest finite, a tie
    v.insert(v.end(), {0x1p-24, -0x1p-24, 0x1p-14, 65504.0, -65504.0, 0x1.8p-20, 2049.0});
  } else if (t == DType::float32) {
    v.insert(v.end(), {0x1p-149, -0x1p-149, 0x1p-126, 3.4028234663852886e38, -3.4028234663852886e38,
                       0x1.8p-140});
  } else if (t == DType::float64) {
    v.insert(v.end(), {0x1p-1074, -0x1p-1074, 0x1p-1022, std::numeric_limits<double>::max(),
                       -std::numeric_limits<double>::max(), 0x1.8p-1050, 1e300, -1e-300});
  }
  return v;
}

Array step2(Rng& rng, const Shape& shape, DType t, const Domain& d) {
  if (shape.empty()) return random(rng, shape, t, d);
  Shape big = shape;
  big[0] *= 2;
  return random(rng, big, t, d).slice(0, 0, big[0], 2);
}

Array reversed(Rng& rng, const Shape& shape, DType t, const Domain& d) {
  Array a = random(rng, shape, t, d);
  for (int k = 0; k < a.ndim(); ++k) {
    if (shape[k] > 0) a = a.slice(k, shape[k] - 1, -shape[k] - 1, -1);
  }
  return a;
}

Array transposed(Rng& rng, const Shape& shape, DType t, const Domain& d) {
  Shape rev;
  for (std::size_t k = shape.size(); k-- > 0;) rev.push_back(shape[k]);
  return random(rng, rev, t, d).transpose();
}

Array swap_last_two(const Array& a) {
  if (a.ndim() < 2) return a;
  std::vector<int> perm(a.ndim());
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[a.ndim() - 1], perm[a.ndim() - 2]);
  return a.transpose(perm).copy().transpose(perm);
}

}  // namespace parity
