// The documented differences between loom and NumPy that the differential test accepts: each
// entry names a class of cases and the findings it excuses, with why (differences.cpp). Every
// finding outside this list fails the test.
#pragma once
#include <string>
#include <vector>

#include "compare.hpp"

namespace numpy_diff {

struct Difference {
  const char* name;
  const char* why;  // where loom documents it, or the issue that tracks it
};

// The documented difference that covers `p` in case `c` (nullptr: none, so a failure).
const Difference* excuse(const loom::Runtime& rt, const Case& c, const Outcome& o,
                         const Problem& p);

// Every entry's name, in order (a run prints those it did not meet: candidates for deletion once
// several seeds agree).
std::vector<std::string> difference_names();

}  // namespace numpy_diff
