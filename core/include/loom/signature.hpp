// Loop signatures as Numba writes them: "float32(float32,float32)"; several outputs are written
// as a parenthesised tuple: "(float32,float32)(float32,float32)" for divmod.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "loom/dtype.hpp"

namespace loom {

struct Signature {
  std::vector<DType> inputs;
  std::vector<DType> outputs;

  // Throws ParseError naming the string, the position and what was expected there.
  static Signature parse(std::string_view s);
  std::string str() const;  // canonical form, no spaces; parse(str()) == *this
  bool operator==(const Signature&) const = default;
};

}  // namespace loom
