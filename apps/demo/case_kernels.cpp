// Seeds: the @cuda.jit kernels of the Numba tutorials (add_kernel, square_device, the grid-stride
// add and hypot_stride, the thread counters, the histogram challenge, maximum_6 on a 3-D grid),
// launched through plugins/kernels with the seeds' configurations [blocks, threads]. On a device
// target the arrays are device arrays (cuda.to_device in the seeds) and the time is the launch
// plus a synchronize; the answer comes back with to_host for the check.
#include <cmath>
#include <limits>
#include <numbers>

#include "../common/app_util.hpp"
#include "demo.hpp"

namespace loom::demo {

namespace {

// Where a kernel's arrays live: host arrays on cpu/parallel, device arrays on cuda[:N].
struct Place {
  const Context& ctx;
  bool device;
  explicit Place(const Context& c)
      : ctx(c), device(c.rt.resolve_target(c.target).first->family() != Family::host) {}
  Array in(const Array& host) const { return device ? ctx.rt.to_device(host, ctx.target) : host; }
  Array zeros(Shape shape, DType t) const {
    return device ? ctx.rt.zeros(std::move(shape), t, ctx.target)
                  : loom::zeros(std::move(shape), t);
  }
  Array empty(Shape shape, DType t) const {
    return device ? ctx.rt.empty(std::move(shape), t, ctx.target)
                  : loom::empty(std::move(shape), t);
  }
  Array host(const Array& a) const { return device ? ctx.rt.to_host(a) : a; }
};

LaunchConfig launch_config(const Context& ctx, Extent blocks, Extent threads,
                           std::size_t shared_bytes = 0) {
  LaunchConfig c;
  c.blocks = blocks;
  c.threads = threads;
  c.shared_bytes = shared_bytes;
  c.target = ctx.target;
  return c;
}

// Best of ctx.repeat runs of launch(), each after an untimed reset() (fresh outputs for kernels
// that accumulate); on a device target the time includes waiting for the kernel.
template <class Reset, class Launch>
double time_kernel(const Context& ctx, const Place& at, Reset&& reset, Launch&& launch) {
  double best = std::numeric_limits<double>::infinity();
  for (int r = 0; r < ctx.repeat; ++r) {
    reset();
    const auto t0 = std::chrono::steady_clock::now();
    launch();
    if (at.device) ctx.rt.synchronize(ctx.target);
    const auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double>(t1 - t0).count());
  }
  return best;
}

// np.random.normal(size=n).astype(np.float32), deterministic (Box-Muller on SplitMix).
Array random_normal_f32(std::int64_t n, std::uint64_t seed) {
  Array a = loom::empty({n}, DType::float32);
  float* p = reinterpret_cast<float*>(a.data());
  apps::SplitMix rng(seed);
  for (std::int64_t i = 0; i < n; i += 2) {
    const double u1 = 1.0 - rng.uniform(), u2 = rng.uniform();  // u1 in (0, 1]
    const double r = std::sqrt(-2.0 * std::log(u1)), th = 2 * std::numbers::pi * u2;
    p[i] = static_cast<float>(r * std::cos(th));
    if (i + 1 < n) p[i + 1] = static_cast<float>(r * std::sin(th));
  }
  return a;
}

// The seeds' cpu_histogram, in float32 as NumPy computes it there: bin_width = (xmax - xmin) /
// nbins, bin = np.int32((x - xmin) / bin_width) (truncation toward zero), counted if in range.
std::vector<double> cpu_histogram(const Array& x, float xmin, float xmax, std::int64_t nbins) {
  std::vector<double> h(static_cast<std::size_t>(nbins), 0.0);
  const float width = (xmax - xmin) / static_cast<float>(nbins);
  const float* p = reinterpret_cast<const float*>(x.data());
  for (std::int64_t i = 0; i < x.size(); ++i) {
    const double b = std::trunc(static_cast<double>((p[i] - xmin) / width));
    if (b >= 0 && b < static_cast<double>(nbins)) h[static_cast<std::size_t>(b)] += 1;
  }
  return h;
}

// add_kernel (one element per thread, [32, 128] for n = 4096) and square_device ([128, 32]):
// the grid is exactly n threads, so n stays the seeds' 4096 whatever the size scale.
Row add_kernel_row(const Context& ctx, const Place& at) {
  const std::int64_t n = 4096;
  return guarded_row(ctx, "add_kernel [32, 128]", shape_str(Shape{n}), DType::int32, [&](Row& row) {
    const Array x = at.in(arange(0, static_cast<double>(n), 1, DType::int32));
    const Array y = at.in(full({n}, 1.0, DType::int32));
    const Array out = at.empty({n}, DType::int32);
    const Kernel k = ctx.rt.kernel("add_kernel");
    row.seconds = time_kernel(
        ctx, at, [] {}, [&] { k.launch(launch_config(ctx, 32, 128), x, y, out); });
    std::vector<double> ref(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) ref[i] = static_cast<double>(i + 1);  // [1...4096]
    row.check = compare(at.host(out), {n}, DType::int32, ref, 0.0);
  });
}

Row square_row(const Context& ctx, const Place& at) {
  const std::int64_t n = 4096;
  return guarded_row(ctx, "square_kernel [128, 32]", shape_str(Shape{n}), DType::int64,
                     [&](Row& row) {
                       const Array a = at.in(arange(n));  // np.arange(n): int64
                       const Array out = at.empty({n}, DType::int64);
                       const Kernel k = ctx.rt.kernel("square_kernel");
                       row.seconds = time_kernel(
                           ctx, at, [] {}, [&] { k.launch(launch_config(ctx, 128, 32), a, out); });
                       std::vector<double> ref(static_cast<std::size_t>(n));
                       for (std::int64_t i = 0; i < n; ++i) ref[i] = static_cast<double>(i * i);
                       row.check = compare(at.host(out), {n}, DType::int64, ref, 0.0);
                     });
}

// The grid-stride add: n = 100000 elements with [30, 128] (3840 threads, ~26 elements each).
Row add_stride_row(const Context& ctx, const Place& at) {
  const std::int64_t n = ctx.scaled(100'000);
  return guarded_row(ctx, "add_stride [30, 128]", shape_str(Shape{n}), DType::int32, [&](Row& row) {
    const Array x = at.in(arange(0, static_cast<double>(n), 1, DType::int32));
    const Array y = at.in(full({n}, 1.0, DType::int32));
    const Array out = at.empty({n}, DType::int32);
    const Kernel k = ctx.rt.kernel("add_stride");
    row.seconds = time_kernel(
        ctx, at, [] {}, [&] { k.launch(launch_config(ctx, 30, 128), x, y, out); });
    std::vector<double> ref(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) ref[i] = static_cast<double>(i + 1);
    row.check = compare(at.host(out), {n}, DType::int32, ref, 0.0);
  });
}

// hypot_stride on a, b = np.random.uniform(-12, 12, 1e6).astype(np.float32) with [128, 64],
// checked as the seed does (assert_almost_equal(np.hypot(a, b), c, decimal=5)).
Row hypot_stride_row(const Context& ctx, const Place& at) {
  const std::int64_t n = ctx.scaled(1'000'000);
  return guarded_row(
      ctx, "hypot_stride [128, 64]", shape_str(Shape{n}), DType::float32, [&](Row& row) {
        const Array a = apps::random_uniform<float>({n}, -12, 12, 41);
        const Array b = apps::random_uniform<float>({n}, -12, 12, 42);
        const Array da = at.in(a), db = at.in(b);
        const Array c = at.empty({n}, DType::float32);
        const Kernel k = ctx.rt.kernel("hypot_stride");
        row.seconds = time_kernel(
            ctx, at, [] {}, [&] { k.launch(launch_config(ctx, 128, 64), da, db, c); });
        const float* av = reinterpret_cast<const float*>(a.data());
        const float* bv = reinterpret_cast<const float*>(b.data());
        std::vector<double> ref(static_cast<std::size_t>(n));
        for (std::int64_t i = 0; i < n; ++i) {
          ref[i] =
              std::sqrt(static_cast<double>(av[i]) * av[i] + static_cast<double>(bv[i]) * bv[i]);
        }
        row.check = compare(at.host(c), {n}, DType::float32, ref, 1e-6);
      });
}

// The thread counters on [64, 64]: 4096 threads each add 1 to counter[0]. The race is WRONG BY
// DESIGN (read, add, write without an atomic): wherever threads run concurrently (a GPU, the
// parallel target) increments are lost, so its check only asks for a count in [1, 4096]; the
// atomic one must count exactly 4096.
Row counter_row(const Context& ctx, const Place& at, bool safe) {
  const std::string kname = safe ? "thread_counter_safe" : "thread_counter_race";
  return guarded_row(ctx, kname + " [64, 64]", shape_str(Shape{1}), DType::int32, [&](Row& row) {
    const Kernel k = ctx.rt.kernel(kname);
    Array counter;
    row.seconds = time_kernel(
        ctx, at, [&] { counter = at.zeros({1}, DType::int32); },
        [&] { k.launch(launch_config(ctx, 64, 64), counter); });
    const Array h = at.host(counter);
    if (h.shape() != Shape{1} || h.dtype() != DType::int32) {
      row.check.problem = "expected one int32 counter, got " + h.str();
      return;
    }
    const std::int32_t count = h.at<std::int32_t>(0), want = 64 * 64;
    row.check.pass = safe ? count == want : count >= 1 && count <= want;
    row.check.note = "count " + std::to_string(count) + " of " + std::to_string(want) +
                     (safe ? " (atomic add: must be exact)"
                           : " (race, wrong by design: lost updates allowed, check is <= 4096)");
  });
}

// The histogram challenge: 10 bins over [-4, 4) of np.random.normal(size=10000) float32 with
// [128, 64]: global atomics (the seeds' solution) and per-block shared-memory histograms
// (shared_bytes = 4 * nbins), both against the seeds' cpu_histogram.
Row histogram_row(const Context& ctx, const Place& at, bool shared) {
  const std::int64_t n = ctx.scaled(10'000), nbins = 10;
  const float xmin = -4.0f, xmax = 4.0f;
  const std::string kname = shared ? "histogram_shared" : "histogram";
  return guarded_row(ctx, kname + " [128, 64]", shape_str(Shape{n}), DType::float32, [&](Row& row) {
    const Array x = random_normal_f32(n, 51);
    const Array dx = at.in(x);
    const Kernel k = ctx.rt.kernel(kname);
    const LaunchConfig cfg = launch_config(ctx, 128, 64, shared ? sizeof(std::int32_t) * nbins : 0);
    Array hist;
    row.seconds = time_kernel(
        ctx, at, [&] { hist = at.zeros({nbins}, DType::int32); },
        [&] { k.launch(cfg, dx, xmin, xmax, hist); });
    row.check =
        compare(at.host(hist), {nbins}, DType::int32, cpu_histogram(x, xmin, xmax, nbins), 0.0);
  });
}

// maximum_6: c[i, j, k] = max(a, b) on 256^3 float32 with threads (8, 8, 8) and blocks covering
// the shape ((32, 32, 32) at full size; the size scale shrinks the first axis).
Row maximum_3d_row(const Context& ctx, const Place& at) {
  const Shape shape{ctx.scaled(256), 256, 256};
  const auto cover = [](std::int64_t n) { return (n + 7) / 8; };
  const Extent blocks{cover(shape[0]), cover(shape[1]), cover(shape[2])};
  const std::string name = "maximum_3d [(" + std::to_string(blocks.x) + ", " +
                           std::to_string(blocks.y) + ", " + std::to_string(blocks.z) +
                           "), (8, 8, 8)]";
  return guarded_row(ctx, name, shape_str(shape), DType::float32, [&](Row& row) {
    const Array a = apps::random_uniform<float>(shape, 0, 1, 61);
    const Array b = apps::random_uniform<float>(shape, 0, 1, 62);
    const Array da = at.in(a), db = at.in(b);
    const Array c = at.empty(shape, DType::float32);
    const Kernel k = ctx.rt.kernel("maximum_3d");
    row.seconds = time_kernel(
        ctx, at, [] {},
        [&] {
          k.launch(launch_config(ctx, blocks, {8, 8, 8}), da, db, c);
        });
    const float* av = reinterpret_cast<const float*>(a.data());
    const float* bv = reinterpret_cast<const float*>(b.data());
    std::vector<double> ref(static_cast<std::size_t>(a.size()));
    for (std::size_t i = 0; i < ref.size(); ++i) ref[i] = av[i] > bv[i] ? av[i] : bv[i];
    row.check = compare(at.host(c), shape, DType::float32, ref, 0.0);
  });
}

}  // namespace

std::vector<Row> run_kernels(const Context& ctx) {
  const Place at(ctx);
  return {add_kernel_row(ctx, at),       square_row(ctx, at),          add_stride_row(ctx, at),
          hypot_stride_row(ctx, at),     counter_row(ctx, at, false),  counter_row(ctx, at, true),
          histogram_row(ctx, at, false), histogram_row(ctx, at, true), maximum_3d_row(ctx, at)};
}

}  // namespace loom::demo
