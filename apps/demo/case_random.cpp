// Seed: the Monte Carlo estimate of pi of numba.cuda.random's documentation (compute_pi on
// create_xoroshiro128p_states(threads_per_block * blocks, seed=1), [24, 64], 10000 iterations),
// through loom::random and the random plugin's random_compute_pi kernel. Checked bit for bit:
// every thread's estimate against the same draws made here with a plain xoroshiro128+ loop on a
// host copy of the states (docs/random.md: the same bits on every target).
#include <chrono>
#include <cmath>
#include <limits>

#include "demo.hpp"
#include "loom/random_arrays.hpp"

namespace loom::demo {

namespace {

// Numba's xoroshiro128p_uniform_float32: xoroshiro128+ (s0 + s1, then the state update), the top
// 53 bits as a double in [0, 1), rounded to float32.
float next_uniform_float32(std::uint64_t& s0, std::uint64_t& s1) {
  const std::uint64_t a = s0, result = s0 + s1;
  std::uint64_t b = s1 ^ a;
  s0 = ((a << 55) | (a >> 9)) ^ b ^ (b << 14);
  s1 = (b << 36) | (b >> 28);
  return static_cast<float>(static_cast<double>(result >> 11) * 0x1.0p-53);
}

}  // namespace

std::vector<Row> run_random(const Context& ctx) {
  const std::int64_t threads_per_block = 64, blocks = 24, n = threads_per_block * blocks;
  const std::int64_t iterations = ctx.scaled(10'000);
  const std::string name = "monte_carlo_pi [24, 64] x " + std::to_string(iterations);
  return {guarded_row(ctx, name, shape_str(Shape{n}), DType::float32, [&](Row& row) {
    const bool device = ctx.rt.resolve_target(ctx.target).first->family() != Family::host;
    const Kernel k = ctx.rt.kernel("random_compute_pi");
    LaunchConfig cfg;
    cfg.blocks = blocks;
    cfg.threads = threads_per_block;
    cfg.target = ctx.target;
    // Each run starts from fresh states (the kernel advances them), made outside the clock.
    Array out;
    double best = std::numeric_limits<double>::infinity();
    for (int r = 0; r < ctx.repeat; ++r) {
      const Array states =
          random::create_xoroshiro128p_states(ctx.rt, n, 1, {.target = ctx.target});
      out = device ? ctx.rt.zeros({n}, DType::float32, ctx.target) : zeros({n}, DType::float32);
      if (device) ctx.rt.synchronize(ctx.target);
      const auto t0 = std::chrono::steady_clock::now();
      k.launch(cfg, states, iterations, out);
      if (device) ctx.rt.synchronize(ctx.target);
      best = std::min(best,
                      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    row.seconds = best;

    const Array host_states = random::create_xoroshiro128p_states(ctx.rt, n, 1, {.target = "cpu"});
    const auto* s = reinterpret_cast<const std::uint64_t*>(host_states.data());
    std::vector<double> ref(static_cast<std::size_t>(n));
    for (std::int64_t t = 0; t < n; ++t) {
      std::uint64_t s0 = s[2 * t], s1 = s[2 * t + 1];
      std::int64_t inside = 0;
      for (std::int64_t i = 0; i < iterations; ++i) {
        const float x = next_uniform_float32(s0, s1), y = next_uniform_float32(s0, s1);
        if (x * x + y * y <= 1.0f) ++inside;
      }
      ref[t] = 4.0f * static_cast<float>(inside) / static_cast<float>(iterations);
    }
    const Array got = ctx.rt.to_host(out);
    row.check = compare(got, {n}, DType::float32, ref, 0.0);
    if (row.check.pass) {
      double sum = 0;
      for (double v : ref) sum += v;
      row.check.note = "pi ~= " + std::to_string(sum / static_cast<double>(n)) +
                       ", every thread's bits equal to the host xoroshiro128+ loop";
    }
  })};
}

}  // namespace loom::demo
