// Timings of the CUDA target on a GPU machine, at the Backend level (medians of event-timed runs
// after warm-up): the device-to-device copy as the bandwidth limit, sinexp on device arrays
// (float32, float64, 64M), host time per call of a one-element ufunc, sinexp on host arrays
// (transfers included), sum of 2^28 float32 and sum_row of a (4096, 64, 256) float32 batch.
// `timing [file] --methods`: the copy and the ufunc methods only (add.accumulate of 2^26 float32,
// add.at of 1e7 float64 into 1e5 bins, the ordered paths), each as the loop alone (a ScanCall /
// AtCall on device memory) and through the public API on device arrays.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "loom/backend.hpp"
#include "loom/loom.hpp"

namespace {

using loom::Array;
using loom::DType;
using loom::Shape;

loom::Backend* B = nullptr;

Array dev_empty(const Shape& s, DType dt) {
  const std::size_t isz = loom::itemsize(dt);
  return Array(B->allocate(static_cast<std::size_t>(loom::shape_size(s)) * isz, 0, nullptr), dt, s,
               loom::c_strides(s, isz));
}
Array to_dev(const Array& h) {
  Array d = dev_empty(h.shape(), h.dtype());
  B->copy(d.data(), h.data(), static_cast<std::size_t>(h.size()) * h.itemsize(),
          loom::CopyKind::host_to_device, 0, nullptr);
  return d;
}
const loom::LoopImpl* impl(const loom::Runtime& rt, const std::string& op, DType dt) {
  for (const auto& l : rt.registry().find(op)->loops) {
    if (l.sig.inputs[0] == dt) return &l.impl[static_cast<int>(loom::Family::cuda)];
  }
  return nullptr;
}
template <class C>
void set_nin(C& c, int nin) {
  if constexpr (requires { c.nin; }) c.nin = nin;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Median device time (ms) of f over reps, after warm-ups.
double device_ms(const std::function<void()>& f, int reps = 20) {
  void* e0 = B->create_event(0);
  void* e1 = B->create_event(0);
  for (int i = 0; i < 3; ++i) f();
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    B->record_event(e0, nullptr);
    f();
    B->record_event(e1, nullptr);
    B->synchronize_event(e1);
    t.push_back(B->elapsed_ms(e0, e1));
  }
  B->destroy_event(0, e0);
  B->destroy_event(0, e1);
  return median(t);
}

double wall_ms(const std::function<void()>& f, int reps = 5) {
  f();
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    B->synchronize(0, nullptr);
    t.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  return median(t);
}

// The ufunc methods: the loop alone (the call as the core builds it, on device memory), and the
// public call on device arrays (allocation and the core's checks included).
template <class Row>
void methods(const loom::Runtime& rt, const Row& row, double copy_gbs) {
  const std::int64_t n = std::int64_t{1} << 26;
  for (DType dt : {DType::float32, DType::float64, DType::int32}) {
    const Array x = loom::linspace(-1.0, 1.0, n, true, DType::float64).astype(dt);
    const Array dx = to_dev(x), dz = dev_empty({n}, dt);
    loom::ScanCall c;
    c.out = dz.data();
    c.x = dx.data();
    c.n = n;
    c.out_step = c.x_step = static_cast<std::int64_t>(loom::itemsize(dt));
    c.loop = impl(rt, "add", dt);
    c.dtype = dt;
    c.reorderable = true;
    const std::string name = "add.accumulate " + std::string(loom::name(dt)) + " 2^26, loop";
    row(name.c_str(), device_ms([&] { B->run_scan(c, 0); }), 2.0 * n * loom::itemsize(dt),
        copy_gbs);
  }
  {
    const Array dx = rt.to_device(loom::linspace(-1.0, 1.0, n, true, DType::float32), "cuda");
    const loom::Ufunc add = rt.ufunc("add");
    row("add.accumulate float32 2^26, rt call (device)",
        device_ms([&] { (void)add.accumulate(dx, {.target = "cuda"}); }), 2.0 * n * 4, copy_gbs);
    const loom::Ufunc sub = rt.ufunc("subtract");
    const Array dm =
        rt.to_device(loom::linspace(-1.0, 1.0, 4096 * 4096, true).reshape({4096, 4096}), "cuda");
    row("subtract.accumulate float64 (4096,4096) axis 0 (ordered)",
        device_ms([&] { (void)sub.accumulate(dm, {.target = "cuda", .axis = 0}); }, 5),
        2.0 * 4096 * 4096 * 8, copy_gbs);
    const Array d1 = rt.to_device(loom::linspace(-1.0, 1.0, 1 << 20, true), "cuda");
    row("subtract.accumulate float64 2^20, one line (ordered)",
        device_ms([&] { (void)sub.accumulate(d1, {.target = "cuda"}); }, 3), 2.0 * (1 << 20) * 8,
        copy_gbs);
    row("subtract.reduce float64 (4096,4096) axis 1 (ordered)",
        device_ms([&] { (void)sub.reduce(dm, {.target = "cuda", .axis = 1}); }, 5),
        4096.0 * 4096 * 8, copy_gbs);
    row("subtract.reduce float64 (4096,4096) axis 0 (ordered)",
        device_ms([&] { (void)sub.reduce(dm, {.target = "cuda", .axis = 0}); }, 5),
        4096.0 * 4096 * 8, copy_gbs);
  }
  // at: 1e7 values at uniform random indices into 1e5 bins.
  const std::int64_t m = 10'000'000, bins = 100'000;
  std::mt19937_64 gen(7);
  std::vector<std::int64_t> iv(static_cast<std::size_t>(m));
  for (auto& i : iv) i = static_cast<std::int64_t>(gen() % static_cast<std::uint64_t>(bins));
  const Array idx = loom::from_vector(iv);
  const Array didx = to_dev(idx);
  for (DType dt : {DType::float64, DType::int64, DType::float32}) {
    const Array db = to_dev(loom::linspace(0.0, 1.0, m, true, DType::float64).astype(dt));
    const Array da = to_dev(loom::zeros({bins}, dt));
    for (const char* op : {"add", "subtract"}) {
      if (std::string(op) == "subtract" && dt != DType::float64) continue;
      loom::AtCall c;
      c.a = da.data();
      c.a_step = static_cast<std::int64_t>(loom::itemsize(dt));
      c.idx = reinterpret_cast<const std::int64_t*>(didx.data());
      c.m = m;
      c.b = db.data();
      c.b_step = c.a_step;
      c.loop = impl(rt, op, dt);
      c.dtype = dt;
      c.reorderable = std::string(op) == "add";
      const std::string name = std::string(op) + ".at " + std::string(loom::name(dt)) +
                               " 1e7 into 1e5, loop" + (c.reorderable ? "" : " (ordered)");
      row(name.c_str(), device_ms([&] { B->run_at(c, 0); }, 10), 0, 0);
    }
  }
  {
    const Array da = rt.to_device(loom::zeros({bins}, DType::float64), "cuda");
    const Array db = rt.to_device(loom::linspace(0.0, 1.0, m, true, DType::float64), "cuda");
    const Array di = rt.to_device(idx, "cuda");
    const loom::Ufunc add = rt.ufunc("add");
    row("add.at float64 1e7 into 1e5, rt call (device)",
        device_ms([&] { add.at(da, di, db, {.target = "cuda"}); }, 5), 0, 0);
  }
}

}  // namespace

