// "Did you mean ...?" for lookups of unknown names (ops, kernels). Internal to the core.
#pragma once
#include <string>
#include <vector>

namespace loom::detail {

// "; did you mean 'x'?" naming the known name closest to `name` when one is close enough (an
// edit distance of at most 2, and under half of the name; or one name a prefix of the other, as
// 'jacobi' and 'jacobi_step'), else "". Ties go to the alphabetically first.
std::string did_you_mean(const std::string& name, const std::vector<std::string>& known);

}  // namespace loom::detail
