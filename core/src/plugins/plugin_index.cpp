// Reading, writing and comparing plugin indexes (plugin_index.hpp).
#include "plugins/plugin_index.hpp"

#include <algorithm>
#include <sstream>

namespace loom {

namespace {

std::optional<OpKind> kind_named(const std::string& s) {
  for (OpKind k : {OpKind::ufunc, OpKind::gufunc, OpKind::reduce}) {
    if (s == name(k)) return k;
  }
  return std::nullopt;
}

void sort_index(PluginIndex& x) {
  std::sort(x.ops.begin(), x.ops.end(),
            [](const auto& a, const auto& b) { return a.name < b.name; });
  std::sort(x.kernels.begin(), x.kernels.end());
}

// Up to four of `items`, then how many more.
std::string some(const std::vector<std::string>& items) {
  std::string s;
  for (std::size_t i = 0; i < items.size() && i < 4; ++i) s += (i ? ", " : "") + items[i];
  if (items.size() > 4) s += " and " + std::to_string(items.size() - 4) + " more";
  return s;
}

}  // namespace

std::string index_path_for(const std::string& library) { return library + ".index"; }

std::string format_plugin_index(const PluginIndex& index) {
  PluginIndex x = index;
  sort_index(x);
  std::string s = "loom-plugin-index " + std::to_string(kPluginIndexFormat) + " abi " +
                  std::to_string(x.abi_version) + "\n";
  s += "name " + x.name + "\n";
  s += std::string("family ") + name(x.family) + "\n";
  s += "backend " + (x.backend.empty() ? std::string("-") : x.backend) + "\n";
  s += "collectives " + (x.collectives.empty() ? std::string("-") : x.collectives) + "\n";
  for (const auto& o : x.ops) s += std::string("op ") + name(o.kind) + " " + o.name + "\n";
  for (const auto& k : x.kernels) s += "kernel " + k + "\n";
  return s;
}

std::optional<PluginIndex> parse_plugin_index(const std::string& text, std::string& why) {
  std::istringstream in(text);
  std::string line;
  PluginIndex x;
  if (!std::getline(in, line)) {
    why = "it is empty";
    return std::nullopt;
  }
  {
    std::istringstream h(line);
    std::string magic, abi_word;
    int format = 0;
    long long abi = -1;
    if (!(h >> magic >> format >> abi_word >> abi) || magic != "loom-plugin-index" ||
        abi_word != "abi" || abi < 0) {
      why = "its first line is not 'loom-plugin-index <format> abi <version>'";
      return std::nullopt;
    }
    if (format != kPluginIndexFormat) {
      why = "it has index format " + std::to_string(format) + ", this loom reads format " +
            std::to_string(kPluginIndexFormat);
      return std::nullopt;
    }
    x.abi_version = static_cast<std::uint32_t>(abi);
  }
  bool seen_name = false, seen_family = false, seen_backend = false, seen_coll = false;
  int n = 1;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty()) continue;
    std::istringstream l(line);
    std::string key, a, b, extra;
    l >> key >> a >> b >> extra;
    auto bad = [&] {
      why = "line " + std::to_string(n) + " ('" + line.substr(0, 60) + "') is not an index line";
      return std::nullopt;
    };
    if (key == "name" && !a.empty() && b.empty()) {
      x.name = a;
      seen_name = true;
    } else if (key == "family" && b.empty() && (a == "host" || a == "cuda")) {
      x.family = a == "host" ? Family::host : Family::cuda;
      seen_family = true;
    } else if (key == "backend" && !a.empty() && b.empty()) {
      x.backend = a == "-" ? "" : a;
      seen_backend = true;
    } else if (key == "collectives" && !a.empty() && b.empty()) {
      x.collectives = a == "-" ? "" : a;
      seen_coll = true;
    } else if (key == "op" && !b.empty() && extra.empty() && kind_named(a)) {
      x.ops.push_back({b, *kind_named(a)});
    } else if (key == "kernel" && !a.empty() && b.empty()) {
      x.kernels.push_back(a);
    } else {
      return bad();
    }
  }
  if (!seen_name || !seen_family || !seen_backend || !seen_coll) {
    why = "it lacks one of the lines name, family, backend and collectives";
    return std::nullopt;
  }
  sort_index(x);
  return x;
}

std::string plugin_index_difference(const PluginIndex& listed, const PluginIndex& actual) {
  PluginIndex l = listed, a = actual;
  sort_index(l);
  sort_index(a);
  std::vector<std::string> only_listed, only_actual;
  auto field = [&](const std::string& what, const std::string& x, const std::string& y) {
    if (x != y) {
      only_listed.push_back(what + " " + (x.empty() ? "none" : x));
      only_actual.push_back(what + " " + (y.empty() ? "none" : y));
    }
  };
  field("name", l.name, a.name);
  field("family", name(l.family), name(a.family));
  field("backend target", l.backend, a.backend);
  field("collectives for", l.collectives, a.collectives);
  auto op_text = [](const PluginIndex::Op& o) {
    return std::string(name(o.kind)) + " '" + o.name + "'";
  };
  for (const auto& o : l.ops) {
    if (std::find(a.ops.begin(), a.ops.end(), o) == a.ops.end()) only_listed.push_back(op_text(o));
  }
  for (const auto& o : a.ops) {
    if (std::find(l.ops.begin(), l.ops.end(), o) == l.ops.end()) only_actual.push_back(op_text(o));
  }
  for (const auto& k : l.kernels) {
    if (!std::binary_search(a.kernels.begin(), a.kernels.end(), k)) {
      only_listed.push_back("kernel '" + k + "'");
    }
  }
  for (const auto& k : a.kernels) {
    if (!std::binary_search(l.kernels.begin(), l.kernels.end(), k)) {
      only_actual.push_back("kernel '" + k + "'");
    }
  }
  if (only_listed.empty() && only_actual.empty()) return {};
  std::string s;
  if (!only_listed.empty()) s += "it lists " + some(only_listed);
  if (!only_actual.empty()) {
    s += (s.empty() ? "" : " / ");
    s += "the library defines " + some(only_actual);
  }
  return s;
}

}  // namespace loom
