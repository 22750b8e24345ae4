// Overlap between arrays by address, and the read-only check (docs/reliability.md, "Overlap and
// read-only arrays").
#include "loom/aliasing.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

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

bool clearly_distinct(const Array& a) {
  const auto& shape = a.shape();
  const auto& strides = a.strides();
  std::vector<std::pair<std::uint64_t, std::int64_t>> axes;  // |stride|, length
  for (std::size_t k = 0; k < shape.size(); ++k) {
    if (shape[k] == 0) return true;
    if (shape[k] == 1) continue;
    const std::int64_t s = strides[k];
    axes.emplace_back(s < 0 ? 0 - static_cast<std::uint64_t>(s) : static_cast<std::uint64_t>(s),
                      shape[k]);
  }
  std::sort(axes.begin(), axes.end());
  unsigned __int128 reach = a.itemsize();  // bytes from an element's start that the axes so far
  for (const auto& [stride, n] : axes) {   // (and the element itself) cover
    if (stride < reach) return false;
    reach += static_cast<unsigned __int128>(stride) * static_cast<std::uint64_t>(n - 1);
  }
  return true;
}

namespace {

std::string index_of(std::int64_t flat, const Shape& shape) {
  Shape ix(shape.size());
  for (int k = static_cast<int>(shape.size()) - 1; k >= 0; --k) {
    ix[k] = flat % shape[k];
    flat /= shape[k];
  }
  return shape_str(ix);
}

}  // namespace

void require_no_self_overlap(const Array& a, const std::string& who, const std::string& arg) {
  if (!a.valid() || a.is_c_contiguous() || clearly_distinct(a)) return;
  const std::string what = " (" + a.str() + ", strides " + shape_str(a.strides()) + ")";
  const std::string instead =
      "; write into an array of its own, e.g. a copy(), and copy the result back";
  constexpr std::int64_t kMaxChecked = std::int64_t{1} << 24;
  if (a.size() > kMaxChecked) {
    throw ValueError(who + ": " + arg + " may overlap itself" + what +
                     ", and loom checks the elements of views of up to 2^24 elements only" +
                     instead);
  }
  // Byte offsets of every element (C order), sorted: neighbours closer than an item overlap.
  const Shape& shape = a.shape();
  std::vector<std::pair<std::int64_t, std::int64_t>> at;  // offset, flat index
  at.reserve(static_cast<std::size_t>(a.size()));
  Shape ix(shape.size(), 0);
  std::int64_t off = 0;
  for (std::int64_t i = 0; i < a.size(); ++i) {
    at.emplace_back(off, i);
    for (int k = static_cast<int>(shape.size()) - 1; k >= 0; --k) {  // odometer
      off += a.strides()[k];
      if (++ix[k] < shape[k]) break;
      off -= a.strides()[k] * shape[k];
      ix[k] = 0;
    }
  }
  std::sort(at.begin(), at.end());
  const auto isz = static_cast<std::int64_t>(a.itemsize());
  for (std::size_t i = 1; i < at.size(); ++i) {
    if (at[i].first - at[i - 1].first >= isz) continue;
    const std::int64_t x = std::min(at[i].second, at[i - 1].second),
                       y = std::max(at[i].second, at[i - 1].second);
    throw ValueError(who + ": " + arg + " overlaps itself: elements " + index_of(x, shape) +
                     " and " + index_of(y, shape) + " share memory" + what +
                     ", so what it holds would depend on the order of the writes" + instead);
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
