// Seed: @vectorize sinexp(x, y) = sin(x)*exp(y) on x = linspace(0, 2pi, n), y = 10 (n = 1e6),
// float32 and float64 loops; NumPy's check is np.allclose against np.sin(x)*np.exp(y).
#include <cmath>
#include <numbers>

#include "demo.hpp"

namespace loom::demo {

std::vector<Row> run_sinexp(const Context& ctx) {
  const std::int64_t n = ctx.scaled(1'000'000);
  std::vector<Row> rows;
  for (DType t : {DType::float32, DType::float64}) {
    rows.push_back(guarded_row(ctx, "sinexp (vectorize)", shape_str(Shape{n}), t, [&](Row& row) {
      const Array x = linspace(0.0, 2 * std::numbers::pi, n, true, t);
      const Array y = full({n}, 10.0, t);
      const Ufunc sinexp = ctx.rt.ufunc("sinexp");
      Array z;
      row.seconds = best_time(
          ctx.repeat, [&] { return sinexp(x, y, ctx.call()); }, z);
      // Reference from the very inputs the call saw, in long double.
      const std::vector<double> xv = x.to_vector<double>(), yv = y.to_vector<double>();
      std::vector<double> ref(xv.size());
      for (std::size_t i = 0; i < ref.size(); ++i) {
        ref[i] = static_cast<double>(std::sin(static_cast<long double>(xv[i])) *
                                     std::exp(static_cast<long double>(yv[i])));
      }
      row.check = compare(z, {n}, t, ref, t == DType::float32 ? 1e-5 : 1e-12);
    }));
  }
  return rows;
}

}  // namespace loom::demo
