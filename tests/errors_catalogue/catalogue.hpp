// What the catalogue test (test_errors_catalogue.cpp) and its triggers (triggers.cpp) share.
#pragma once
#include <functional>
#include <map>
#include <string>

namespace loom {

// Thrown by a trigger that cannot run here (needs a GPU, or only a broken loom reaches it).
struct Skip {
  std::string reason;
};

using Trigger = std::function<void()>;

// Every trigger, by catalogue id.
const std::map<std::string, Trigger>& triggers();

}  // namespace loom
