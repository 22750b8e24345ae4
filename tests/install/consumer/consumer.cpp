// Runs the out-of-tree example op (found through LOOM_PLUGIN_PATH) and a built-in op (found in
// the installed lib/loom/) and checks both results; sums an Eigen matrix through loom/eigen.hpp,
// whose Eigen headers the package must bring.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <loom/eigen.hpp>
#include <loom/loom.hpp>

int main() {
  loom::Runtime rt;
  const char* oot = std::getenv("LOOM_PLUGIN_PATH");
  bool from_oot = false;  // lerp must come from the out-of-tree build, not an installed copy
  for (const auto& l : rt.libraries()) {
    std::printf("%s %s %s\n", l.ok ? "loaded" : "REFUSED", l.path.c_str(), l.error.c_str());
    from_oot = from_oot || (l.ok && oot && l.name == "example" && l.path.rfind(oot, 0) == 0);
  }
  if (!from_oot) {
    std::printf("the example plugin was not loaded from LOOM_PLUGIN_PATH\n");
    return 1;
  }
  auto a = loom::full({5}, 1.0), b = loom::full({5}, 3.0);
  auto t = loom::linspace(0.0, 1.0, 5);
  const auto v = rt.ufunc("lerp")(a, b, t).to_vector<double>();
  const double s = rt.reduce("sum")(t).item<double>();
  Eigen::MatrixXd m(2, 3);
  m << 1, 2, 3, 4, 5, 6;
  const double es = rt.reduce("sum")(loom::as_array(m)).item<double>();
  bool ok = std::fabs(s - 2.5) < 1e-12 && es == 21;
  for (int i = 0; i < 5; ++i) ok = ok && std::fabs(v[i] - (1.0 + 0.5 * i)) < 1e-12;
  std::printf("lerp: %g %g %g %g %g, eigen sum %g, sum %g: %s\n", v[0], v[1], v[2], v[3], v[4],
              es, s, ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
