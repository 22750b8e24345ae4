// loom-demo: the Numba tutorials' examples (sinexp, sum_row, prod, the 3-D maximum, hypot, then
// the custom kernels, the Monte Carlo estimate of pi) run through loom on one target, each checked
// against a plain C++ reference and timed.
#include <CLI/CLI.hpp>
#include <iostream>

#include "demo.hpp"

int main(int argc, char** argv) {
  CLI::App app{"loom-demo: the seed tour, checked and timed on one target"};
  std::string target;
  double scale = 1.0;
  int repeat = 3;
  app.add_option("--target,-t", target,
                 "cpu, parallel, cuda, cuda:N (default: LOOM_TARGET or cpu)");
  app.add_option("--size-scale,-s", scale, "Multiply the seeds' problem sizes by this")
      ->check(CLI::Range(1e-4, 100.0))
      ->capture_default_str();
  app.add_option("--repeat,-r", repeat, "Timed runs per case; the best is shown")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  try {
    loom::Runtime rt;
    if (target.empty()) target = rt.default_target();
    rt.resolve_target(target);  // an unknown or unavailable target stops here, saying why
    loom::demo::Context ctx{rt, target, scale, repeat};

    using CaseFn = std::vector<loom::demo::Row> (*)(const loom::demo::Context&);
    const CaseFn cases[] = {loom::demo::run_sinexp, loom::demo::run_sum_row,
                            loom::demo::run_prod,   loom::demo::run_maximum,
                            loom::demo::run_hypot,  loom::demo::run_kernels,
                            loom::demo::run_random};
    std::vector<loom::demo::Row> rows;
    for (CaseFn c : cases) {
      for (auto& r : c(ctx)) rows.push_back(std::move(r));
    }
    std::cout << "loom-demo on target " << target << " (size scale " << scale << ", best of "
              << repeat << " runs)\n\n";
    loom::demo::print_table(rows);
    int failed = 0;
    for (const auto& r : rows) failed += r.check.pass ? 0 : 1;
    std::cout << "\n"
              << rows.size() - failed << " of " << rows.size() << " checks passed"
              << "\n";
    return failed ? 1 : 0;
  } catch (const loom::Error& e) {
    std::cerr << "loom-demo: " << e.what() << "\n";
    return 2;
  }
}
