// The runtime of the core tests that call ops on the host targets: this build's backends and
// math plugin (LOOM_TEST_SERIAL_DIR) and the test plugins (LOOM_TEST_GOOD_DIR), no default search
// path; one per test binary, shared by the files that include this (none changes its state).
#pragma once
#include <string>
#include <vector>

#include "loom/runtime.hpp"

namespace loom::test {

inline Runtime& rt() {
  static Runtime r(RuntimeOptions{.plugin_path = {LOOM_TEST_SERIAL_DIR, LOOM_TEST_GOOD_DIR},
                                  .use_default_path = false});
  return r;
}

// "cpu", and "parallel" where its backend is available.
inline std::vector<std::string> host_targets() {
  std::vector<std::string> out;
  for (const auto& t : rt().targets()) {
    if ((t.target == "cpu" || t.target == "parallel") && t.available) out.push_back(t.target);
  }
  return out;
}

}  // namespace loom::test
