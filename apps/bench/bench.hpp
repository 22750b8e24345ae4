// loom-bench's registration: loom calls per available target, and hand-written baselines that
// the loom numbers are read against (same sizes, same names apart from the prefix).
#pragma once
#include <benchmark/benchmark.h>

#include <cstdint>
#include <functional>
#include <loom/loom.hpp>
#include <string>
#include <vector>

namespace loom::bench {

struct Sizes {
  std::int64_t small = 1 << 20;   // "1M"
  std::int64_t large = 64 << 20;  // "64M"; 4M with LOOM_BENCH_SMALL=1
  std::int64_t huge = 1 << 28;    // "256M": the sum of 2^28 (not on cpu; none when small)
  Shape cube{256, 256, 256};      // the seeds' 3-D maximum
  Shape sum_row{4096, 64, 256};   // (instances, n, m); first axis /16 with LOOM_BENCH_SMALL=1
  double large_min_time = 0.2;    // seconds; large cases run only a few iterations
  std::int64_t linalg_batch = 1'000'000;  // 4x4 matrices per batched linalg case; /16 when small
  std::int64_t device_set = std::int64_t{1} << 30;  // "1G": issue 16's size; 4M when small
};

Sizes sizes_from_env();

// Device rows timed as peers.py times CuPy: CUDA events on one stream around kDeviceBatch calls
// queued back to back, one wait, the time per call (register with UseManualTime). Every device
// case has such a row, "<case>/<target>_batch", beside its "<case>/<target>" row, which waits for
// the device after every call (the host round trip included). `call` queues one call on `s`.
constexpr int kDeviceBatch = 10;
void time_on_stream(benchmark::State& st, const Stream& s, const std::function<void()>& call);

// Cases named "<op>/<dtype>/<size>/<target>", e.g. sinexp/float32/64M/cpu. On a device target,
// device=true registers device-array cases ("cuda"), false host-array ones ("cuda_host").
void register_loom_cases(const Runtime& rt, const std::string& target, const Sizes& sizes,
                         bool device = false);
// Custom kernels (plugins/kernels) on one target: kernel_histogram_<B>bins and
// kernel_histogram_shared_<B>bins (B = 10, 1024) and kernel_hypot_stride, float32 of sizes.large.
// device: device arrays (cuda targets); host targets pass false.
void register_kernel_cases(const Runtime& rt, const std::string& target, const Sizes& sizes,
                           bool device);
// The ufunc methods' cases (apps/bench/method_cases.cpp): add_accumulate, add_at_100000bins and
// subtract_reduce_axis1; device targets (device=true) on device arrays, labelled with the target.
void register_method_cases(const Runtime& rt, const std::string& target, const Sizes& sizes,
                           bool device);
// One op called with out= (from an untimed warm-up call) on `in` per iteration; with `device`,
// eight calls back to back then one wait for the device (peers.py's CUDA-event timing of CuPy);
// bytes are the inputs read plus the outputs written, items in[0]'s size.
// Throws loom::Error for the caller's SkipWithError.
void timed_call(benchmark::State& st, const Runtime& rt, const std::string& op,
                const std::string& target, const std::vector<Array>& in, bool device);
// The example plugin's two-output black_scholes and one-output black_scholes_call (float32,
// sizes.large / 4) on a host target; nothing when the example plugin is not loaded.
void register_outs_cases(const Runtime& rt, const std::string& target, const Sizes& sizes);
// The catalogue's cases (apps/bench/catalogue_cases.cpp), "cat_<op>/<dtype>/<size>/<target>":
// multiply and less float32 (parallel, cuda), sin exp log arctan2 power float32 (cpu), multiply
// and exp float16 and complex64 (cuda device arrays); only where the op has the loop.
void register_catalogue_cases(const Runtime& rt, const std::string& target, const Sizes& sizes,
                              bool device);
// Batched linear algebra (apps/bench/linalg_cases.cpp): matmul, det, inv of sizes.linalg_batch
// 4x4 float64 matrices, matmul of 64 256x256 float32 (device targets), one float64 solve (4096 on
// a device, 1024 on the host). Registered as register_loom_cases is: device=false on a device
// target gives "<target>_host" cases on host arrays.
void register_linalg_cases(const Runtime& rt, const std::string& target, const Sizes& sizes,
                           bool device = false);
// baseline_loop/histogram_<B>bins/float32/<size> (B = 10, 1024): the plain one-pass loop over the
// kernel cases' input, to read kernel_histogram*_<B>bins against.
void register_kernel_baselines(const Sizes& sizes);
// Cases named "baseline_loop/<op>/<dtype>/<size>" and "baseline_memcpy/<dtype>/<size>".
void register_baselines(const Sizes& sizes);
// Host kernel paths (apps/bench/kernel_path_cases.cpp): kernel_hypot_stride_sized (.size = n),
// kernel_add_stride ([1024, 256]) and kernel_add_stride_sized, kernel_maximum_3d (256^3, 8x8x8
// blocks), kernel_jacobi_2d (4096x4096 float32), kernel_block_sum and kernel_block_sum_sync (16M
// float64, 256-thread blocks), and their plain loops (register_kernel_path_baselines; add's is
// baseline_loop/add in register_baselines).
void register_kernel_path_cases(const Runtime& rt, const std::string& target, const Sizes& sizes,
                                bool device);
void register_kernel_path_baselines(const Sizes& sizes);
// Device sets (apps/bench/device_set_cases.cpp): set_sinexp, set_sum (sharded device arrays) and
// set_sinexp_host (host arrays), float32 of sizes.device_set, on "<target>:all" (labelled
// <target>_all) and on the first device alone as a set (<target>_0): the speed-up of every GPU
// over one is the ratio of the two.
void register_device_set_cases(const Runtime& rt, const std::string& target, const Sizes& sizes);
// loom::random (apps/bench/random_cases.cpp): random_uniform and random_normal float32/float64,
// random_integers int64 in [0, 1000), of sizes.large, into out= (device arrays on a device
// target, kDeviceBatch calls per synchronize), and random_monte_carlo_pi/float32/<points>: the
// seeds' compute_pi on xoroshiro128p states, 1024 x 256 threads.
void register_random_cases(const Runtime& rt, const std::string& target, const Sizes& sizes,
                           bool device);

// loom::stats (apps/bench/stats_cases.cpp): stats_mean, stats_var, stats_argmax of sizes.large
// float32, stats_bincount of int32 in [0, 1000), stats_histogram of float32 into 100 bins of
// [0, 1) (device arrays on a device target, kDeviceBatch calls per synchronize).
void register_stats_cases(const Runtime& rt, const std::string& target, const Sizes& sizes,
                          bool device);

}  // namespace loom::bench
