// docs/random.md's "Arrays": Generator's uniform, normal and integers on a target, and out=.
// Run: loom_example_random_arrays [target]; the same numbers on every target.
#include <iostream>
#include <loom/loom.hpp>
#include <loom/random_arrays.hpp>
#include <string>

int main(int argc, char** argv) {
  loom::Runtime rt;
  const std::string target = argc > 1 ? argv[1] : rt.default_target();

  loom::random::Generator gen(12345);  // seed; a second argument picks an independent stream
  loom::Array u = gen.uniform(rt, {2, 3}, loom::DType::float32, {.target = target});    // [0, 1)
  loom::Array z = gen.normal(rt, {4}, loom::DType::float64, {.target = target});        // N(0, 1)
  loom::Array k = gen.integers(rt, 1, 7, {8}, loom::DType::int32, {.target = target});  // dice
  std::cout << rt.to_host(u) << "\n" << rt.to_host(z) << "\n" << rt.to_host(k) << "\n";

  // Each call takes the next call number; Generator(seed, stream, call) resumes at one, and
  // out= fills an array of one's own (its shape and dtype must be the call's).
  loom::Array again = loom::empty({4}, loom::DType::float64);
  loom::random::Generator(12345, 0, 1)
      .normal(rt, {4}, loom::DType::float64, {.target = target, .out = again});
  const bool same = rt.to_host(z).to_vector<double>() == again.to_vector<double>();
  std::cout << "out= equals call 1: " << (same ? "yes" : "no") << "\n";
}
