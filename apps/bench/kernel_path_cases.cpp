// Host kernel paths (docs/kernels.md, "Host paths") against the loop a user would write instead:
// hypot_stride with one element a thread (.size = n), a 2-D Jacobi sweep, and a block tree sum as
// block phases (block_sum) and as fibers (block_sum_sync), each next to a plain C++ loop over the
// same data (for the sums: the tree's order, same bits, and the sequential loop a user writes).
// The seeds' literal forms are here too, next to their idioms and a loop (docs/porting.md, "Traps
// first"): add_stride's hand-written grid-stride loop on [1024, 256] and with .size = n, and the
// 3-D maximum_3d on 8x8x8 blocks (the maximum ufunc's row is in loom_cases.cpp).
// Device targets run the kernels on device arrays for comparison.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "../common/app_util.hpp"
#include "bench.hpp"

namespace loom::bench {

namespace {

constexpr std::int64_t kJacobiRows = 4096, kJacobiCols = 4096;
constexpr std::int64_t kSumBlock = 256;

std::string label2(std::int64_t r, std::int64_t c) {
  return std::to_string(r) + "x" + std::to_string(c);
}

// The same hypot as the kernel's (plugins/math: sqrt(fma(x, x, y * y)) with scaling), as a loop.
[[gnu::noinline]] void hypot_loop(const float* a, const float* b, float* c, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) {
    const float ax = std::abs(a[i]), ay = std::abs(b[i]);
    const float big = ax > ay ? ax : ay;
    const float scale = big > 0x1p60f ? 0x1p-70f : (big < 0x1p-60f ? 0x1p90f : 1.0f);
    const float sx = ax * scale, sy = ay * scale;
    const float h = std::sqrt(std::fma(sx, sx, sy * sy)) / scale;
    c[i] = (ax == HUGE_VALF || ay == HUGE_VALF) ? HUGE_VALF : h;
  }
}

[[gnu::noinline]] void jacobi_loop(const float* in, float* out, std::int64_t ni, std::int64_t nj) {
  for (std::int64_t i = 0; i < ni; ++i) {
    for (std::int64_t j = 0; j < nj; ++j) {
      if (i == 0 || j == 0 || i == ni - 1 || j == nj - 1) {
        out[i * nj + j] = in[i * nj + j];
      } else {
        out[i * nj + j] = 0.25f * ((in[(i - 1) * nj + j] + in[(i + 1) * nj + j]) +
                                   (in[i * nj + j - 1] + in[i * nj + j + 1]));
      }
    }
  }
}

// out[b] = the sum of block b's 256 elements, in the kernel's tree order (pairs at distance 128,
// then 64, ...), so that the bits agree.
[[gnu::noinline]] void block_sum_loop(const double* x, double* out, std::int64_t nblocks) {
  double s[kSumBlock];
  for (std::int64_t b = 0; b < nblocks; ++b) {
    for (std::int64_t t = 0; t < kSumBlock; ++t) s[t] = x[b * kSumBlock + t];
    for (std::int64_t n = kSumBlock; n > 1; n /= 2) {
      for (std::int64_t t = 0; t < n / 2; ++t) s[t] += s[t + n / 2];
    }
    out[b] = s[0];
  }
}

[[gnu::noinline]] void add_loop(const float* a, const float* b, float* c, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) c[i] = a[i] + b[i];
}

[[gnu::noinline]] void maximum_loop(const float* a, const float* b, float* c, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) c[i] = a[i] > b[i] ? a[i] : b[i];
}

std::int64_t nbytes(const Array& a) { return a.size() * static_cast<std::int64_t>(a.itemsize()); }

// The loop a user writes for the same sums: each block's elements added in order (other bits
// than the tree's; a chain of dependent adds, not vectorized).
[[gnu::noinline]] void block_sum_seq_loop(const double* x, double* out, std::int64_t nblocks) {
  for (std::int64_t b = 0; b < nblocks; ++b) {
    double s = 0;
    for (std::int64_t t = 0; t < kSumBlock; ++t) s += x[b * kSumBlock + t];
    out[b] = s;
  }
}