int main(int argc, char** argv) {
  loom::Runtime rt;
  for (const auto& t : rt.targets()) {
    if (t.target == "cuda" && !t.available) {
      std::printf("cuda unavailable: %s\n", t.reason.c_str());
      return 0;
    }
  }
  B = rt.resolve_target("cuda").first;
  std::printf("%s\n", B->describe().c_str());
  FILE* out = argc > 1 && std::string(argv[1]) != "--methods" ? std::fopen(argv[1], "w") : nullptr;
  auto row = [&](const char* what, double ms, double bytes, double copy_gbs) {
    const double gbs = bytes > 0 ? bytes / (ms * 1e6) : 0;
    char line[256];
    if (bytes > 0 && copy_gbs > 0) {
      std::snprintf(line, sizeof line, "%-44s %10.4f ms %8.1f GB/s %6.1f %% of copy\n", what, ms,
                    gbs, 100 * gbs / copy_gbs);
    } else if (bytes > 0) {
      std::snprintf(line, sizeof line, "%-44s %10.4f ms %8.1f GB/s\n", what, ms, gbs);
    } else {
      std::snprintf(line, sizeof line, "%-44s %10.4f ms\n", what, ms);
    }
    std::fputs(line, stdout);
    if (out) std::fputs(line, out);
  };

  // Device-to-device copy of 1 GiB: bytes read plus written.
  const std::size_t cbytes = std::size_t{1} << 30;
  auto src = B->allocate(cbytes, 0, nullptr), dst = B->allocate(cbytes, 0, nullptr);
  B->copy(src->data(), Array(0.0).data(), 0, loom::CopyKind::host_to_device, 0, nullptr);
  const double copy_ms = device_ms([&] {
    B->copy(dst->data(), src->data(), cbytes, loom::CopyKind::device_to_device, 0, nullptr);
  });
  const double copy_gbs = 2.0 * cbytes / (copy_ms * 1e6);
  row("copy 1 GiB device to device", copy_ms, 2.0 * cbytes, 0);
  bool methods_only = false;
  for (int i = 1; i < argc; ++i) methods_only = methods_only || std::string(argv[i]) == "--methods";
  if (methods_only) {
    methods(rt, row, copy_gbs);
    if (out) std::fclose(out);
    return 0;
  }

  const std::int64_t n = std::int64_t{1} << 26;  // 64M
  for (DType dt : {DType::float32, DType::float64}) {
    const Array x = loom::linspace(0.0, 6.283185307179586, n, true, dt);
    const Array y = loom::full({n}, 0.25, dt);
    const Array dx = to_dev(x), dy = to_dev(y), dz = dev_empty({n}, dt);
    loom::ElementwiseCall c{loom::StridedIter::make(std::vector<Array>{dx, dy, dz}, {n}),
                            impl(rt, "sinexp", dt)};
    set_nin(c, 2);
    const double ms = device_ms([&] { B->run_elementwise(c, 0); });
    row(dt == DType::float32 ? "sinexp float32 64M, device arrays"
                             : "sinexp float64 64M, device arrays",
        ms, 3.0 * n * loom::itemsize(dt), copy_gbs);
  }

  {  // Host time per call of a one-element ufunc on device arrays (no synchronize per call).
    const Array a = to_dev(loom::full({1}, 1.0, DType::float32));
    const Array r = dev_empty({1}, DType::float32);
    loom::ElementwiseCall c{loom::StridedIter::make(std::vector<Array>{a, a, r}, {1}),
                            impl(rt, "add", DType::float32)};
    set_nin(c, 2);
    for (int i = 0; i < 100; ++i) B->run_elementwise(c, 0);
    B->synchronize(0, nullptr);
    const int calls = 20000;
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) B->run_elementwise(c, 0);
    const double us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() /
        calls;
    B->synchronize(0, nullptr);
    row("add 1 element, host time per call (us->ms)", us / 1000.0, 0, 0);
  }

  {  // sinexp float32 64M on host arrays: staged in chunks, copies overlapping compute.
    const Array x = loom::linspace(0.0, 6.283185307179586, n, true, DType::float32);
    const Array y = loom::full({n}, 0.25, DType::float32);
    Array z = loom::empty({n}, DType::float32);
    loom::ElementwiseCall c{loom::StridedIter::make(std::vector<Array>{x, y, z}, {n}),
                            impl(rt, "sinexp", DType::float32), nullptr, 0b111};
    set_nin(c, 2);
    const double ms = wall_ms([&] { B->run_elementwise(c, 0); });
    row("sinexp float32 64M, host arrays (wall)", ms, 3.0 * n * 4, 0);
  }

  {  // sum of 2^28 float32 on the device.
    const std::int64_t m = std::int64_t{1} << 28;
    const Array x = to_dev(loom::full({m}, 1.0, DType::float32));
    const Array s = to_dev(loom::full({1}, 0.0, DType::float32));
    const Array ops[] = {s.broadcast_to({m}), x};
    loom::ReduceCall c{loom::StridedIter::make(ops, {m}), impl(rt, "sum", DType::float32),
                       DType::float32};
    const double ms = device_ms([&] { B->run_reduce(c, 0); });
    row("sum 2^28 float32, device", ms, 4.0 * m, copy_gbs);
  }

  {  // sum_row of a (4096, 64, 256) float32 batch on the device (team path).
    const Shape s{4096, 64, 256};
    const Array a = to_dev(loom::full(s, 1.0, DType::float32));
    const Array o = dev_empty({4096, 64}, DType::float32);
    loom::GufuncCall c{{}, {64, 256}, {256 * 4, 4, 4}, impl(rt, "sum_row", DType::float32)};
    char* base[] = {a.data(), o.data()};
    const Shape st[] = {Shape{64 * 256 * 4}, Shape{64 * 4}};
    c.outer = loom::StridedIter::make(base, st, {4096});
    const double ms = device_ms([&] { B->run_gufunc(c, 0); });
    row("sum_row (4096,64,256) float32, device", ms, 4096.0 * 64 * 257 * 4, copy_gbs);
  }
  if (out) std::fclose(out);
  return 0;
}
