// docs/random.md's "Distributed arrays": Generator's arrays over the ranks of an MPI job, each
// rank drawing its own rows. Run: mpiexec -np 3 loom_example_random_dist_rows [target]; any rank
// count prints the same.
#include <cstdio>
#include <cstring>
#include <loom/dist/dist.hpp>
#include <loom/loom.hpp>
#include <loom/random_arrays.hpp>
#include <string>

int main(int argc, char** argv) {
  loom::dist::Environment env(argc, argv);
  loom::Runtime rt;
  const loom::dist::Comm world;
  const std::string target = argc > 1 ? argv[1] : "cpu";

  // Every rank holds an equal generator; each call draws this rank's rows of the global array
  // at their global offset, and every rank's generator takes the call number.
  loom::random::Generator gen(12345);
  const loom::dist::DistArray x = loom::dist::random::normal(
      rt, world, gen, {1001, 3}, loom::DType::float32, {.target = target});
  const loom::dist::DistArray k = loom::dist::random::integers(
      rt, world, gen, 1, 7, {1001}, loom::DType::int32, {.target = target});

  // Gathered, they are the arrays one process draws with the same seed and call numbers.
  const loom::Array all_x = loom::dist::gather(rt, x), all_k = loom::dist::gather(rt, k);
  if (world.rank() == 0) {
    loom::random::Generator one(12345);
    const loom::Array want_x = one.normal(rt, {1001, 3}, loom::DType::float32);
    const loom::Array want_k = one.integers(rt, 1, 7, {1001}, loom::DType::int32);
    const bool same = std::memcmp(all_x.data(), want_x.data(), all_x.size() * 4) == 0 &&
                      std::memcmp(all_k.data(), want_k.data(), all_k.size() * 4) == 0;
    std::printf("ranks %d: rows [%lld, %lld) on rank 0, next call %llu, one-process bits: %s\n",
                world.size(), static_cast<long long>(x.rows().begin),
                static_cast<long long>(x.rows().end),
                static_cast<unsigned long long>(gen.next_call()), same ? "yes" : "no");
  }
  return 0;
}
