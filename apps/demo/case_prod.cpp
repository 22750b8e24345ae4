// Seed: @cuda.reduce prod_reduce(a, b) = a*b over n = 4e6 float64 values, checked with
// np.allclose against np.prod. The seed's np.random.random(n) underflows to 0, so its check checks
// nothing; here x = exp(u), u uniform in [-s, s], keeps the product near 1 so a dropped or repeated
// element shows. s is not smaller because values within ~1e-3 of 1 have so few significant bits
// that a tree-ordered (pairwise) product rounds with a bias: errors then grow like n*eps, not
// sqrt(n)*eps, in loom and in any pairwise fold (seen: -5e-4 at n = 1e6 in float32).
#include <cmath>
#include <span>

#include "../common/app_util.hpp"
#include "demo.hpp"

namespace loom::demo {

namespace {

template <class T>
Row prod_case(const Context& ctx, std::int64_t n) {
  return guarded_row(ctx, "prod (reduce)", shape_str(Shape{n}), dtype_v<T>, [&](Row& row) {
    const double s = std::is_same_v<T, float> ? 1e-2 : 1e-3;
    Array x = apps::random_uniform<double>({n}, -s, s, 11);
    for (double& v : std::span(reinterpret_cast<double*>(x.data()), n)) v = std::exp(v);
    x = x.astype(dtype_v<T>);
    const Reduce prod = ctx.rt.reduce("prod");
    Array p;
    row.seconds = best_time(
        ctx.repeat, [&] { return prod(x, ctx.reduce()); }, p);
    const T* xv = reinterpret_cast<const T*>(x.data());
    long double ref = 1;
    for (std::int64_t i = 0; i < n; ++i) ref *= xv[i];
    row.check = compare(p, {}, dtype_v<T>, {static_cast<double>(ref)},
                        fold_tolerance(dtype_v<T>, n, 1e-12));
  });
}

}  // namespace

std::vector<Row> run_prod(const Context& ctx) {
  return {prod_case<double>(ctx, ctx.scaled(4'000'000)),
          prod_case<float>(ctx, ctx.scaled(1'000'000))};
}

}  // namespace loom::demo
