// Launches the saxpy kernel: run with LOOM_PLUGIN_PATH naming the folder of libloom_saxpy.so.
#include <cmath>
#include <cstdio>
#include <loom/loom.hpp>

int main() {
  loom::Runtime rt;
  const std::int64_t n = 1000;
  const auto x = loom::arange(0.0, double(n)), y = loom::full({n}, 1.0);
  auto out = loom::empty({n});
  // .size = n: one thread per element, in blocks of the target's preferred size (256 on the host).
  rt.kernel("saxpy").launch({.size = n, .target = "cpu"}, 2.0, x, y, out);
  const auto v = out.to_vector<double>();
  bool ok = true;
  for (std::int64_t i = 0; i < n; ++i) ok = ok && v[i] == 2.0 * double(i) + 1.0;
  std::printf("saxpy: out[999] = %g: %s\n", v[n - 1], ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
