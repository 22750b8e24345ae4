// Fuzz target: loom::Layout::parse on arbitrary strings. Anything but ParseError is a bug; a parsed
// layout has consistent tables and prints to a string that parses back to the same tables.
#include <string_view>

#include "fuzz_common.hpp"
#include "loom/error.hpp"
#include "loom/layout.hpp"

namespace {

using loom::fuzz::fail;

void check_tables(const loom::Layout& l, const std::string& s) {
  const auto n = static_cast<std::size_t>(l.nargs());
  if (l.nin < 0 || l.nout < 1) fail("bad nin/nout for '" + s + "'");
  if (l.core_num_dims.size() != n || l.core_offsets.size() != n) fail("table sizes: '" + s + "'");
  if (l.dim_names.size() != l.dim_sizes.size() || l.dim_names.size() != l.dim_flexible.size())
    fail("dim_names/dim_sizes/dim_flexible differ: '" + s + "'");
  int off = 0;
  for (std::size_t a = 0; a < n; ++a) {
    if (l.core_offsets[a] != off || l.core_num_dims[a] < 0) fail("core_offsets: '" + s + "'");
    off += l.core_num_dims[a];
  }
  if (static_cast<std::size_t>(off) != l.core_dim_ixs.size())
    fail("core_dim_ixs size: '" + s + "'");
  std::vector<bool> used(l.dim_names.size(), false);
  for (int ix : l.core_dim_ixs) {
    if (ix < 0 || static_cast<std::size_t>(ix) >= l.dim_names.size()) fail("ix range: '" + s + "'");
    used[ix] = true;
  }
  for (std::size_t i = 0; i < used.size(); ++i) {
    if (!used[i]) fail("unused dim " + l.dim_names[i] + " in '" + s + "'");
    if (l.dim_names[i].empty()) fail("empty dim name in '" + s + "'");
    if (l.dim_sizes[i] < -1) fail("negative fixed size in '" + s + "'");
  }
}

bool same(const loom::Layout& a, const loom::Layout& b) {
  return a.nin == b.nin && a.nout == b.nout && a.dim_names == b.dim_names &&
         a.dim_sizes == b.dim_sizes && a.dim_flexible == b.dim_flexible &&
         a.core_num_dims == b.core_num_dims && a.core_offsets == b.core_offsets &&
         a.core_dim_ixs == b.core_dim_ixs;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string s(reinterpret_cast<const char*>(data), size);
  loom::Layout l;
  try {
    l = loom::Layout::parse(s);
  } catch (const loom::ParseError&) {
    return 0;
  }
  check_tables(l, s);
  const std::string canon = l.str();
  try {
    const loom::Layout back = loom::Layout::parse(canon);
    if (!same(back, l)) fail("'" + s + "' -> '" + canon + "' does not round-trip");
    if (back.str() != canon) fail("str() not canonical for '" + canon + "'");
  } catch (const loom::ParseError& e) {
    fail("canonical '" + canon + "' does not parse: " + e.what());
  }
  return 0;
}