template <class T>
const T* ptr(const Array& a) {
  return reinterpret_cast<const T*>(a.data());
}

void finish(benchmark::State& st, std::int64_t items, std::int64_t bytes) {
  st.SetItemsProcessed(st.iterations() * items);
  st.SetBytesProcessed(st.iterations() * bytes);
}

// Runs the kernel on `target` (device arrays on a device target), checks its first result
// against `want` (bitwise), then times it.
void kernel_case(benchmark::State& st, const Runtime& rt, const std::string& kernel,
                 const std::string& target, const LaunchConfig& cfg0, std::vector<Array> in,
                 Array out, const Array& want, bool device, std::int64_t items,
                 bool batch = false) {
  try {
    LaunchConfig cfg = cfg0;
    cfg.target = target;
    if (device) {
      for (auto& a : in) a = rt.to_device(a, target);
      out = rt.to_device(out, target);
    }
    const Kernel k = rt.kernel(kernel);
    const auto run = [&] {
      if (in.size() == 1) k.launch(cfg, in[0], out);
      if (in.size() == 2) k.launch(cfg, in[0], in[1], out);
    };
    run();
    const Array got = rt.to_host(out);
    if (std::memcmp(got.data(), want.data(), static_cast<std::size_t>(nbytes(want))) != 0) {
      st.SkipWithError(
          ("kernel '" + kernel + "' on " + target + ": differs from the loop").c_str());
      return;
    }
    if (batch) {
      cfg.stream = rt.stream(target);
      time_on_stream(st, cfg.stream, run);
    } else {
      for (auto _ : st) {
        run();
        if (device) rt.synchronize(target);
      }
    }
    std::int64_t bytes = nbytes(out);
    for (const auto& a : in) bytes += nbytes(a);
    finish(st, items, bytes);
  } catch (const Error& e) {
    st.SkipWithError(e.what());
  }
}

template <class F>
void loop_case(benchmark::State& st, F&& f, std::int64_t items, std::int64_t bytes) {
  for (auto _ : st) {
    f();
    benchmark::ClobberMemory();
  }
  finish(st, items, bytes);
}

// Milliseconds, wall-clock time unless `manual` (time_on_stream's rows).
benchmark::internal::Benchmark* ms(benchmark::internal::Benchmark* b, const Sizes& sizes,
                                   bool manual = false) {
  if (manual) {
    b->UseManualTime();
  } else {
    b->UseRealTime();
  }
  return b->Unit(benchmark::kMillisecond)->MinTime(sizes.large_min_time);
}

struct Data {
  std::int64_t n = 0;
  Array a, b, hypot;   // hypot inputs and the loop's result
  Array add;           // a + b by the loop
  Array ca, cb, cmax;  // the seeds' 256^3 maximum: inputs and the loop's result
  Array grid, jacobi;  // Jacobi input and the loop's result
  Array x, sums;       // block sums' input and the loop's result
  std::int64_t nblocks = 0;
};

