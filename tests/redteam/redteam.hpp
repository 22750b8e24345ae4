// What the red-team cases share: the message of the error a call must raise, and the same check
// in a death-test child (for cases that used to crash the process).
#pragma once
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

namespace loom::redteam {

// Runs f and returns the message of the E it throws; fails the test (and returns "") otherwise.
template <class E, class F>
std::string message_of(F f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception: " << e.what();
    return "";
  }
  ADD_FAILURE() << "no exception";
  return "";
}

// In a child: f must throw E whose message contains `want`; the child exits 0 only then and
// prints what happened otherwise (gtest shows it).
template <class E, class F>
[[noreturn]] void child_expects(F f, const std::string& want) {
  try {
    f();
    std::fprintf(stderr, "no exception\n");
    std::_Exit(2);
  } catch (const E& e) {
    if (std::string(e.what()).find(want) == std::string::npos) {
      std::fprintf(stderr, "message: %s\nwanted: %s\n", e.what(), want.c_str());
      std::_Exit(3);
    }
    std::_Exit(0);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "wrong exception: %s\n", e.what());
    std::_Exit(4);
  }
}

}  // namespace loom::redteam
