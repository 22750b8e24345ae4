// docs/random.md's "Ufuncs that draw": a random-walk step defined as a ufunc whose functor takes
// loom::ElementIndex, run for ten steps on every host target given (or every available one:
// cpu, parallel, multidev:all); each prints the walkers' spread, and the program says whether
// every target gave the bits of a plain host loop.
#include <cmath>
#include <cstdint>
#include <iomanip>
#include <iostream>
#include <loom/def/ufunc.hpp>
#include <loom/loom.hpp>
#include <loom/random.hpp>
#include <string>
#include <vector>

// x + sigma * z, z the standard normal of element i of call `step` of Generator(seed): a fresh
// draw for every walker and step, the same wherever and however the call runs.
struct WalkStep {
  LOOM_HD float operator()(loom::ElementIndex e, float x, float sigma, std::uint64_t seed,
                           std::uint32_t step) const {
    return x + sigma * loom::random::Philox(seed, 0, step).normal_float32(e.i);
  }
};

bool available(const loom::Runtime& rt, const std::string& target) {
  const std::string base = target.substr(0, target.find(':'));
  for (const auto& t : rt.targets()) {
    if (t.target == base) return t.available;
  }
  return false;
}

int main(int argc, char** argv) {
  loom::Runtime rt;
  rt.define("walk", [](loom::Registrar& reg) {
    // The signature lists the operands only: the index is no input.
    loom::def::ufunc<WalkStep, float(float, float, std::uint64_t, std::uint32_t)>(
        reg, "walk_step", "x + sigma * N(0, 1), drawn from the element's index");
  });
  std::vector<std::string> targets(argv + 1, argv + argc);
  if (targets.empty()) {
    for (const char* t : {"cpu", "parallel", "multidev:all"}) {
      if (available(rt, t)) targets.push_back(t);
    }
  }
  const std::int64_t walkers = 200000;
  const int steps = 10;
  const float sigma = 0.1f;
  const std::uint64_t seed = 2024;

  // The same walk as a plain loop on the host.
  std::vector<float> want(walkers, 0.0f);
  for (int t = 0; t < steps; ++t) {
    const loom::random::Philox p(seed, 0, static_cast<std::uint32_t>(t));
    for (std::int64_t i = 0; i < walkers; ++i) want[i] = want[i] + sigma * p.normal_float32(i);
  }

  bool same = true;
  const loom::Ufunc step = rt.ufunc("walk_step");
  for (const std::string& target : targets) {
    loom::Array x = loom::zeros({4, walkers / 4}, loom::DType::float32);  // any shape: C order
    for (int t = 0; t < steps; ++t) {
      step(x, loom::full({}, sigma), loom::full({}, seed),
           loom::full({}, static_cast<std::uint32_t>(t)), {.target = target, .out = {x}});
    }
    const std::vector<float> got = x.to_vector<float>();
    double squares = 0;
    for (float v : got) squares += static_cast<double>(v) * v;
    std::cout << target << ": spread " << std::fixed << std::setprecision(3)
              << std::sqrt(squares / static_cast<double>(walkers))
              << " (sigma * sqrt(steps) = " << sigma * std::sqrt(static_cast<double>(steps))
              << ")\n";
    same = same && got == want;
  }
  std::cout << "every target gave the host loop's bits: " << (same ? "yes" : "no") << "\n";
  return same ? 0 : 1;
}
