// An array as a plain description (pointer, shape, strides, NumPy typestr, read-only flag,
// device): the C++ side of NumPy's __array_interface__ and __cuda_array_interface__, both ways.
#pragma once
#include <string>
#include <string_view>

#include "loom/array.hpp"

namespace loom {

struct ArrayInterface {
  void* data = nullptr;  // element 0 (host or device address)
  Shape shape{};
  Shape strides{};        // in bytes; empty means C-contiguous (as the interfaces' strides=None)
  std::string typestr{};  // NumPy's: "<f4", "|b1", "<c16"
  bool readonly = false;
  Device device{};

  // The strides in elements, as DLPack and Eigen count them; ValueError where a byte stride is
  // not a multiple of the itemsize.
  Shape element_strides() const;
};

// Describes an array; the description is valid while the array (or a view of its buffer) lives.
ArrayInterface interface_of(const Array& a);

// Wraps memory another library describes, without copying; loom calls deleter(data) when the last
// view goes (none: loom never frees it). The checks of wrap() apply (device, null pointer, extent).
Array from_interface(const ArrayInterface& i, Buffer::Deleter deleter = {});

// NumPy typestr of a dtype ("<f4"; "|" where byte order does not apply), and back: "<", "=" and
// "|" are accepted; ">" (big-endian) and unknown codes are a ParseError naming the string.
std::string typestr(DType t);
DType dtype_from_typestr(std::string_view s);

}  // namespace loom
