// Overlap between arrays by address, and the read-only check (docs/reliability.md, "Overlap and
// read-only arrays").
#include "loom/aliasing.hpp"

#include <cstdint>
#include <numeric>

namespace loom {

namespace {

// The absolute byte range [lo, hi) of a view's elements and the gcd of its strides (0 for one
// element); false for a zero-size view. 128-bit: a view's extent fits int64 relative to its
// first element, but an address plus it need not.
struct Reach {
  __int128 lo, hi;
  std::uint64_t gcd = 0;
  std::uint64_t itemsize = 0;
};

bool reach(const Array& x, Reach& r) {
  // Locals, stored once: updating r's 128-bit fields in place stalled on store forwarding.
  __int128 lo = static_cast<__int128>(reinterpret_cast<std::uintptr_t>(x.data())), hi = lo;
  std::uint64_t g = 0;
  const auto& shape = x.shape();
  const auto& strides = x.strides();
  for (std::size_t k = 0; k < shape.size(); ++k) {
    const std::int64_t n = shape[k];
    if (n == 0) return false;
    if (n == 1) continue;
    const std::int64_t s = strides[k];
    const __int128 span = static_cast<__int128>(n - 1) * s;
    (s < 0 ? lo : hi) += span;
    // |s| without overflow for INT64_MIN.
    g = std::gcd(g, s < 0 ? 0 - static_cast<std::uint64_t>(s) : static_cast<std::uint64_t>(s));
  }
  r.itemsize = x.itemsize();
  r.lo = lo;
  r.hi = hi + static_cast<__int128>(r.itemsize);
  r.gcd = g;
  return true;
}

}  // namespace

bool may_share_memory(const Array& a, const Array& b) {
  if (!a.valid() || !b.valid()) return false;
  Reach ra, rb;
  if (!reach(a, ra) || !reach(b, rb)) return false;
  if (ra.hi <= rb.lo || rb.hi <= ra.lo) return false;
  // Every element of a starts at a.data() + (a multiple of g), so a covers the residues
  // [0, ia) mod g counted from a.data(); b covers [d, d + ib) with d = (b.data() - a.data()) mod g.
  const std::uint64_t g = std::gcd(ra.gcd, rb.gcd);
  const std::uint64_t ia = ra.itemsize, ib = rb.itemsize;
  if (g == 0 || ia + ib > g) return true;
  const auto pa = reinterpret_cast<std::uintptr_t>(a.data());
  const auto pb = reinterpret_cast<std::uintptr_t>(b.data());
  const std::uint64_t d = pb >= pa ? (pb - pa) % g : (g - (pa - pb) % g) % g;
  return !(d >= ia && d + ib <= g);
}

bool same_elements(const Array& a, const Array& b) {
  if (a.data() != b.data() || a.dtype() != b.dtype()) return false;
  // Axes of one element do not move; compare the others pairwise.
  const auto& sa = a.shape();
  const auto& sb = b.shape();
  std::size_t i = 0, j = 0;
  for (;;) {
    while (i < sa.size() && sa[i] == 1) ++i;
    while (j < sb.size() && sb[j] == 1) ++j;
    if (i == sa.size() || j == sb.size()) return i == sa.size() && j == sb.size();
    if (sa[i] != sb[j] || a.strides()[i] != b.strides()[j] || a.strides()[i] == 0) return false;
    ++i, ++j;
  }
}

void require_writeable(const Array& a, const std::string& who, const std::string& arg) {
  if (a.writeable()) return;
  throw ValueError(who + ": " + arg + " is read-only (" + a.str() +
                   ": a broadcast view, wrapped const memory, a zero stride, or a view of one of "
                   "those), so it cannot be written (NumPy: 'output array is read-only'); write "
                   "into a writeable array, e.g. its copy()");
}

}  // namespace loom
