// Suggestions for unknown names: the closest known name by edit distance, Python's
// "Did you mean" for the op and kernel lookups.
#include "ops/suggest.hpp"

#include <algorithm>
#include <cstddef>

namespace loom::detail {

namespace {

// Levenshtein distance, one row at a time (names are short).
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

bool prefix_of(const std::string& a, const std::string& b) {
  return a.size() >= 3 && a.size() < b.size() && b.compare(0, a.size(), a) == 0;
}

}  // namespace

std::string did_you_mean(const std::string& name, const std::vector<std::string>& known) {
  std::string best;
  std::size_t best_d = 0;
  for (const auto& k : known) {
    if (k == name) continue;
    std::size_t d = edit_distance(name, k);
    if (prefix_of(name, k) || prefix_of(k, name)) d = std::min<std::size_t>(d, 1);
    if (d > 2 || 2 * d >= std::max(name.size(), k.size())) continue;
    if (best.empty() || d < best_d || (d == best_d && k < best)) best = k, best_d = d;
  }
  return best.empty() ? std::string() : "; did you mean '" + best + "'?";
}

}  // namespace loom::detail
