// docs/errors.md as data: its entries and their fields. Shared by the catalogue test
// (test_errors_catalogue.cpp) and the MPI half of it (tests/dist/test_errors_catalogue.cpp), which
// walks the entries marked `needs: mpi` under mpirun.
#pragma once
#include <fstream>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace loom::catalogue_doc {

struct Entry {
  std::string id;
  std::map<std::string, std::string> f;  // class, needs, trigger, example, match, thrown at
  std::string get(const std::string& k) const {
    auto it = f.find(k);
    return it == f.end() ? std::string() : it->second;
  }
};

inline void PrintTo(const Entry& e, std::ostream* os) { *os << e.id; }  // test names in ctest

inline std::string strip_ticks(std::string v) {
  while (!v.empty() && v.back() == ' ') v.pop_back();
  if (v.size() >= 2 && v.front() == '`' && v.back() == '`') v = v.substr(1, v.size() - 2);
  return v;
}

// "### E-ID" starts an entry; "- key: value" lines give its fields (a value in `backticks` is
// taken verbatim between them). Anything else is prose.
inline std::vector<Entry> parse(const std::string& path) {
  std::ifstream in(path);
  std::vector<Entry> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("### ", 0) == 0) {
      std::string id = line.substr(4);
      while (!id.empty() && id.back() == ' ') id.pop_back();
      out.push_back(Entry{id, {}});
      continue;
    }
    if (out.empty() || line.rfind("- ", 0) != 0) continue;
    const auto colon = line.find(": ");
    if (colon == std::string::npos) continue;
    out.back().f[line.substr(2, colon - 2)] = strip_ticks(line.substr(colon + 2));
  }
  return out;
}

// The classes an entry may name: loom's (loom/error.hpp, LinAlgError) and loom::dist's.
inline const std::set<std::string>& classes() {
  static const std::set<std::string> c = {
      "ParseError",  "TypeError",         "ShapeError",  "ValueError",
      "TargetError", "LookupError",       "PluginError", "DeviceError",
      "LaunchError", "KernelError",       "IndexError",  "TransferError",
      "LinAlgError", "DistributionError", "RemoteError", "CommError"};
  return c;
}

// none: tested everywhere; gpu: where cuda is available; internal: documented, skipped; mpi:
// walked by tests/dist under mpirun (loom_dist built), skipped by the single-process test.
inline const std::set<std::string>& needs() {
  static const std::set<std::string> n = {"none", "gpu", "internal", "mpi"};
  return n;
}

}  // namespace loom::catalogue_doc