const Data& data(const Sizes& sizes) {
  static Data d = [&] {
    Data r;
    r.n = sizes.large;
    r.a = apps::random_uniform<float>({r.n}, -12, 12, 91);
    r.b = apps::random_uniform<float>({r.n}, -12, 12, 92);
    r.hypot = empty({r.n}, DType::float32);
    hypot_loop(ptr<float>(r.a), ptr<float>(r.b), reinterpret_cast<float*>(r.hypot.data()), r.n);
    r.add = empty({r.n}, DType::float32);
    add_loop(ptr<float>(r.a), ptr<float>(r.b), reinterpret_cast<float*>(r.add.data()), r.n);
    r.ca = apps::random_uniform<float>(sizes.cube, 0, 1, 95);
    r.cb = apps::random_uniform<float>(sizes.cube, 0, 1, 96);
    r.cmax = empty(sizes.cube, DType::float32);
    maximum_loop(ptr<float>(r.ca), ptr<float>(r.cb), reinterpret_cast<float*>(r.cmax.data()),
                 r.ca.size());
    r.grid = apps::random_uniform<float>({kJacobiRows, kJacobiCols}, 0, 1, 93);
    r.jacobi = empty({kJacobiRows, kJacobiCols}, DType::float32);
    jacobi_loop(ptr<float>(r.grid), reinterpret_cast<float*>(r.jacobi.data()), kJacobiRows,
                kJacobiCols);
    r.nblocks = r.n / 4 / kSumBlock;  // 16M float64 (4M with LOOM_BENCH_SMALL=1 / 4)
    r.x = apps::random_uniform<double>({r.nblocks * kSumBlock}, -1, 1, 94);
    r.sums = empty({r.nblocks}, DType::float64);
    block_sum_loop(ptr<double>(r.x), reinterpret_cast<double*>(r.sums.data()), r.nblocks);
    return r;
  }();
  return d;
}

}  // namespace

void register_kernel_path_cases(const Runtime& rt, const std::string& target, const Sizes& sizes,
                                bool device) {
  const Runtime* r = &rt;
  const std::string n_label = apps::size_label(sizes.large);
  const std::string grid = label2(kJacobiRows, kJacobiCols);
  // "<case>/<target>", and on a device "<case>/<target>_batch" too (time_on_stream).
  const auto add = [&](const std::string& c, std::function<void(benchmark::State&, bool)> f) {
    ms(benchmark::RegisterBenchmark((c + "/" + target).c_str(),
                                    [f](benchmark::State& st) { f(st, false); }),
       sizes);
    if (device) {
      ms(benchmark::RegisterBenchmark((c + "/" + target + "_batch").c_str(),
                                      [f](benchmark::State& st) { f(st, true); }),
         sizes, true);
    }
  };
  add("kernel_hypot_stride_sized/float32/" + n_label, [=](benchmark::State& st, bool batch) {
    const Data& d = data(sizes);
    kernel_case(st, *r, "hypot_stride", target, {.size = d.n}, {d.a, d.b},
                empty({d.n}, DType::float32), d.hypot, device, d.n, batch);
  });
  // The seeds' add with its hand-written grid-stride loop: on their [1024, 256] grid (each host
  // thread walks memory a grid apart) and on one element a thread (.size = n).
  add("kernel_add_stride/float32/" + n_label, [=](benchmark::State& st, bool batch) {
    const Data& d = data(sizes);
    kernel_case(st, *r, "add_stride", target, {.blocks = 1024, .threads = 256}, {d.a, d.b},
                empty({d.n}, DType::float32), d.add, device, d.n, batch);
  });
  add("kernel_add_stride_sized/float32/" + n_label, [=](benchmark::State& st, bool batch) {
    const Data& d = data(sizes);
    kernel_case(st, *r, "add_stride", target, {.size = d.n}, {d.a, d.b},
                empty({d.n}, DType::float32), d.add, device, d.n, batch);
  });
  // The seeds' maximum_6: a 3-D grid of 8x8x8 blocks, x along the first (slowest) axis.
  add("kernel_maximum_3d/float32/" + apps::shape_label(sizes.cube),
      [=](benchmark::State& st, bool batch) {
        const Data& d = data(sizes);
        const Shape& c = sizes.cube;
        const LaunchConfig cfg{.blocks = Extent(c[0] / 8, c[1] / 8, c[2] / 8),
                               .threads = Extent(8, 8, 8)};
        kernel_case(st, *r, "maximum_3d", target, cfg, {d.ca, d.cb}, empty(c, DType::float32),
                    d.cmax, device, d.ca.size(), batch);
      });
  add("kernel_jacobi_2d/float32/" + grid, [=](benchmark::State& st, bool batch) {
    const Data& d = data(sizes);
    const LaunchConfig cfg{.blocks = Extent(kJacobiCols / 32, kJacobiRows / 8),
                           .threads = Extent(32, 8)};
    kernel_case(st, *r, "jacobi_2d", target, cfg, {d.grid},
                empty({kJacobiRows, kJacobiCols}, DType::float32), d.jacobi, device,
                kJacobiRows * kJacobiCols, batch);
  });
  for (const char* k : {"block_sum", "block_sum_sync"}) {
    if (device && std::string(k) == "block_sum_sync") continue;  // the same code on a GPU
    add("kernel_" + std::string(k) + "/float64/" + apps::size_label(sizes.large / 4),
        [=](benchmark::State& st, bool batch) {
          const Data& d = data(sizes);
          const LaunchConfig cfg{.blocks = d.nblocks,
                                 .threads = kSumBlock,
                                 .shared_bytes = kSumBlock * sizeof(double)};
          kernel_case(st, *r, k, target, cfg, {d.x}, empty({d.nblocks}, DType::float64), d.sums,
                      device, d.nblocks * kSumBlock, batch);
        });
  }
}

