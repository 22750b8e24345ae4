// ArrayInterface: an array as pointer, shape, strides, typestr, read-only flag and device.
#include "loom/array_interface.hpp"

#include <array>

namespace loom {

namespace {

// NumPy's type characters, by dtype (enum order).
constexpr std::array<char, kNumDTypes> kCodes = {'b', 'i', 'u', 'i', 'u', 'i', 'u',
                                                 'i', 'u', 'f', 'f', 'f', 'c', 'c'};

}  // namespace

std::string typestr(DType t) {
  const std::size_t isz = itemsize(t);
  return std::string(1, isz == 1 ? '|' : '<') + kCodes[static_cast<int>(t)] + std::to_string(isz);
}

DType dtype_from_typestr(std::string_view s) {
  const bool order_ok = !s.empty() && (s[0] == '<' || s[0] == '|' || s[0] == '=');
  if (order_ok && s.size() >= 3) {
    for (int k = 0; k < kNumDTypes; ++k) {
      const auto t = static_cast<DType>(k);
      if (typestr(t).substr(1) == s.substr(1)) return t;
    }
  }
  std::string valid;
  for (int k = 0; k < kNumDTypes; ++k) {
    valid += (k ? ", " : "") + typestr(static_cast<DType>(k));
  }
  throw ParseError(
      "unknown typestr '" + std::string(s) +
      "'; loom reads little-endian ('<', '=' or '|') typestrs of its dtypes: " + valid);
}

Shape ArrayInterface::element_strides() const {
  const auto isz = static_cast<std::int64_t>(itemsize(dtype_from_typestr(typestr)));
  const Shape bytes = strides.empty() ? c_strides(shape, static_cast<std::size_t>(isz)) : strides;
  Shape out(bytes.size(), 0);
  for (std::size_t k = 0; k < bytes.size(); ++k) {
    if (bytes[k] % isz != 0) {
      throw ValueError("byte strides " + shape_str(bytes) + " of a '" + typestr +
                       "' array of shape " + shape_str(shape) +
                       " are not multiples of its itemsize " + std::to_string(isz) +
                       "; DLPack and Eigen count strides in elements: pass a copy() of the array");
    }
    out[k] = bytes[k] / isz;
  }
  return out;
}

ArrayInterface interface_of(const Array& a) {
  if (!a.valid()) throw ValueError("interface_of() on an empty (default-constructed) Array");
  return {.data = a.data(),
          .shape = a.shape(),
          .strides = a.strides(),
          .typestr = typestr(a.dtype()),
          .readonly = !a.writeable(),
          .device = a.device()};
}

Array from_interface(const ArrayInterface& i, Buffer::Deleter deleter) {
  Array a =
      wrap(i.data, i.shape, dtype_from_typestr(i.typestr), i.strides, std::move(deleter), i.device);
  return i.readonly ? a.as_readonly() : a;
}

}  // namespace loom
