// Element types: NumPy's dtypes with their names, sizes, safe-casting table and promotion, plus
// the mapping from C++ types (dtype_v<float> == DType::float32) used by the compile-time op tables.
#pragma once
#include <complex>
#include <cstdint>
#include <string>
#include <string_view>

#include "loom/float16.hpp"

namespace loom {

// Order matters: it is the order promotion searches (NumPy's "kind, then size").
enum class DType : std::uint8_t {
  bool_,
  int8,
  uint8,
  int16,
  uint16,
  int32,
  uint32,
  int64,
  uint64,
  float16,
  float32,
  float64,
  complex64,
  complex128,
};
inline constexpr int kNumDTypes = 14;

enum class Kind : std::uint8_t { boolean, signed_int, unsigned_int, floating, complex };

// NumPy's casting levels, from strictest to loosest.
enum class Casting : std::uint8_t { no, equiv, safe, same_kind, unsafe };

std::size_t itemsize(DType t);
Kind kind(DType t);
std::string_view name(DType t);             // "float32"
DType dtype_from_name(std::string_view s);  // throws ParseError listing the valid names
std::string_view name(Casting c);           // "same_kind"
Casting casting_from_name(std::string_view s);

// NumPy's np.can_cast(from, to, casting).
bool can_cast(DType from, DType to, Casting casting = Casting::safe);
// np.result_type of two arrays: the first dtype (in enum order) both cast to safely.
DType promote(DType a, DType b);

// Converts n elements with byte strides; every pair of dtypes is supported (unsafe casting,
// as NumPy's astype: float->int truncates, complex->real drops the imaginary part).
void cast_strided(const char* src, std::int64_t src_stride, DType from, char* dst,
                  std::int64_t dst_stride, DType to, std::int64_t n);

template <class T>
struct dtype_of;  // undefined for types loom has no dtype for
#define LOOM_DTYPE_OF(T, D)                  \
  template <>                                \
  struct dtype_of<T> {                       \
    static constexpr DType value = DType::D; \
  };
LOOM_DTYPE_OF(bool, bool_)
LOOM_DTYPE_OF(std::int8_t, int8)
LOOM_DTYPE_OF(std::uint8_t, uint8)
LOOM_DTYPE_OF(std::int16_t, int16)
LOOM_DTYPE_OF(std::uint16_t, uint16)
LOOM_DTYPE_OF(std::int32_t, int32)
LOOM_DTYPE_OF(std::uint32_t, uint32)
LOOM_DTYPE_OF(std::int64_t, int64)
LOOM_DTYPE_OF(std::uint64_t, uint64)
LOOM_DTYPE_OF(float16_t, float16)
LOOM_DTYPE_OF(float, float32)
LOOM_DTYPE_OF(double, float64)
LOOM_DTYPE_OF(std::complex<float>, complex64)
LOOM_DTYPE_OF(std::complex<double>, complex128)
#undef LOOM_DTYPE_OF
template <class T>
inline constexpr DType dtype_v = dtype_of<T>::value;

// Calls f(T{}) with the C++ type of a runtime dtype: the one place a dtype switch lives.
template <class F>
decltype(auto) visit_dtype(DType t, F&& f) {
  switch (t) {
    case DType::bool_:
      return f(bool{});
    case DType::int8:
      return f(std::int8_t{});
    case DType::uint8:
      return f(std::uint8_t{});
    case DType::int16:
      return f(std::int16_t{});
    case DType::uint16:
      return f(std::uint16_t{});
    case DType::int32:
      return f(std::int32_t{});
    case DType::uint32:
      return f(std::uint32_t{});
    case DType::int64:
      return f(std::int64_t{});
    case DType::uint64:
      return f(std::uint64_t{});
    case DType::float16:
      return f(float16_t{});
    case DType::float32:
      return f(float{});
    case DType::float64:
      return f(double{});
    case DType::complex64:
      return f(std::complex<float>{});
    case DType::complex128:
      return f(std::complex<double>{});
  }
  return f(bool{});
}

}  // namespace loom
