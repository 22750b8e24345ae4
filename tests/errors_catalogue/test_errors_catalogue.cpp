// The bad-input catalogue (issue 6): parses docs/errors.md and, for every entry, runs the trigger
// registered in triggers*.cpp under the entry's id, checking the exception's class and that its
// message matches the entry's `match` regex. An entry without a trigger, or a trigger without an
// entry, fails, so the document stays true. Entries needing a GPU (or only reachable when loom
// itself is broken) skip with the reason.
//
// LOOM_CATALOGUE_DUMP=1 prints "id <TAB> class <TAB> message" for every trigger (to write
// examples).
#include <gtest/gtest.h>

#include <complex>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "catalogue.hpp"
#include "catalogue_doc.hpp"
#include "loom/def/gufunc.hpp"
#include "loom/def/ufunc.hpp"
#include "loom/error.hpp"
#include "loom/layout.hpp"
#include "loom/linalg.hpp"
#include "loom/plugin.hpp"
#include "loom/runtime.hpp"
#include "loom/signature.hpp"
#include "loom/strided.hpp"
#include "loom/type_resolution.hpp"

namespace loom {
namespace {

// ---------------------------------------------------------------------------------------------
// The document.

using catalogue_doc::Entry;

std::vector<Entry> parse_catalogue() { return catalogue_doc::parse(LOOM_ERRORS_MD); }

const std::vector<Entry>& catalogue() {
  static const std::vector<Entry> c = parse_catalogue();
  return c;
}

// ---------------------------------------------------------------------------------------------

std::string class_of(const Error& e) {
  if (dynamic_cast<const ParseError*>(&e)) return "ParseError";
  if (dynamic_cast<const TypeError*>(&e)) return "TypeError";
  if (dynamic_cast<const ShapeError*>(&e)) return "ShapeError";
  if (dynamic_cast<const LinAlgError*>(&e)) return "LinAlgError";  // before its base
  if (dynamic_cast<const ValueError*>(&e)) return "ValueError";
  if (dynamic_cast<const TargetError*>(&e)) return "TargetError";
  if (dynamic_cast<const LookupError*>(&e)) return "LookupError";
  if (dynamic_cast<const PluginError*>(&e)) return "PluginError";
  if (dynamic_cast<const TransferError*>(&e)) return "TransferError";  // before its base
  if (dynamic_cast<const DeviceError*>(&e)) return "DeviceError";
  if (dynamic_cast<const LaunchError*>(&e)) return "LaunchError";
  if (dynamic_cast<const KernelError*>(&e)) return "KernelError";
  if (dynamic_cast<const IndexError*>(&e)) return "IndexError";
  return "Error";
}

int g_tested = 0, g_skipped = 0;

class CatalogueReport : public ::testing::Environment {
 public:
  void SetUp() override {
    if (!std::getenv("LOOM_CATALOGUE_DUMP")) return;
    for (const auto& [id, trig] : triggers()) {
      try {
        trig();
        std::cout << id << "\t-\t(no error)\n";
      } catch (const Skip& s) {
        std::cout << id << "\tSKIP\t" << s.reason << "\n";
      } catch (const Error& e) {
        std::cout << id << "\t" << class_of(e) << "\t" << e.what() << "\n";
      }
    }
  }
  void TearDown() override {
    std::cout << "[ catalogue ] " << catalogue().size() << " entries in " << LOOM_ERRORS_MD << ": "
              << g_tested << " tested, " << g_skipped << " skipped (this run)\n";
  }
};
const auto* const kReport = ::testing::AddGlobalTestEnvironment(new CatalogueReport);

class Catalogue : public ::testing::TestWithParam<Entry> {};

TEST_P(Catalogue, TriggerRaisesTheDocumentedError) {
  const Entry& e = GetParam();
  if (e.get("needs") == "mpi") {
    GTEST_SKIP() << "needs several MPI ranks: walked by tests/dist (dist.np2, dist.np4)";
  }
  const auto it = triggers().find(e.id);
  ASSERT_NE(it, triggers().end()) << e.id << " has no trigger in triggers*.cpp";
  const std::string cls = e.get("class"), match = e.get("match");
  ASSERT_FALSE(cls.empty()) << e.id << ": no class field";
  ASSERT_FALSE(match.empty()) << e.id << ": no match field";
  const std::regex re(match, std::regex::ECMAScript);
  EXPECT_TRUE(std::regex_search(e.get("example"), re))
      << e.id
      << ": the documented example does not match its own regex\n  example: " << e.get("example")
      << "\n  match: " << match;
  try {
    it->second();
    ADD_FAILURE() << e.id << ": the trigger raised nothing";
  } catch (const Skip& s) {
    ++g_skipped;
    GTEST_SKIP() << s.reason;
  } catch (const Error& err) {
    ++g_tested;
    EXPECT_EQ(class_of(err), cls) << e.id << ": " << err.what();
    EXPECT_TRUE(std::regex_search(std::string(err.what()), re))
        << e.id << ": message does not match\n  message: " << err.what()
        << "\n  match:   " << match;
  } catch (const std::exception& x) {
    ++g_tested;
    ADD_FAILURE() << e.id << ": not a loom::Error: " << x.what();
  }
}

INSTANTIATE_TEST_SUITE_P(Errors, Catalogue, ::testing::ValuesIn(catalogue()), [](const auto& info) {
  std::string n = info.param.id;
  for (char& c : n) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return n;
});

TEST(CatalogueDocument, EntriesAreWellFormedAndUnique) {
  ASSERT_FALSE(catalogue().empty()) << "no entries parsed from " << LOOM_ERRORS_MD;
  const auto& classes = catalogue_doc::classes();
  const auto& needs = catalogue_doc::needs();
  std::set<std::string> seen;
  for (const auto& e : catalogue()) {
    EXPECT_TRUE(seen.insert(e.id).second) << "duplicate id " << e.id;
    EXPECT_TRUE(classes.count(e.get("class"))) << e.id << ": class '" << e.get("class") << "'";
    EXPECT_TRUE(needs.count(e.get("needs"))) << e.id << ": needs '" << e.get("needs") << "'";
    for (const char* k : {"thrown at", "trigger", "example", "match"}) {
      EXPECT_FALSE(e.get(k).empty()) << e.id << ": no '" << k << "' field";
    }
  }
}

TEST(CatalogueDocument, EveryTriggerHasAnEntry) {
  std::set<std::string> ids;
  for (const auto& e : catalogue()) ids.insert(e.id);
  for (const auto& [id, t] : triggers()) {
    EXPECT_TRUE(ids.count(id)) << "trigger " << id << " has no entry in " << LOOM_ERRORS_MD;
  }
}

TEST(CatalogueDocument, EveryEntryHasATrigger) {
  for (const auto& e : catalogue()) {
    if (e.get("needs") == "mpi") continue;  // tests/dist/test_errors_catalogue.cpp has those
    EXPECT_TRUE(triggers().count(e.id)) << e.id << " has no trigger in triggers*.cpp";
  }
}

}  // namespace
}  // namespace loom
