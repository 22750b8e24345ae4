// Seed: maximum of two np.random.rand(256, 256, 256).astype(np.float32) arrays (the 3-D grid
// example); the answer must be exact.
#include <algorithm>

#include "../common/app_util.hpp"
#include "demo.hpp"

namespace loom::demo {

std::vector<Row> run_maximum(const Context& ctx) {
  // The scale shrinks the first axis only, so the case stays 3-D.
  const Shape shape{ctx.scaled(256), 256, 256};
  return {guarded_row(ctx, "maximum 3-D", shape_str(shape), DType::float32, [&](Row& row) {
    const Array a = apps::random_uniform<float>(shape, 0, 1, 21);
    const Array b = apps::random_uniform<float>(shape, 0, 1, 22);
    const Ufunc maximum = ctx.rt.ufunc("maximum");
    Array c;
    row.seconds = best_time(
        ctx.repeat, [&] { return maximum(a, b, ctx.call()); }, c);
    const float* av = reinterpret_cast<const float*>(a.data());
    const float* bv = reinterpret_cast<const float*>(b.data());
    std::vector<double> ref(static_cast<std::size_t>(a.size()));
    for (std::size_t i = 0; i < ref.size(); ++i) ref[i] = av[i] > bv[i] ? av[i] : bv[i];
    row.check = compare(c, shape, DType::float32, ref, 0.0);
  })};
}

}  // namespace loom::demo
