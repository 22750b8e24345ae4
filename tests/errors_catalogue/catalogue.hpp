// What the catalogue test (test_errors_catalogue.cpp) and its triggers (triggers.cpp) share.
#pragma once
#include <functional>
#include <initializer_list>
#include <map>
#include <string>

namespace loom {

// Thrown by a trigger that cannot run here (needs a GPU, or only a broken loom reaches it).
struct Skip {
  std::string reason;
};

using Trigger = std::function<void()>;

// Every trigger, by catalogue id: the union of every TriggerSet (triggers*.cpp).
const std::map<std::string, Trigger>& triggers();

// A file of triggers registers its own with a static TriggerSet, so that separate topics keep
// separate files. A duplicate id aborts at start-up with the id.
struct TriggerSet {
  TriggerSet(std::initializer_list<std::pair<const std::string, Trigger>> entries);
};

}  // namespace loom
