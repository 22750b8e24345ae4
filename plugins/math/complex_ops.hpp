// The math plugin's complex64 / complex128 loops (NumPy's F and D loops), as functors generic over
// the complex type: std::complex<T> in host builds, cuda::std::complex<T> in CUDA builds (the
// same dtypes, loom/def/complex.cuh). Cx<F, C> puts them on a table line beside the real loops:
// a call with a complex operand goes to C, every other call to Half<F>.
//
// NumPy's semantics, step for step (numpy/_core/src/umath/loops.c.src, funcs.inc.src,
// npymath/npy_math_complex.c.src): + - * and square, / and reciprocal (Smith's algorithm) are
// written out here rather than taken from the complex type's operators, which recover C99's
// infinities and scale where NumPy does not; exp, log, sqrt, pow's general case and the
// trigonometric and hyperbolic functions are the C library's (glibc's cexp ... catanh on the host,
// as NumPy calls them; Thrust's on the GPU); exp2, log2, log10, expm1, log1p and pow's integer
// powers are NumPy's formulas over real functions. docs/catalogue.md, "Complex loops".
#pragma once
#include <cmath>
#include <complex>
#include <limits>
#include <type_traits>

#include "half.hpp"
#include "loom/hd.hpp"
#if defined(__CUDACC__)
#include <thrust/complex.h>

#include <cuda/std/complex>
#endif

