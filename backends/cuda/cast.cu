// Every pair of the 14 dtypes in one kernel: an element is loaded into a wide value (int64,
// uint64, double or a double pair, which hold every source exactly) and stored from it with the
// rules of loom::cast_strided — NaN -> 0 and saturation for float -> int, modular int -> int,
// float16 rounded once to nearest even, complex -> real dropping the imaginary part. The dtype
// switches are uniform across a warp, and one kernel compiles in a fraction of the time of 196.
// A masked cast (where=) has a third operand, a bool mask: elements where it is false keep dst's
// value.
#include <cstring>

#include "cast.hpp"
#include "check.hpp"
#include "loom/def/launch.cuh"

namespace loom::backend::cuda_backend {

namespace {

using def::cu::Strided;

struct Val {
  enum Kind : int { sint, uint, real, cplx } kind;
  long long i;
  unsigned long long u;
  double re, im;
};

template <class T>
__device__ __forceinline__ T ld(const char* p, bool aligned) {
  if (aligned) return *reinterpret_cast<const T*>(p);
  T v;
  memcpy(&v, p, sizeof(T));
  return v;
}
template <class T>
__device__ __forceinline__ void st(char* p, T v, bool aligned) {
  if (aligned) {
    *reinterpret_cast<T*>(p) = v;
  } else {
    memcpy(p, &v, sizeof(T));
  }
}

// binary16 -> float, exact (as float16_t's conversion).
__device__ float half_to_float(unsigned short bits) {
  const unsigned sign = static_cast<unsigned>(bits & 0x8000u) << 16;
  const unsigned exp = (bits >> 10) & 0x1fu;
  unsigned mant = bits & 0x3ffu;
  if (exp == 0x1f) return __uint_as_float(sign | 0x7f800000u | (mant << 13));
  if (exp == 0) {
    if (mant == 0) return __uint_as_float(sign);
    int e = -14;
    while ((mant & 0x400u) == 0) {
      mant <<= 1;
      --e;
    }
    mant &= 0x3ffu;
    return __uint_as_float(sign | static_cast<unsigned>(e + 127) << 23 | (mant << 13));
  }
  return __uint_as_float(sign | (exp + 112) << 23 | (mant << 13));
}

__device__ unsigned long long round_shift(unsigned long long value, int shift) {
  const unsigned long long kept = value >> shift;
  const unsigned long long rest = value & ((1ull << shift) - 1);
  const unsigned long long half = 1ull << (shift - 1);
  return kept + ((rest > half || (rest == half && (kept & 1))) ? 1 : 0);
}

// double -> binary16, rounded once to nearest even (as float16_t::from_double).
__device__ unsigned short double_to_half(double d) {
  const auto x = static_cast<unsigned long long>(__double_as_longlong(d));
  const auto sign = static_cast<unsigned short>((x >> 48) & 0x8000u);
  const int exp = static_cast<int>((x >> 52) & 0x7ff);
  const unsigned long long mant = x & ((1ull << 52) - 1);
  if (exp == 0x7ff) {
    if (mant == 0) return sign | 0x7c00u;
    return static_cast<unsigned short>(sign | 0x7e00u | (mant >> 42));
  }
  const int e = exp - 1023 + 15;
  if (e >= 31) return sign | 0x7c00u;
  if (e <= 0) {
    if (e < -10) return sign;
    const unsigned long long m = mant | (1ull << 52);
    return static_cast<unsigned short>(sign | round_shift(m, 43 - e));
  }
  const unsigned long long h = (static_cast<unsigned long long>(e) << 52 | mant);
  return static_cast<unsigned short>(sign | round_shift(h, 42));
}

template <class To>
__device__ To float_to_int(double v) {
  if (isnan(v)) return To{0};
  v = trunc(v);
  constexpr double kTwo63 = 9223372036854775808.0;
  if (static_cast<To>(-1) < To{0} || v < 0) {
    const long long i = v >= kTwo63   ? 0x7fffffffffffffffLL
                        : v < -kTwo63 ? static_cast<long long>(0x8000000000000000ULL)
                                      : static_cast<long long>(v);
    return static_cast<To>(i);
  }
  const unsigned long long u =
      v >= 2 * kTwo63 ? 0xffffffffffffffffULL : static_cast<unsigned long long>(v);
  return static_cast<To>(u);
}

__device__ Val load(DType t, const char* p, bool al) {
  Val v{Val::sint, 0, 0, 0.0, 0.0};
  switch (t) {
    case DType::bool_:
      v.i = *reinterpret_cast<const unsigned char*>(p) != 0;
      break;
    case DType::int8:
      v.i = ld<signed char>(p, al);
      break;
    case DType::int16:
      v.i = ld<short>(p, al);
      break;
    case DType::int32:
      v.i = ld<int>(p, al);
      break;
    case DType::int64:
      v.i = ld<long long>(p, al);
      break;
    case DType::uint8:
      v.kind = Val::uint;
      v.u = ld<unsigned char>(p, al);
      break;
    case DType::uint16:
      v.kind = Val::uint;
      v.u = ld<unsigned short>(p, al);
      break;
    case DType::uint32:
      v.kind = Val::uint;
      v.u = ld<unsigned>(p, al);
      break;
    case DType::uint64:
      v.kind = Val::uint;
      v.u = ld<unsigned long long>(p, al);
      break;
    case DType::float16:
      v.kind = Val::real;
      v.re = half_to_float(ld<unsigned short>(p, al));
      break;
    case DType::float32:
      v.kind = Val::real;
      v.re = ld<float>(p, al);
      break;
    case DType::float64:
      v.kind = Val::real;
      v.re = ld<double>(p, al);
      break;
    case DType::complex64:
      v.kind = Val::cplx;
      v.re = ld<float>(p, al);
      v.im = ld<float>(p + 4, al);
      break;
    case DType::complex128:
      v.kind = Val::cplx;
      v.re = ld<double>(p, al);
      v.im = ld<double>(p + 8, al);
      break;
  }
  return v;
}

template <class To>
__device__ To to_int(const Val& v) {
  switch (v.kind) {
    case Val::sint:
      return static_cast<To>(v.i);
    case Val::uint:
      return static_cast<To>(v.u);
    default:
      return float_to_int<To>(v.re);
  }
}
template <class To>
__device__ To to_float(const Val& v) {
  switch (v.kind) {
    case Val::sint:
      return static_cast<To>(v.i);
    case Val::uint:
      return static_cast<To>(v.u);
    default:
      return static_cast<To>(v.re);
  }
}
__device__ double as_double(const Val& v) {
  switch (v.kind) {
    case Val::sint:
      return static_cast<double>(v.i);
    case Val::uint:
      return static_cast<double>(v.u);
    default:
      return v.re;
  }
}

__device__ void store(DType t, const Val& v, char* p, bool al) {
  switch (t) {
    case DType::bool_: {
      const bool b = v.kind == Val::sint   ? v.i != 0
                     : v.kind == Val::uint ? v.u != 0
                     : v.kind == Val::real ? v.re != 0
                                           : (v.re != 0 || v.im != 0);
      *reinterpret_cast<unsigned char*>(p) = b ? 1 : 0;
      break;
    }
    case DType::int8:
      st(p, to_int<signed char>(v), al);
      break;
    case DType::int16:
      st(p, to_int<short>(v), al);
      break;
    case DType::int32:
      st(p, to_int<int>(v), al);
      break;
    case DType::int64:
      st(p, to_int<long long>(v), al);
      break;
    case DType::uint8:
      st(p, to_int<unsigned char>(v), al);
      break;
    case DType::uint16:
      st(p, to_int<unsigned short>(v), al);
      break;
    case DType::uint32:
      st(p, to_int<unsigned>(v), al);
      break;
    case DType::uint64:
      st(p, to_int<unsigned long long>(v), al);
      break;
    case DType::float16:
      st(p, double_to_half(as_double(v)), al);
      break;
    case DType::float32:
      st(p, to_float<float>(v), al);
      break;
    case DType::float64:
      st(p, to_float<double>(v), al);
      break;
    case DType::complex64:
      st(p, to_float<float>(v), al);
      st(p + 4, v.kind == Val::cplx ? static_cast<float>(v.im) : 0.0f, al);
      break;
    case DType::complex128:
      st(p, to_float<double>(v), al);
      st(p + 8, v.kind == Val::cplx ? v.im : 0.0, al);
      break;
  }
}

// NA = 3: operand 2 is where='s bool mask; elements where it is 0 are left alone.
template <int NA>
struct CastParams {
  Strided<NA> it;
  DType from, to;
  int raw_bytes;  // same dtype (not bool): a plain copy of this many bytes
  bool aligned;
  bool from_value;  // the source is `value`, broadcast (a host scalar)
  alignas(16) unsigned char value[16];
};

template <int NA>
__global__ void cast_kernel(CastParams<NA> p) {
  const long long tid = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long nth = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = tid; i < p.it.n; i += nth) {
    char* ptr[NA];
    def::cu::offsets_of(p.it, i, ptr);
    if constexpr (NA == 3) {
      if (*reinterpret_cast<const unsigned char*>(ptr[2]) == 0) continue;
    }
    if (p.from_value) {
      store(p.to, load(p.from, reinterpret_cast<const char*>(p.value), true), ptr[1], p.aligned);
    } else if (p.raw_bytes > 0) {
      if (p.aligned) {
        switch (p.raw_bytes) {
          case 1:
            *ptr[1] = *ptr[0];
            break;
          case 2:
            st(ptr[1], ld<unsigned short>(ptr[0], true), true);
            break;
          case 4:
            st(ptr[1], ld<unsigned>(ptr[0], true), true);
            break;
          case 8:
            st(ptr[1], ld<unsigned long long>(ptr[0], true), true);
            break;
          default:
            st(ptr[1], ld<double2>(ptr[0], true), true);
            break;
        }
      } else {
        memcpy(ptr[1], ptr[0], p.raw_bytes);
      }
    } else {
      store(p.to, load(p.from, ptr[0], p.aligned), ptr[1], p.aligned);
    }
  }
}

std::size_t align_of(DType t) {
  switch (t) {
    case DType::complex64:
      return 4;
    case DType::complex128:
      return 8;
    default:
      return itemsize(t);
  }
}

template <int NA>
void launch(const CastCall& c, bool raw, std::int64_t fsz) {
  const StridedIter& it = c.iter;
  CastParams<NA> p;
  p.it = def::cu::make_strided<NA>(it, "cast on cuda");
  p.from = c.from;
  p.to = c.to;
  p.raw_bytes = raw ? static_cast<int>(fsz) : 0;
  p.from_value = c.from_value;
  std::memcpy(p.value, c.value, sizeof(p.value));
  const std::int64_t fa = static_cast<std::int64_t>(align_of(c.from));
  const std::int64_t ta = static_cast<std::int64_t>(align_of(c.to));
  const std::int64_t ra = raw ? (fsz == 16 ? 16 : fsz) : 1;  // raw copies load whole elements
  // A from_value cast never reads operand 0: its alignment does not matter.
  const std::int64_t sa = c.from_value ? 1 : std::max(fa, ra);
  bool al = reinterpret_cast<std::uintptr_t>(it.base[0]) % sa == 0 &&
            reinterpret_cast<std::uintptr_t>(it.base[1]) % std::max(ta, ra) == 0;
  for (std::size_t k = 0; al && k < it.shape.size(); ++k) {
    al = it.strides[0][k] % sa == 0 && it.strides[1][k] % std::max(ta, ra) == 0;
  }
  p.aligned = al;
  constexpr auto kernel = &cast_kernel<NA>;
  kernel<<<def::cu::grid_for<kernel>(it.size()), def::cu::kThreads, 0,
           static_cast<cudaStream_t>(c.stream)>>>(p);
  check(cudaGetLastError(), "cast kernel launch");
}

}  // namespace

void launch_cast(const CastCall& c) {
  const StridedIter& it = c.iter;
  const std::int64_t n = it.size();
  if (n <= 0) return;
  const auto fsz = static_cast<std::int64_t>(itemsize(c.from));
  const auto tsz = static_cast<std::int64_t>(itemsize(c.to));
  const bool raw = c.from == c.to && c.from != DType::bool_ && !c.from_value;
  if (c.masked) {
    if (it.nargs() != 3) {
      throw DeviceError("cast on cuda: a masked cast takes 3 operands (src, dst, mask), not " +
                        std::to_string(it.nargs()));
    }
    return launch<3>(c, raw, fsz);
  }
  if (raw && it.shape.size() == 1 && it.strides[0][0] == fsz && it.strides[1][0] == tsz) {
    check(cudaMemcpyAsync(it.base[1], it.base[0], static_cast<std::size_t>(n * fsz),
                          cudaMemcpyDeviceToDevice, static_cast<cudaStream_t>(c.stream)),
          "cudaMemcpyAsync (device to device)");
    return;
  }
  launch<2>(c, raw, fsz);
}

}  // namespace loom::backend::cuda_backend