void register_kernel_path_baselines(const Sizes& sizes) {
  const std::string n_label = apps::size_label(sizes.large);
  ms(benchmark::RegisterBenchmark(("baseline_loop/hypot/float32/" + n_label).c_str(),
                                  [=](benchmark::State& st) {
                                    const Data& d = data(sizes);
                                    Array c = empty({d.n}, DType::float32);
                                    loop_case(
                                        st,
                                        [&] {
                                          hypot_loop(ptr<float>(d.a), ptr<float>(d.b),
                                                     reinterpret_cast<float*>(c.data()), d.n);
                                        },
                                        d.n, 3 * 4 * d.n);
                                  }),
     sizes);
  // add_stride's loop is baseline_loop/add/float32/<n> (baselines.cpp): the same a + b.
  ms(benchmark::RegisterBenchmark(
         ("baseline_loop/maximum/float32/" + apps::shape_label(sizes.cube)).c_str(),
         [=](benchmark::State& st) {
           const Data& d = data(sizes);
           Array c = empty(sizes.cube, DType::float32);
           loop_case(
               st,
               [&] {
                 maximum_loop(ptr<float>(d.ca), ptr<float>(d.cb),
                              reinterpret_cast<float*>(c.data()), d.ca.size());
               },
               d.ca.size(), 3 * 4 * d.ca.size());
         }),
     sizes);
  ms(benchmark::RegisterBenchmark(
         ("baseline_loop/jacobi_2d/float32/" + label2(kJacobiRows, kJacobiCols)).c_str(),
         [=](benchmark::State& st) {
           const Data& d = data(sizes);
           Array o = empty({kJacobiRows, kJacobiCols}, DType::float32);
           loop_case(
               st,
               [&] {
                 jacobi_loop(ptr<float>(d.grid), reinterpret_cast<float*>(o.data()), kJacobiRows,
                             kJacobiCols);
               },
               kJacobiRows * kJacobiCols, 2 * 4 * kJacobiRows * kJacobiCols);
         }),
     sizes);
  using SumLoop = void (*)(const double*, double*, std::int64_t);
  for (const auto& [op, loop] :
       {std::pair<const char*, SumLoop>{"block_sum", &block_sum_loop},
        std::pair<const char*, SumLoop>{"block_sum_seq", &block_sum_seq_loop}}) {
    ms(benchmark::RegisterBenchmark(
           ("baseline_loop/" + std::string(op) + "/float64/" + apps::size_label(sizes.large / 4))
               .c_str(),
           [=](benchmark::State& st) {
             const Data& d = data(sizes);
             Array o = empty({d.nblocks}, DType::float64);
             loop_case(
                 st,
                 [&] { loop(ptr<double>(d.x), reinterpret_cast<double*>(o.data()), d.nblocks); },
                 d.nblocks * kSumBlock, 8 * d.nblocks * (kSumBlock + 1));
           }),
       sizes);
  }
}

}  // namespace loom::bench