namespace loom::math {

namespace detail {

template <class T>
inline constexpr bool is_complex = false;
template <class T>
inline constexpr bool is_complex<std::complex<T>> = true;
#if defined(__CUDACC__)
template <class T>
inline constexpr bool is_complex<cuda::std::complex<T>> = true;
#endif

}  // namespace detail

// Real dtypes (float16 included) through Half<F>, complex ones through C.
template <class F, class C>
struct Cx : Half<F> {
  template <class... T>
  LOOM_HD auto operator()(T... x) const {
    if constexpr ((detail::is_complex<T> || ...)) {
      return C{}(x...);
    } else {
      return Half<F>::operator()(x...);
    }
  }
};

namespace cplx {

template <class Z>
using real_t = std::remove_cvref_t<decltype(Z{}.real())>;

// The constants NumPy uses, rounded to the component type.
template <class R>
inline constexpr R kLn2 = R(0.693147180559945309417232121458176568L);
template <class R>
inline constexpr R kLog2e = R(1.442695040888963407359924681001892137L);
template <class R>
inline constexpr R kLog10e = R(0.434294481903251827651128931368230L);

// x, as a value the compiler cannot fuse into a neighbouring operation. GCC 12 turns the two
// lanes of a complex product or quotient (p - q, r + s) into one vfmaddsub even with
// -ffp-contract=off, which would round differently from NumPy's C loops, from the CUDA loops
// (--fmad=false) and from one CPU to the next; an empty asm on each product prevents it.
template <class R>
LOOM_HD inline R opaque(R x) {
#if !defined(__CUDA_ARCH__) && defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  asm("" : "+x"(x));
#elif !defined(__CUDA_ARCH__) && defined(__GNUC__) && defined(__aarch64__)
  asm("" : "+w"(x));
#endif
  return x;
}

template <class Z>
LOOM_HD Z mul(Z a, Z b) {
  const auto ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
  return Z(opaque(ar * br) - opaque(ai * bi), opaque(ar * bi) + opaque(ai * br));
}

// Smith's division, as NumPy's loop: a zero divisor gives x / 0 per component (inf or NaN).
template <class Z>
LOOM_HD Z div(Z a, Z b) {
  using std::fabs;
  using R = real_t<Z>;
  const R ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
  const R abr = fabs(br), abi = fabs(bi);
  if (abr >= abi) {
    if (abr == 0 && abi == 0) return Z(ar / abr, ai / abi);
    const R rat = bi / br, scl = R(1) / (br + opaque(bi * rat));
    return Z((ar + opaque(ai * rat)) * scl, (ai - opaque(ar * rat)) * scl);
  }
  const R rat = br / bi, scl = R(1) / (bi + opaque(br * rat));
  return Z((opaque(ar * rat) + ai) * scl, (opaque(ai * rat) - ar) * scl);
}

template <class Z>
LOOM_HD bool nonzero(Z z) {
  return z.real() != 0 || z.imag() != 0;
}
template <class Z>
LOOM_HD bool any_nan(Z z) {
  using std::isnan;
  return isnan(z.real()) || isnan(z.imag());
}

// NumPy's lexicographic order (CGT ... CLE in loops.c.src): the real parts decide unless they are
// equal, a NaN imaginary part makes the real parts' order false, and NaN compares false.
template <class Z>
LOOM_HD bool gt(Z x, Z y) {
  using std::isnan;
  return (x.real() > y.real() && !isnan(x.imag()) && !isnan(y.imag())) ||
         (x.real() == y.real() && x.imag() > y.imag());
}
template <class Z>
LOOM_HD bool ge(Z x, Z y) {
  using std::isnan;
  return (x.real() > y.real() && !isnan(x.imag()) && !isnan(y.imag())) ||
         (x.real() == y.real() && x.imag() >= y.imag());
}

#if defined(__CUDACC__)
// z * w as C99 Annex G (G.5.1) multiplies, recovering infinities where the plain formula gives
// NaN + NaN i; finite products round exactly as the plain formula's.
template <class C>
__device__ inline C annex_g_mul(C z, C w) {
  using R = decltype(z.real());
  R a = z.real(), b = z.imag(), c = w.real(), d = w.imag();
  const R ac = a * c, bd = b * d, ad = a * d, bc = b * c;
  R x = ac - bd, y = ad + bc;
  if (isnan(x) && isnan(y)) {
    bool again = false;
    const auto box = [](R v) { return copysign(isinf(v) ? R(1) : R(0), v); };
    const auto zero_nan = [](R& v) {
      if (isnan(v)) v = copysign(R(0), v);
    };
    if (isinf(a) || isinf(b)) {
      a = box(a), b = box(b), zero_nan(c), zero_nan(d), again = true;
    }
    if (isinf(c) || isinf(d)) {
      c = box(c), d = box(d), zero_nan(a), zero_nan(b), again = true;
    }
    if (!again && (isinf(ac) || isinf(bd) || isinf(ad) || isinf(bc))) {
      zero_nan(a), zero_nan(b), zero_nan(c), zero_nan(d), again = true;
    }
    if (again) {
      const R inf = R(INFINITY);
      x = inf * (a * c - b * d);
      y = inf * (a * d + b * c);
    }
  }
  return C(x, y);
}
#endif

}  // namespace cplx

#define LOOM_MATH_CBINARY(Name, R, expr)   \
  struct Name {                            \
    template <class Z>                     \
    LOOM_HD R operator()(Z x, Z y) const { \
      return expr;                         \
    }                                      \
  };
LOOM_MATH_CBINARY(CAdd, Z, Z(x.real() + y.real(), x.imag() + y.imag()))
LOOM_MATH_CBINARY(CSubtract, Z, Z(x.real() - y.real(), x.imag() - y.imag()))
LOOM_MATH_CBINARY(CMultiply, Z, cplx::mul(x, y))
LOOM_MATH_CBINARY(CDivide, Z, cplx::div(x, y))
LOOM_MATH_CBINARY(CGreater, bool, cplx::gt(x, y))
LOOM_MATH_CBINARY(CGreaterEqual, bool, cplx::ge(x, y))
LOOM_MATH_CBINARY(CLess, bool, cplx::gt(y, x))
LOOM_MATH_CBINARY(CLessEqual, bool, cplx::ge(y, x))
LOOM_MATH_CBINARY(CEqual, bool, x.real() == y.real() && x.imag() == y.imag())
LOOM_MATH_CBINARY(CNotEqual, bool, x.real() != y.real() || x.imag() != y.imag())
LOOM_MATH_CBINARY(CLogicalAnd, bool, cplx::nonzero(x) && cplx::nonzero(y))
LOOM_MATH_CBINARY(CLogicalOr, bool, cplx::nonzero(x) || cplx::nonzero(y))
LOOM_MATH_CBINARY(CLogicalXor, bool, cplx::nonzero(x) != cplx::nonzero(y))
// maximum / minimum: a NaN in either operand propagates (x's when both have one); fmax / fmin:
// a NaN operand is ignored (x when both have one). Ties keep x.
LOOM_MATH_CBINARY(CMaximum, Z, (cplx::any_nan(x) || cplx::ge(x, y)) ? x : y)
LOOM_MATH_CBINARY(CMinimum, Z, (cplx::any_nan(x) || cplx::ge(y, x)) ? x : y)
LOOM_MATH_CBINARY(CFmax, Z, (cplx::any_nan(y) || cplx::ge(x, y)) ? x : y)
LOOM_MATH_CBINARY(CFmin, Z, (cplx::any_nan(y) || cplx::ge(y, x)) ? x : y)
#undef LOOM_MATH_CBINARY

#define LOOM_MATH_CUNARY(Name, R, expr) \
  struct Name {                         \
    template <class Z>                  \
    LOOM_HD R operator()(Z z) const {   \
      return expr;                      \
    }                                   \
  };
LOOM_MATH_CUNARY(CNegative, Z, Z(-z.real(), -z.imag()))
LOOM_MATH_CUNARY(CPositive, Z, z)
LOOM_MATH_CUNARY(CConjugate, Z, Z(z.real(), -z.imag()))
LOOM_MATH_CUNARY(CSquare, Z, cplx::mul(z, z))
LOOM_MATH_CUNARY(CLogicalNot, bool, !cplx::nonzero(z))
#undef LOOM_MATH_CUNARY

// |z| = hypot(re, im) (NumPy's npy_cabs): a real result, inf if either part is inf.
struct CAbs {
  template <class Z>
  LOOM_HD cplx::real_t<Z> operator()(Z z) const {
    using std::hypot;
    return hypot(z.real(), z.imag());
  }
};

struct CIsNan {
  template <class Z>
  LOOM_HD bool operator()(Z z) const {
    return cplx::any_nan(z);
  }
};
struct CIsInf {
  template <class Z>
  LOOM_HD bool operator()(Z z) const {
    using std::isinf;
    return isinf(z.real()) || isinf(z.imag());
  }
};
struct CIsFinite {
  template <class Z>
  LOOM_HD bool operator()(Z z) const {
    using std::isfinite;
    return isfinite(z.real()) && isfinite(z.imag());
  }
};

// Each part rounded to an integer, ties to even.
struct CRint {
  template <class Z>
  LOOM_HD Z operator()(Z z) const {
    using std::nearbyint;
    return Z(nearbyint(z.real()), nearbyint(z.imag()));
  }
};

// NumPy 2's sign: z / |z|; 0 for 0; NaN + NaN i when |z| is NaN or both parts are infinite; an
// infinite part alone gives ±1 on its axis.
struct CSign {
  template <class Z>
  LOOM_HD Z operator()(Z z) const {
    using std::hypot;
    using std::isinf;
    using std::isnan;
    using R = cplx::real_t<Z>;
    const R re = z.real(), im = z.imag(), a = hypot(re, im);
    const R nan = std::numeric_limits<R>::quiet_NaN();
    if (isnan(a)) return Z(nan, nan);
    if (isinf(a)) {
      if (isinf(re)) return isinf(im) ? Z(nan, nan) : Z(re > 0 ? R(1) : R(-1), R(0));
      return Z(R(0), im > 0 ? R(1) : R(-1));
    }
    if (a == 0) return Z(R(0), R(0));
    return Z(re / a, im / a);
  }
};

// 1 / z by Smith's method, as NumPy's reciprocal loop.
struct CReciprocal {
  template <class Z>
  LOOM_HD Z operator()(Z z) const {
    using std::fabs;
    using R = cplx::real_t<Z>;
    const R re = z.real(), im = z.imag();
    if (fabs(im) <= fabs(re)) {
      const R r = im / re, d = re + cplx::opaque(im * r);
      return Z(R(1) / d, -r / d);
    }
    const R r = re / im, d = cplx::opaque(re * r) + im;
    return Z(r / d, R(-1) / d);
  }
};

// The C library's complex functions (C99 Annex G special values): glibc's on the host, as NumPy
// calls them; on the GPU Thrust's (FreeBSD msun's algorithms, as CuPy calls them), which keep
// Annex G's special values and Kahan's tanh near its poles where libcu++'s do not (measured:
// docs/catalogue.md, "Complex loops").
#if defined(__CUDACC__)
#define LOOM_MATH_C99(Name, fn)                                                        \
  struct Name {                                                                        \
    template <class Z>                                                                 \
    LOOM_HD Z operator()(Z z) const {                                                  \
      using R = cplx::real_t<Z>;                                                       \
      const thrust::complex<R> r = thrust::fn(thrust::complex<R>(z.real(), z.imag())); \
      return Z(r.real(), r.imag());                                                    \
    }                                                                                  \
  };
#else
#define LOOM_MATH_C99(Name, fn)       \
  struct Name {                       \
    template <class Z>                \
    LOOM_HD Z operator()(Z z) const { \
      using std::fn;                  \
      return fn(z);                   \
    }                                 \
  };
#endif
LOOM_MATH_C99(CSqrt, sqrt)
LOOM_MATH_C99(CExp, exp)
LOOM_MATH_C99(CLog, log)
LOOM_MATH_C99(CSin, sin)
LOOM_MATH_C99(CCos, cos)
LOOM_MATH_C99(CTan, tan)
LOOM_MATH_C99(CArcsin, asin)
LOOM_MATH_C99(CArccos, acos)
LOOM_MATH_C99(CArctan, atan)
LOOM_MATH_C99(CSinh, sinh)
LOOM_MATH_C99(CCosh, cosh)
LOOM_MATH_C99(CTanh, tanh)
LOOM_MATH_C99(CArcsinh, asinh)
LOOM_MATH_C99(CArccosh, acosh)
LOOM_MATH_C99(CArctanh, atanh)
#undef LOOM_MATH_C99

// NumPy's formulas (funcs.inc.src): exp2(z) = exp(z ln 2), log2 and log10 scale log(z)'s parts.
struct CExp2 {
  template <class Z>
  LOOM_HD Z operator()(Z z) const {
    using R = cplx::real_t<Z>;
    return CExp{}(Z(z.real() * cplx::kLn2<R>, z.imag() * cplx::kLn2<R>));
  }
};
struct CLog2 {
  template <class Z>
  LOOM_HD Z operator()(Z z) const {
    using R = cplx::real_t<Z>;
    const Z l = CLog{}(z);
    return Z(l.real() * cplx::kLog2e<R>, l.imag() * cplx::kLog2e<R>);
  }
};
struct CLog10 {
  template <class Z>
  LOOM_HD Z operator()(Z z) const {
    using R = cplx::real_t<Z>;
    const Z l = CLog{}(z);
    return Z(l.real() * cplx::kLog10e<R>, l.imag() * cplx::kLog10e<R>);
  }
};
// expm1(x + iy) = (expm1(x) cos y - 2 sin^2(y/2)) + i exp(x) sin y.
struct CExpm1 {
  template <class Z>
  LOOM_HD Z operator()(Z z) const {
    using std::cos;
    using std::exp;
    using std::expm1;
    using std::sin;
    using R = cplx::real_t<Z>;
    const R x = z.real(), y = z.imag(), a = sin(y / 2);
    return Z(cplx::opaque(expm1(x) * cos(y)) - cplx::opaque(2 * a * a), exp(x) * sin(y));
  }
};
// log1p(z) = log|1 + z| + i arg(1 + z).
struct CLog1p {
  template <class Z>
  LOOM_HD Z operator()(Z z) const {
    using std::atan2;
    using std::hypot;
    using std::log;
    const auto x1 = z.real() + 1, y = z.imag();
    return Z(log(hypot(x1, y)), atan2(y, x1));
  }
};

// NumPy's npy_cpow: z ** 0 is 1 (0 ** 0 too); 0 ** w is 0 for Re w > 0, else NaN + NaN i; integer
// exponents |n| < 100 by repeated squaring (n = 1, 2, 3 unrolled; 1 / z**|n| by Smith's
// division for n < 0); everything else the C library's cpow.
struct CPower {
  template <class Z>
  LOOM_HD Z operator()(Z a, Z b) const {
    using R = cplx::real_t<Z>;
    const R ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
    if (br == 0 && bi == 0) return Z(R(1), R(0));
    if (ar == 0 && ai == 0) {
      if (br > 0) return Z(R(0), R(0));
      const R nan = std::numeric_limits<R>::quiet_NaN();
      return Z(nan, nan);
    }
    if (bi == 0 && br > -100 && br < 100 && static_cast<R>(static_cast<int>(br)) == br) {
      int n = static_cast<int>(br);
      if (n == 1) return a;
      if (n == 2) return cplx::mul(a, a);
      if (n == 3) return cplx::mul(a, cplx::mul(a, a));
      if (n < 0) n = -n;
      Z acc(R(1), R(0)), p = a;
      for (int mask = 1;; mask <<= 1) {
        if (n & mask) acc = cplx::mul(acc, p);
        if (n < (mask << 1)) break;
        p = cplx::mul(p, p);
      }
      return br < 0 ? cplx::div(Z(R(1), R(0)), acc) : acc;
    }
#if defined(__CUDACC__)
    // exp(b log a), as glibc's cpow that NumPy calls, with the product C99 Annex G's way (gcc's
    // __muldc3): Thrust's pow multiplies plainly, so pow(nan + inf i, -inf) gave NaN, not 0.
    // Emulated on the host over every pair of special values (Thrust's functions are host code
    // too): the class of every result now matches glibc's; Thrust's pow missed 248 of 5621.
    // Thrust's log(nan + inf i) is NaN + NaN i; C99's clog has +inf + i arg there.
    auto l = thrust::log(thrust::complex<R>(ar, ai));
    if (isinf(ar) || isinf(ai)) l = thrust::complex<R>(R(INFINITY), atan2(ai, ar));
    const auto r = thrust::exp(cplx::annex_g_mul(l, thrust::complex<R>(br, bi)));
    return Z(r.real(), r.imag());
#else
    using std::pow;
    return pow(a, b);
#endif
  }
};

}  // namespace loom::math
