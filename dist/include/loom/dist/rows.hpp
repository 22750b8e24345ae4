// The block split of a distributed array's axis 0: which global rows each rank owns.
#pragma once
#include <cstdint>

namespace loom::dist {

// Global rows [begin, end) of one rank.
struct Rows {
  std::int64_t begin = 0, end = 0;
  std::int64_t size() const { return end - begin; }
  bool operator==(const Rows&) const = default;
};

// n rows over p ranks: every rank gets n / p rows and the first n % p ranks one more, in rank
// order (rank 0 owns the first rows). With n < p the last p - n ranks own no rows.
inline Rows block_rows(std::int64_t n, int p, int rank) {
  const std::int64_t q = n / p, r = n % p;
  const std::int64_t begin = rank * q + (rank < r ? rank : r);
  return {begin, begin + q + (rank < r ? 1 : 0)};
}

// The rank owning global row i (0 <= i < n).
inline int owner_of_row(std::int64_t i, std::int64_t n, int p) {
  const std::int64_t q = n / p, r = n % p;
  if (i < r * (q + 1)) return static_cast<int>(i / (q + 1));
  return static_cast<int>(r + (i - r * (q + 1)) / q);
}

}  // namespace loom::dist
