// Seed: hypot_stride on a, b = np.random.uniform(-12, 12, 1e6).astype(np.float32), checked with
// testing.assert_almost_equal(np.hypot(a, b), c, decimal=5).
#include <cmath>

#include "../common/app_util.hpp"
#include "demo.hpp"

namespace loom::demo {

std::vector<Row> run_hypot(const Context& ctx) {
  const std::int64_t n = ctx.scaled(1'000'000);
  return {guarded_row(ctx, "hypot", shape_str(Shape{n}), DType::float32, [&](Row& row) {
    const Array a = apps::random_uniform<float>({n}, -12, 12, 31);
    const Array b = apps::random_uniform<float>({n}, -12, 12, 32);
    const Ufunc hypot = ctx.rt.ufunc("hypot");
    Array c;
    row.seconds = best_time(
        ctx.repeat, [&] { return hypot(a, b, ctx.call()); }, c);
    const float* av = reinterpret_cast<const float*>(a.data());
    const float* bv = reinterpret_cast<const float*>(b.data());
    std::vector<double> ref(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
      ref[i] = std::sqrt(static_cast<double>(av[i]) * av[i] + static_cast<double>(bv[i]) * bv[i]);
    }
    // decimal=5 on values up to 17 is a relative 1e-6 of the largest one.
    row.check = compare(c, {n}, DType::float32, ref, 1e-6);
  })};
}

}  // namespace loom::demo
