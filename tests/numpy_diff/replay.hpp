// Replays one case through loom's public API (rt.ufunc(op)(...), its methods, rt.reduce(op)) on
// one target, keeping what the checks need: the result or the refusal, and the arrays the call
// was given (to see what it wrote, and that a refusal wrote nothing).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "case.hpp"

namespace numpy_diff {

struct Outcome {
  bool refused = false;     // a loom::Error
  bool foreign = false;     // some other exception: always a failure
  std::string message;      // its what()
  std::string error_class;  // loom's subclass, for the report
  loom::Array result;       // valid unless refused (at returns nothing)
  std::vector<Built> args;  // in the order of Case::args
  std::optional<Built> indices, out, where;
  // Every base's bytes before the call, in the order args, indices, out, where.
  std::vector<std::vector<char>> before;
};

// device: the operands go to the target's memory first (rt.to_device of each view) and come
// back into the host views afterwards, so that the checks read what the device arrays hold.
Outcome replay(const loom::Runtime& rt, const Case& c, const std::string& target,
               bool device = false);

// The bytes of an array's whole base buffer (host).
std::vector<char> bytes_of(const loom::Array& base);

}  // namespace numpy_diff
