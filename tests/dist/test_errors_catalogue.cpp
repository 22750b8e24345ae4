// The MPI half of the bad-input catalogue (docs/errors.md, entries with `needs: mpi`): for each,
// every rank runs the trigger registered here under the entry's id, every rank must raise a
// loom::Error (none may hang or pass), and rank 0's must have the documented class and match the
// entry's regex. An mpi entry without a trigger, or a trigger without an entry, fails.
// LOOM_CATALOGUE_DUMP=1 prints rank 0's class and message for every trigger.
#include <cstdlib>
#include <functional>
#include <iostream>
#include <map>

#include "catalogue_doc.hpp"
#include "dist_test_util.hpp"

namespace loom::dist {
namespace {

using catalogue_doc::Entry;
using test::rt;
using test::world;

struct Skip {
  std::string reason;
};
void need_ranks() {
  if (world().size() < 2) throw Skip{"needs two ranks"};
}

DistArray rows_f64(std::int64_t n, std::int64_t m = 0) {
  return scatter(rt(), world(), test::global_f64(n, m));
}

const std::map<std::string, std::function<void()>>& triggers() {
  static const std::map<std::string, std::function<void()>> t = {
      {"E-DIST-CALL-MISMATCH",
       [] {
         need_ranks();
         const DistArray a = rows_f64(10), b = rows_f64(11);
         Ufunc(rt(), "sqrt")(world().rank() == 1 ? b : a);
       }},
      {"E-DIST-ROWS-MISMATCH", [] { Ufunc(rt(), "add")(rows_f64(10), rows_f64(12)); }},
      {"E-DIST-REPLICATED-SPANS-ROWS",
       [] { Ufunc(rt(), "add")(rows_f64(6, 2), test::global_f64(6, 2)); }},
      {"E-DIST-CORE-DIMS-ON-ROWS", [] { Ufunc(rt(), "sum_row")(rows_f64(8, 3)); }},
      {"E-DIST-COMMS",
       [] {
         const Comm other(MPI_COMM_WORLD);
         Ufunc(rt(), "add")(rows_f64(4), scatter(rt(), other, test::global_f64(4)));
       }},
      {"E-DIST-TARGETS",
       [] {
         if (test::parallel_or_cpu() != "parallel") throw Skip{"needs the parallel target"};
         const DistArray p = scatter(rt(), world(), test::global_f64(4), {.target = "parallel"});
         Ufunc(rt(), "add")(rows_f64(4), p);
       }},
      {"E-DIST-OUT-ROWS",
       [] {
         Ufunc(rt(), "sqrt")(rows_f64(10), {.out = {zeros(rt(), world(), {12}, DType::float64)}});
       }},
      {"E-DIST-FROM-LOCAL-ROWS",
       [] {
         need_ranks();
         from_local(rt(), world(), loom::zeros({world().rank() == 0 ? 3 : 1, 2}));
       }},
      {"E-DIST-FROM-LOCAL-SHAPES",
       [] {
         need_ranks();
         from_local(rt(), world(), loom::zeros({2, world().rank() == 1 ? 4 : 3}));
       }},
      {"E-DIST-NO-AXIS-0", [] { zeros(rt(), world(), {}, DType::float64); }},
      {"E-DIST-HALO-WIDTH",
       [] {
         need_ranks();
         exchange_halo(rt(), rows_f64(2 * world().size() + 1), 3);
       }},
      {"E-DIST-HALO-NEGATIVE", [] { exchange_halo(rt(), rows_f64(8), -1); }},
      {"E-DIST-REMOTE",
       [] {
         need_ranks();
         scatter(rt(), world(), test::global_f64(5),
                 {.target = world().rank() == 1 ? "warp9" : "cpu"});
       }},
      {"E-DIST-NOT-REORDERABLE", [] { Reduce::method(rt(), "subtract")(rows_f64(8)); }},
      {"E-DIST-COMBINE-COLLECTIVE",
       [] { Reduce(rt(), "sum")(rows_f64(8), {.combine = Combine::collective}); }},
      {"E-DIST-REDUCE-NEEDS-LOCAL", [] { Reduce(rt(), "sum")(rows_f64(8, 2), {.axis = 1}); }},
      {"E-DIST-LOCAL-NEEDS-REDUCE", [] { Reduce(rt(), "sum").local(rows_f64(8, 2), {.axis = 0}); }},
      {"E-DIST-REDUCE-AXIS", [] { Reduce(rt(), "sum")(rows_f64(8, 2), {.axis = 2}); }},
      {"E-DIST-ROOT", [] { gather(rt(), rows_f64(4), world().size()); }},
      {"E-DIST-NO-DISTRIBUTED-OPERAND", [] { Ufunc(rt(), "sqrt")(loom::arange(3)); }},
      {"E-DIST-NOUT", [] { Ufunc(rt(), "divmod")(rows_f64(4), 2); }},
      {"E-DIST-NIN", [] { Ufunc(rt(), "add").call({rows_f64(4)}); }},
      {"E-DIST-EMPTY", [] { (void)DistArray().shape(); }},
      {"E-DIST-RANDOM-OUT",
       [] {
         loom::random::Generator g(1);
         random::uniform(rt(), world(), g, {4}, DType::float32,
                         {.out = zeros(rt(), world(), {4}, DType::float64)});
       }},
      {"E-DIST-ROWS-OF", [] { (void)rows_f64(4).rows_of(-1); }},
      {"E-DIST-TIMEOUT-VALUE", [] { set_timeout(-1); }},
      {"E-DIST-NO-MPI",
       [] { throw Skip{"needs a process that has not initialized MPI; these tests have"}; }},
      {"E-DIST-COUNT", [] { throw Skip{"needs a row of over 2 GiB"}; }},
      {"E-DIST-MPI-CALL", [] { throw Skip{"needs an MPI call that fails"}; }},
  };
  return t;
}

std::string class_of(const Error& e) {
  if (dynamic_cast<const DistributionError*>(&e)) return "DistributionError";  // before its base
  if (dynamic_cast<const RemoteError*>(&e)) return "RemoteError";
  if (dynamic_cast<const CommError*>(&e)) return "CommError";
  if (dynamic_cast<const ShapeError*>(&e)) return "ShapeError";
  if (dynamic_cast<const ValueError*>(&e)) return "ValueError";
  if (dynamic_cast<const TypeError*>(&e)) return "TypeError";
  if (dynamic_cast<const TargetError*>(&e)) return "TargetError";
  return "Error";
}

const std::vector<Entry>& mpi_entries() {
  static const std::vector<Entry> e = [] {
    std::vector<Entry> out;
    for (auto& x : catalogue_doc::parse(LOOM_ERRORS_MD)) {
      if (x.get("needs") == "mpi") out.push_back(x);
    }
    return out;
  }();
  return e;
}

class DistCatalogue : public ::testing::TestWithParam<Entry> {};

TEST_P(DistCatalogue, EveryRankRaisesAndRank0RaisesTheDocumentedError) {
  const Entry& e = GetParam();
  const auto it = triggers().find(e.id);
  ASSERT_NE(it, triggers().end()) << e.id << " has no trigger in " << __FILE__;
  const std::regex re(e.get("match"));
  EXPECT_TRUE(std::regex_search(e.get("example"), re)) << e.id << ": the example does not match";
  try {
    it->second();
    ADD_FAILURE() << e.id << ": rank " << world().rank() << " raised nothing";
  } catch (const Skip& s) {
    GTEST_SKIP() << s.reason;
  } catch (const Error& err) {
    if (world().rank() == 0) {
      EXPECT_EQ(class_of(err), e.get("class")) << e.id << ": " << err.what();
      EXPECT_TRUE(std::regex_search(std::string(err.what()), re))
          << e.id << ": message does not match\n  message: " << err.what()
          << "\n  match:   " << e.get("match");
    }
  }
  set_timeout(60);  // E-DIST-TIMEOUT-VALUE's refused value left it as it was; keep it short
}

INSTANTIATE_TEST_SUITE_P(Errors, DistCatalogue, ::testing::ValuesIn(mpi_entries()),
                         [](const auto& info) {
                           std::string n = info.param.id;
                           for (char& c : n)
                             c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return n;
                         });

TEST(DistCatalogueDocument, Dump) {
  if (!std::getenv("LOOM_CATALOGUE_DUMP")) GTEST_SKIP() << "LOOM_CATALOGUE_DUMP=1 prints them";
  for (const auto& [id, trig] : triggers()) {
    try {
      trig();
      if (world().rank() == 0) std::cout << id << "\t-\t(no error)\n";
    } catch (const Skip& s) {
      if (world().rank() == 0) std::cout << id << "\tSKIP\t" << s.reason << "\n";
    } catch (const Error& err) {
      if (world().rank() == 0)
        std::cout << id << "\t" << class_of(err) << "\t" << err.what() << "\n";
    }
  }
  set_timeout(60);
}

TEST(DistCatalogueDocument, EveryTriggerHasAnMpiEntry) {
  EXPECT_FALSE(mpi_entries().empty()) << "no `needs: mpi` entries in " << LOOM_ERRORS_MD;
  std::set<std::string> ids;
  for (const auto& e : mpi_entries()) ids.insert(e.id);
  for (const auto& [id, t] : triggers()) {
    EXPECT_TRUE(ids.count(id)) << "trigger " << id << " has no `needs: mpi` entry";
  }
}

}  // namespace
}  // namespace loom::dist
