// The seeds' Monte Carlo estimate of pi with Numba's xoroshiro128p states, run on every target
// given (or every available one): each prints its estimate, and the program says whether every
// target gave the same bits (docs/random.md).
//   loom_example_monte_carlo [target ...]
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "loom/def/kernel.hpp"
#include "loom/loom.hpp"
#include "loom/random_arrays.hpp"
// After the def header: define_compute_pi calls the host loom::def::kernel.
#include "monte_carlo.hpp"

#if LOOM_EXAMPLE_CUDA
void define_compute_pi_cuda(loom::Runtime& rt);  // monte_carlo_cuda.cu
#endif

bool available(const loom::Runtime& rt, const std::string& target) {
  const std::string base = target.substr(0, target.find(':'));
  for (const auto& t : rt.targets()) {
    if (t.target == base) return t.available;
  }
  return false;
}

int main(int argc, char** argv) {
  loom::Runtime rt;
  rt.define("monte_carlo", define_compute_pi);
#if LOOM_EXAMPLE_CUDA
  if (available(rt, "cuda")) define_compute_pi_cuda(rt);
#endif
  std::vector<std::string> targets(argv + 1, argv + argc);
  if (targets.empty()) {
    for (const char* t : {"cpu", "parallel", "cuda", "cuda:all", "multidev:all"}) {
      if (available(rt, t)) targets.push_back(t);
    }
  }

  const int threads_per_block = 64, blocks = 24;
  const std::int64_t iterations = 10000;
  std::vector<float> first;
  bool same = true;
  for (const std::string& target : targets) {
    // Numba: create_xoroshiro128p_states(threads_per_block * blocks, seed=1)
    const loom::Array rng_states = loom::random::create_xoroshiro128p_states(
        rt, threads_per_block * blocks, 1, {.target = target});
    loom::Array out = loom::zeros({threads_per_block * blocks}, loom::DType::float32);
    rt.kernel("compute_pi")
        .launch({.blocks = blocks, .threads = threads_per_block, .target = target}, rng_states,
                iterations, out);
    const std::vector<float> v = out.to_vector<float>();
    double sum = 0;
    for (float x : v) sum += x;
    std::cout << target << ": pi ~= " << sum / static_cast<double>(v.size()) << "\n";
    if (first.empty()) first = v;
    same = same && std::memcmp(first.data(), v.data(), v.size() * sizeof(float)) == 0;
  }
  std::cout << "every target gave the same bits: " << (same ? "yes" : "no") << "\n";
  return same ? 0 : 1;
}
