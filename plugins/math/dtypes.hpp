// Short names of the dtypes the math plugin's tables use (NumPy's type characters in comments).
#pragma once
#include <complex>
#include <cstdint>

#include "half.hpp"
#include "loom/def/signature_of.hpp"
#include "loom/float16.hpp"
#if defined(__CUDACC__)
#include "loom/def/complex.cuh"
#endif

namespace loom::math::types {

using b1 = bool;            // ?
using i8 = std::int8_t;     // b
using u8 = std::uint8_t;    // B
using i16 = std::int16_t;   // h
using u16 = std::uint16_t;  // H
using i32 = std::int32_t;   // i
using u32 = std::uint32_t;  // I
using i64 = std::int64_t;   // l, q
using u64 = std::uint64_t;  // L, Q
using f16 = float16_t;      // e
using f32 = float;          // f
using f64 = double;         // d
// Complex: std::complex in host builds, cuda::std::complex (the same dtypes) in CUDA builds, whose
// operators and functions run on the device (complex_ops.hpp).
#if defined(__CUDACC__)
using c64 = cuda::std::complex<float>;    // F
using c128 = cuda::std::complex<double>;  // D
#else
using c64 = std::complex<float>;    // F
using c128 = std::complex<double>;  // D
#endif
using loom::def::outs;

}  // namespace loom::math::types

// Loop lists in NumPy's order. M is applied to each dtype: LOOM_MATH_INTS(LOOM_MATH_BIN) is
// i8(i8, i8), u8(u8, u8), ..., u64(u64, u64).
#define LOOM_MATH_INTS(M) M(i8), M(u8), M(i16), M(u16), M(i32), M(u32), M(i64), M(u64)
#define LOOM_MATH_FLOATS(M) M(f32), M(f64)
#define LOOM_MATH_REALS(M) LOOM_MATH_INTS(M), LOOM_MATH_FLOATS(M)
#define LOOM_MATH_ALL(M) M(b1), LOOM_MATH_REALS(M)
// The same with float16 (NumPy's `e`, between the integers and float32): for Half<F> functors.
#define LOOM_MATH_E(...) __VA_ARGS__,  // float16 signatures written out, followed by more
#define LOOM_MATH_HFLOATS(M) M(f16), LOOM_MATH_FLOATS(M)
#define LOOM_MATH_HREALS(M) LOOM_MATH_INTS(M), LOOM_MATH_HFLOATS(M)
#define LOOM_MATH_HALL(M) M(b1), LOOM_MATH_HREALS(M)
// complex64, complex128 (NumPy's F, D: after float64), for Cx<F, C> functors (complex_ops.hpp).
#define LOOM_MATH_CFLOATS(M) M(c64), M(c128)
#define LOOM_MATH_UN(T) T(T)         // T(T)
#define LOOM_MATH_BIN(T) T(T, T)     // T(T, T)
#define LOOM_MATH_PRED1(T) b1(T)     // bool(T)
#define LOOM_MATH_PRED2(T) b1(T, T)  // bool(T, T)
#define LOOM_MATH_DIVMOD(T) outs<T, T>(T, T)
#define LOOM_MATH_CABS f32(c64), f64(c128)  // np.absolute of complex: F->f, D->d
