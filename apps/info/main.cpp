// loom-info: what this loom installation can do — search path, libraries loaded or refused,
// targets with their availability, and every registered operation.
#include <CLI/CLI.hpp>
#include <iostream>

#include "info.hpp"

int main(int argc, char** argv) {
  CLI::App app{"loom-info: loom's search path, libraries, targets and operations"};
  bool json = false;
  int indent = 2;
  app.add_flag("--json", json, "Print one JSON object (search_path, libraries, targets, ops)");
  app.add_option("--indent", indent, "JSON indentation; -1 for one line")->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  try {
    loom::Runtime rt;
    if (json) {
      std::cout << loom::apps::info_json(rt).dump(indent) << "\n";
    } else {
      loom::print_info(rt, std::cout);
    }
  } catch (const loom::Error& e) {
    std::cerr << "loom-info: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
