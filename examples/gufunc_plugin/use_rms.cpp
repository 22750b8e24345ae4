// Calls the rms gufunc: run with LOOM_PLUGIN_PATH naming the folder of libloom_rms.so.
#include <cmath>
#include <cstdio>
#include <loom/loom.hpp>

int main() {
  loom::Runtime rt;
  // Two rows: rms(3, 4, 12, 0) = sqrt(169 / 4) = 6.5 and rms(1, 1, 1, 1) = 1. int64 input runs
  // the float64 loop (the first signature it casts to safely), as in NumPy.
  const auto x = loom::from_vector<std::int64_t>({3, 4, 12, 0, 1, 1, 1, 1}, {2, 4});
  const auto r = rt.gufunc("rms")(x).to_vector<double>();
  const bool ok = r.size() == 2 && std::fabs(r[0] - 6.5) < 1e-12 && std::fabs(r[1] - 1.0) < 1e-12;
  std::printf("rms: %g %g: %s\n", r.at(0), r.at(1), ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
