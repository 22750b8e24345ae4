// Calls the example plugin's lerp: run with LOOM_PLUGIN_PATH naming the folder of
// libloom_example.so (ctest in the example's build folder does).
#include <cmath>
#include <cstdio>
#include <loom/loom.hpp>

int main() {
  loom::Runtime rt;
  const auto a = loom::full({5}, 1.0), b = loom::full({5}, 3.0);
  const auto t = loom::linspace(0.0, 1.0, 5);
  const auto v = rt.ufunc("lerp")(a, b, t).to_vector<double>();  // 1 + 2t
  bool ok = v.size() == 5;
  for (std::size_t i = 0; ok && i < v.size(); ++i) ok = std::fabs(v[i] - (1.0 + 0.5 * i)) < 1e-12;
  std::printf("lerp: %g %g %g %g %g: %s\n", v.at(0), v.at(1), v.at(2), v.at(3), v.at(4),
              ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
