// Seed: @guvectorize sum_row(A, s) with layout (n,m)->(n), loops int32 and float32, on a
// (1000, 1000) matrix; the check is np.allclose against np.sum(A, axis=1).
#include "../common/app_util.hpp"
#include "demo.hpp"

namespace loom::demo {

namespace {

template <class T>
Row sum_row_case(const Context& ctx, std::int64_t rows, std::int64_t cols) {
  const Shape shape{rows, cols};
  return guarded_row(ctx, "sum_row (guvectorize)", shape_str(shape), dtype_v<T>, [&](Row& row) {
    // int32: values 0..99 so the row sums stay exact in any accumulator; float32: [0, 1).
    const Array a = std::is_integral_v<T> ? apps::random_uniform<T>(shape, 0, 100, 7)
                                          : apps::random_uniform<T>(shape, 0, 1, 7);
    const Ufunc sum_row = ctx.rt.gufunc("sum_row");
    Array s;
    row.seconds = best_time(
        ctx.repeat, [&] { return sum_row(a, ctx.call()); }, s);
    const T* p = reinterpret_cast<const T*>(a.data());
    std::vector<double> ref(static_cast<std::size_t>(rows));
    for (std::int64_t i = 0; i < rows; ++i) {
      long double acc = 0;
      for (std::int64_t j = 0; j < cols; ++j) acc += p[i * cols + j];
      ref[i] = static_cast<double>(acc);
    }
    const double tol = std::is_integral_v<T> ? 0.0 : fold_tolerance(dtype_v<T>, cols, 1e-6);
    row.check = compare(s, {rows}, dtype_v<T>, ref, tol);
  });
}

}  // namespace

std::vector<Row> run_sum_row(const Context& ctx) {
  const std::int64_t rows = ctx.scaled(1000), cols = 1000;
  return {sum_row_case<std::int32_t>(ctx, rows, cols), sum_row_case<float>(ctx, rows, cols)};
}

}  // namespace loom::demo
