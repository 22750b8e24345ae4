// loom_f32_sweep: accuracy sweeps of the math plugin's float32 batch functions (simd_libm.hpp,
// f32_kernels.hpp, f32_trig_exp.hpp, detail.hpp) against double references, outside the parity
// suite (slow: the log sweep takes every positive float, sin, cos and exp every float, on all
// cores). Built on request only: cmake --build build --target loom_f32_sweep; then
// loom_f32_sweep log | sin | cos | exp | atan2 [n] | pow [n] (n random pairs, default 2^26).
// Errors are |got - ref| / ulp(ref) in float; the double reference is within 2^-52 of the truth.
// pow reports the lanes with |y ln x| <= 86.4 (f32::pow_f32's own) and all lanes apart.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>
#include <xsimd/xsimd.hpp>

#include "detail.hpp"
#include "simd_libm.hpp"

namespace {

using B = xsimd::batch<float>;
namespace lm = loom::math::detail;

double ulp_err(float got, double ref) {
  if (std::isnan(ref)) return std::isnan(got) ? 0 : 1e9;
  const float rf = static_cast<float>(ref);
  if (std::isinf(rf)) return got == rf ? 0 : 1e9;
  if (std::isnan(got)) return 1e9;
  if (got == 0 && ref == 0) return std::signbit(got) == std::signbit(ref) ? 0 : 1e9;
  int e;
  std::frexp(std::fabs(ref), &e);  // |ref| in [2^(e-1), 2^e)
  return std::fabs(static_cast<double>(got) - ref) / std::ldexp(1.0, std::max(e - 24, -149));
}

float from_bits(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

struct Worst {
  double err = 0;
  float x = 0, y = 0;
  void add(double e, float a, float b) {
    if (e > err) err = e, x = a, y = b;
  }
  void print(const char* what) const {
    std::printf("%s: worst %.4f ulp at (%a, %a)\n", what, err, x, y);
  }
};

int sweep_log() {
  Worst w;
  alignas(64) std::uint32_t u[B::size];
  alignas(64) float r[B::size];
  for (std::uint64_t b = 0; b < 0x7f800000u + B::size; b += B::size) {
    for (std::size_t l = 0; l < B::size; ++l)
      u[l] = static_cast<std::uint32_t>(std::min<std::uint64_t>(b + l, 0x7f800000u));
    lm::log_ieee(B::load_aligned(reinterpret_cast<const float*>(u))).store_aligned(r);
    for (std::size_t l = 0; l < B::size; ++l) {
      const float x = from_bits(u[l]);
      w.add(ulp_err(r[l], std::log(static_cast<double>(x))), x, 0);
    }
  }
  w.print("log, every float in [0, inf]");
  return 0;
}

// Every float's bit pattern (2^32) through fn, against ref in double, on all cores. Reports the
// worst over the lanes with |x| <= own (the float kernel's range) and over all.
template <class Fn, class Ref>
int sweep_all(const char* name, Fn fn, Ref ref, float own) {
  const unsigned nt = std::max(1u, std::thread::hardware_concurrency());
  std::vector<Worst> w_own(nt), w_all(nt);
  std::vector<std::thread> pool;
  constexpr std::uint64_t total = 1ULL << 32;
  for (unsigned t = 0; t < nt; ++t) {
    pool.emplace_back([&, t] {
      alignas(64) std::uint32_t u[B::size];
      alignas(64) float r[B::size];
      const std::uint64_t lo = total / nt * t, hi = t + 1 == nt ? total : total / nt * (t + 1);
      for (std::uint64_t b = lo; b < hi; b += B::size) {
        for (std::size_t l = 0; l < B::size; ++l)
          u[l] = static_cast<std::uint32_t>(std::min<std::uint64_t>(b + l, hi - 1));
        fn(B::load_aligned(reinterpret_cast<const float*>(u))).store_aligned(r);
        for (std::size_t l = 0; l < B::size; ++l) {
          const float x = from_bits(u[l]);
          const double e = ulp_err(r[l], ref(static_cast<double>(x)));
          w_all[t].add(e, x, 0);
          if (std::fabs(x) <= own) w_own[t].add(e, x, 0);
        }
      }
    });
  }
  for (auto& th : pool) th.join();
  Worst o, a;
  for (unsigned t = 0; t < nt; ++t) {
    o.add(w_own[t].err, w_own[t].x, 0);
    a.add(w_all[t].err, w_all[t].x, 0);
  }
  std::printf("%s, every float with |x| <= %a: worst %.4f ulp at %a\n", name, own, o.err, o.x);
  std::printf("%s, every float (inf, NaN included): worst %.4f ulp at %a\n", name, a.err, a.x);
  return 0;
}

// The float kernels' own ranges where the target has them, else the batch functions' whole range.
#if LOOM_F32_LANES
constexpr float kSinCosOwn = lm::simd::f32::kSinCosMax, kExpOwn = lm::simd::f32::kExpMax;
#else
constexpr float kSinCosOwn = INFINITY, kExpOwn = INFINITY;
#endif

int sweep_sincos(bool cos) {
  if (cos)
    return sweep_all(
        "cos", [](B x) { return lm::sincos_ieee<true>(x); }, [](double x) { return std::cos(x); },
        kSinCosOwn);
  return sweep_all(
      "sin", [](B x) { return lm::sincos_ieee<false>(x); }, [](double x) { return std::sin(x); },
      kSinCosOwn);
}

// exp's own range is [-87, 88]: |x| <= 87 is reported apart.
int sweep_exp() {
  return sweep_all(
      "exp", [](B x) { return lm::exp_ieee(x); }, [](double x) { return std::exp(x); },
      kExpOwn - 1);
}

// Random pairs from three mixes: any finite bits, uniform [-1, 1), and +-m 2^e with e in [-30, 30).
int sweep_atan2(long n) {
  std::mt19937_64 rng(12345);
  auto gen = [&](int mode) -> float {
    const std::uint64_t u = rng();
    if (mode == 0) return from_bits(static_cast<std::uint32_t>(u) & 0xff7fffffu);  // finite
    const double m = static_cast<double>(u >> 11) * 0x1p-53;
    if (mode == 1) return static_cast<float>(2 * m - 1);
    return static_cast<float>(std::ldexp(1 + m, static_cast<int>(u % 60) - 30) *
                              ((u >> 7 & 1) ? -1 : 1));
  };
  Worst w;
  alignas(64) float xs[B::size], ys[B::size], r[B::size];
  for (long i = 0; i < n; i += B::size) {
    const int mode = static_cast<int>(i / B::size % 4);
    for (std::size_t l = 0; l < B::size; ++l) {
      xs[l] = gen(mode % 3);
      // mode 3: y within a few ulp of +-x (|y/x| near 1, the octant boundary).
      ys[l] = mode == 3
                  ? xs[l] * (1 + static_cast<float>(static_cast<int>(rng() % 9) - 4) * 0x1p-22f) *
                        ((rng() & 1) ? -1.f : 1.f)
                  : gen(mode);
    }
    lm::simd::atan2(B::load_aligned(ys), B::load_aligned(xs)).store_aligned(r);
    for (std::size_t l = 0; l < B::size; ++l) {
      w.add(ulp_err(r[l], std::atan2(static_cast<double>(ys[l]), static_cast<double>(xs[l]))),
            ys[l], xs[l]);
    }
  }
  w.print("atan2 (y, x)");
  return 0;
}

// x: any positive finite bits with y in [-4, 4); x = m 2^e (e in [-128, 128)) or x within 2^-4 of
// 1, with y such that y log2 x is uniform in [-170, 130]; an eighth of x negated, an eighth of y
// rounded to an integer.
int sweep_pow(long n) {
  std::mt19937_64 rng(54321);
  Worst own, all;
  alignas(64) float xs[B::size], ys[B::size], r[B::size];
  for (long i = 0; i < n; i += B::size) {
    const int mode = static_cast<int>(i / B::size % 3);
    for (std::size_t l = 0; l < B::size; ++l) {
      const std::uint64_t u = rng();
      const double m = static_cast<double>(rng() >> 11) * 0x1p-53, t = m * 300 - 170;
      if (mode == 0) {
        xs[l] = from_bits(static_cast<std::uint32_t>(u) & 0x7f7fffffu);
        ys[l] = static_cast<float>(8 * m - 4);
      } else {
        xs[l] = mode == 1
                    ? static_cast<float>(std::ldexp(1 + static_cast<double>(u >> 11) * 0x1p-53,
                                                    static_cast<int>(u % 256) - 128))
                    : 1 + static_cast<float>(static_cast<int>(u % 1048577) - 524288) * 0x1p-23f;
        ys[l] = static_cast<float>(t / std::log2(static_cast<double>(xs[l])));
        if (!std::isfinite(ys[l])) ys[l] = 3;
      }
      if ((u >> 61) == 0) xs[l] = -xs[l];
      if ((u >> 61) == 1) ys[l] = std::nearbyint(ys[l]);
    }
    lm::simd::pow(B::load_aligned(xs), B::load_aligned(ys)).store_aligned(r);
    for (std::size_t l = 0; l < B::size; ++l) {
      const double x = xs[l], y = ys[l];
      const double e = ulp_err(r[l], std::pow(x, y));
      all.add(e, xs[l], ys[l]);
      if (std::fabs(y * std::log(std::fabs(x))) <= 86.4) own.add(e, xs[l], ys[l]);
    }
  }
  own.print("pow (x, y), |y ln x| <= 86.4");
  all.print("pow (x, y), all (beyond: double pow, rounded)");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string op = argc > 1 ? argv[1] : "";
  const long n = argc > 2 ? std::atol(argv[2]) : 1L << 26;
  if (op == "log") return sweep_log();
  if (op == "sin" || op == "cos") return sweep_sincos(op == "cos");
  if (op == "exp") return sweep_exp();
  if (op == "atan2") return sweep_atan2(n);
  if (op == "pow") return sweep_pow(n);
  std::fprintf(stderr, "usage: loom_f32_sweep log | sin | cos | exp | atan2 [n] | pow [n]\n");
  return 2;
}
