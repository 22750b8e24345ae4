// Fuzz target: loom::Signature::parse on arbitrary strings. Anything but ParseError is a bug; a
// parsed signature prints to a canonical string that parses back to the same signature.
#include <string_view>

#include "fuzz_common.hpp"
#include "loom/error.hpp"
#include "loom/signature.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view s(reinterpret_cast<const char*>(data), size);
  loom::Signature sig;
  try {
    sig = loom::Signature::parse(s);
  } catch (const loom::ParseError&) {
    return 0;
  }
  if (sig.outputs.empty()) loom::fuzz::fail("no outputs from '" + std::string(s) + "'");
  const std::string canon = sig.str();
  try {
    if (!(loom::Signature::parse(canon) == sig)) {
      loom::fuzz::fail("'" + std::string(s) + "' -> '" + canon + "' does not round-trip");
    }
    if (loom::Signature::parse(canon).str() != canon) loom::fuzz::fail("str() not canonical");
  } catch (const loom::ParseError& e) {
    loom::fuzz::fail("canonical '" + canon + "' does not parse: " + e.what());
  }
  return 0;
}
