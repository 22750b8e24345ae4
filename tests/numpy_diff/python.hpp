// The python3 with NumPy that draws the cases: LOOM_PYTHON3 from the environment when set (a
// machine where the configured interpreter lacks NumPy, or the test binaries copied elsewhere),
// else the one found at configure time.
#pragma once
#include <cstdlib>
#include <string>

namespace loom::numpy_diff {

inline std::string python3() {
  const char* e = std::getenv("LOOM_PYTHON3");
  return e && *e ? std::string(e) : std::string(LOOM_PYTHON3);
}

}  // namespace loom::numpy_diff
