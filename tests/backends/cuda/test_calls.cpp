// CUDA loops of plugins/math against the cpu target: every ufunc loop on contiguous, misaligned,
// strided and broadcast device operands and on host operands larger than a staging chunk;
// reductions (full and along axes, bitwise deterministic); gufuncs on both the thread-per-
// instance and the warp-per-instance (team) paths.
#include <functional>
#include <limits>
#include <set>
#include <string>

#include "helpers.hpp"
#include "staging_sizes.hpp"

namespace {

// These tests write "every axis" as an empty list (loom::Axes() is "not given": every axis).
loom::Axes axes_of(const std::vector<int>& v) { return v.empty() ? loom::Axes() : loom::Axes(v); }

using loom::Array;
using loom::DType;
using loom::Shape;
using loom_cuda_test::close;
using loom_cuda_test::cuda_impl;
using loom_cuda_test::cuda_loop;
using loom_cuda_test::device_empty;
using loom_cuda_test::random_array;
using loom_cuda_test::run_elementwise;
using loom_cuda_test::runtime;
using loom_cuda_test::same_bits;
using loom_cuda_test::to_device;
using loom_cuda_test::to_host;

constexpr std::size_t kChunk = loom::backend::cuda_backend::kChunkBytes;

// Ops whose float results are exact or correctly rounded on both sides (IEEE operations, one
// multiply by a constant, the same code on host and device): bit for bit. Every other float op
// calls a math library (xsimd or glibc on the host, CUDA's libdevice on the device) whose results
// differ by a few ulps (docs/catalogue.md bounds them against the exact value).
double rtol_for(const std::string& op, DType dt) {
  static const std::set<std::string> exact = {
      "add",          "subtract",  "multiply", "divide",    "true_divide", "square",    "sqrt",
      "negative",     "positive",  "abs",      "absolute",  "fabs",        "maximum",   "minimum",
      "fmax",         "fmin",      "divmod",   "modf",      "floor",       "ceil",      "trunc",
      "rint",         "sign",      "copysign", "nextafter", "spacing",     "ldexp",     "frexp",
      "floor_divide", "remainder", "mod",      "fmod",      "reciprocal",  "heaviside", "conjugate",
      "hypot",        "deg2rad",   "rad2deg",  "degrees",   "radians"};
  if (loom::kind(dt) == loom::Kind::complex) {
    // The same formulas of IEEE operations on both sides (plugins/math/complex_ops.hpp); the
    // others are glibc's complex functions on the host and libcu++'s on the device.
    static const std::set<std::string> cexact = {
        "add",      "subtract", "multiply",  "divide", "true_divide",
        "negative", "positive", "conjugate", "square", "reciprocal",
        "maximum",  "minimum",  "fmax",      "fmin",   "rint"};
    if (cexact.count(op)) return 0.0;
    return dt == DType::complex64 ? 1e-4 : 1e-12;
  }
  if (exact.count(op)) return 0.0;
  // float16 loops compute in float and round once: a float result a few ulps away on the device
  // may round to the neighbouring float16 (one float16 ulp is at most 2^-10 of the value).
  if (dt == DType::float16) return 1e-3;
  return dt == DType::float32 ? 1e-5 : 1e-13;
}

Array inputs_for(const std::string& op, const Shape& shape, DType dt, unsigned seed) {
  if (op == "divmod") return random_array(shape, dt, seed, -50, 50, true);
  if (op == "sqrt" || op == "log") return random_array(shape, dt, seed, 0.01, 100);
  return random_array(shape, dt, seed, -10, 10, loom::kind(dt) != loom::Kind::floating);
}

// out[k] for every output of `op` on host arrays, on the cpu target.
std::vector<Array> cpu_outputs(const std::string& op, const std::vector<Array>& in) {
  return runtime().ufunc(op).call(in, {.target = "cpu"});
}

std::vector<std::string> ufunc_names() {
  std::vector<std::string> v;
  for (const auto& d : runtime().registry().list()) {
    if (d->kind == loom::OpKind::ufunc && d->has_family(loom::Family::cuda)) v.push_back(d->name);
  }
  return v;
}

// Every loop of every ufunc; inputs as device views of `make`'s host arrays, outputs poisoned.
void check_all_loops(loom::Backend* b, const Shape& shape,
                     const std::function<Array(const Array&, Array*)>& view) {
  unsigned seed = 1;
  for (const std::string& op : ufunc_names()) {
    const auto desc = runtime().registry().find(op);
    for (const auto& l : desc->loops) {
      const DType dt = l.sig.inputs[0];
      std::vector<Array> in_h, in_d;
      for (std::size_t i = 0; i < l.sig.inputs.size(); ++i) {
        // Each input of its own dtype: ldexp's exponent is an integer, `greater`'s (int64, uint64)
        // loop reads the second operand as uint64.
        const Array h = inputs_for(op, shape, l.sig.inputs[i], seed++);
        Array hv = h;
        in_d.push_back(view(h, &hv));
        in_h.push_back(hv);
      }
      std::vector<Array> ops = in_d, outs_d;
      for (DType o : l.sig.outputs) {
        Array poison =
            loom::full(shape, std::numeric_limits<double>::quiet_NaN(), DType::float64).astype(o);
        Array pv = poison;
        outs_d.push_back(view(poison, &pv));
        ops.push_back(outs_d.back());
      }
      run_elementwise(b, l, ops, in_h[0].shape());
      const auto want = cpu_outputs(op, in_h);
      for (std::size_t k = 0; k < outs_d.size(); ++k) {
        EXPECT_TRUE(close(to_host(b, outs_d[k]), want[k], rtol_for(op, dt)))
            << op << " " << l.sig.str() << " output " << k;
      }
    }
  }
}

TEST(Elementwise, EveryLoopContiguous) {
  LOOM_CUDA_OR_SKIP(b);
  for (std::int64_t n : {std::int64_t{1}, std::int64_t{3}, std::int64_t{100'003}}) {
    check_all_loops(b, {n}, [&](const Array& h, Array*) { return to_device(b, h); });
  }
}

// Views starting one element in: the vector path takes a scalar head when every operand is
// shifted alike, and the scalar path otherwise (outputs stay aligned).
TEST(Elementwise, EveryLoopMisaligned) {
  LOOM_CUDA_OR_SKIP(b);
  const std::int64_t n = 10'007;
  check_all_loops(b, {n}, [&](const Array& h, Array* hv) {
    Array big = loom::empty({n + 1}, h.dtype());
    loom::copy_cast(h, big.slice(0, 1, n + 1));
    *hv = h;
    return to_device(b, big).slice(0, 1, n + 1);
  });
}

// Strided views of a larger device array (every third element, backwards).
TEST(Elementwise, EveryLoopStrided) {
  LOOM_CUDA_OR_SKIP(b);
  const std::int64_t n = 30'001;
  check_all_loops(b, {n}, [&](const Array& h, Array* hv) {
    Array big = loom::empty({3 * n}, h.dtype());
    loom::copy_cast(h, big.slice(0, -1, -3 * n - 1, -3));
    *hv = h;
    return to_device(b, big).slice(0, -1, -3 * n - 1, -3);
  });
}

// Broadcasting and transposed operands: a 2-D iteration that does not coalesce.
TEST(Elementwise, BroadcastAndTransposed) {
  LOOM_CUDA_OR_SKIP(b);
  auto f = runtime().ufunc("sinexp");
  for (DType dt : {DType::float32, DType::float64}) {
    const auto& l = cuda_loop("sinexp", dt);
    const Array col = random_array({1500, 1}, dt, 1), row = random_array({1, 700}, dt, 2);
    Array out = device_empty(b, {1500, 700}, dt);
    run_elementwise(b, l,
                    {to_device(b, col).broadcast_to({1500, 700}),
                     to_device(b, row).broadcast_to({1500, 700}), out},
                    {1500, 700});
    EXPECT_TRUE(close(to_host(b, out), f(col, row, {.target = "cpu"}), rtol_for("sinexp", dt)));
    const Array m = random_array({700, 1500}, dt, 3);
    const Array m2 = random_array({1500, 700}, dt, 4);
    Array out2 = device_empty(b, {1500, 700}, dt);
    run_elementwise(b, l, {to_device(b, m).transpose(), to_device(b, m2), out2}, {1500, 700});
    EXPECT_TRUE(
        close(to_host(b, out2), f(m.transpose(), m2, {.target = "cpu"}), rtol_for("sinexp", dt)));
  }
}

TEST(Elementwise, MoreThanEightDimsIsAnError) {
  LOOM_CUDA_OR_SKIP(b);
  // Nine dims of 2 whose strides never merge: a transposed 9-d operand.
  Shape shape(9, 2);
  const Array x = to_device(b, random_array({512}, DType::float32, 1)).reshape(shape);
  std::vector<int> axes = {8, 7, 6, 5, 4, 3, 2, 1, 0};
  const Array xt = x.transpose(axes);
  Array out = device_empty(b, shape, DType::float32);
  try {
    run_elementwise(b, cuda_loop("add", DType::float32), {xt, x, out}, shape);
    FAIL() << "a 9-d iteration ran";
  } catch (const loom::DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("at most 8"), std::string::npos) << e.what();
  }
}

// Host operands stream through pinned buffers in chunks: sizes over several chunks, every mix of
// host and device operands, and a 2-D call with a broadcast device operand (chunks of rows).
TEST(Elementwise, HostOperandsLargerThanAChunk) {
  LOOM_CUDA_OR_SKIP(b);
  auto f = runtime().ufunc("sinexp");
  const auto& l = cuda_loop("sinexp", DType::float32);
  const std::int64_t n = 3 * static_cast<std::int64_t>(kChunk / 4) + 12'345;
  const Array x = random_array({n}, DType::float32, 1), y = random_array({n}, DType::float32, 2);
  const Array want = f(x, y, {.target = "cpu"});
  const Array dx = to_device(b, x), dy = to_device(b, y);
  for (std::uint32_t mask = 1; mask < 8; ++mask) {
    Array out_h = loom::full({n}, -7.0, DType::float32);
    Array out_d = device_empty(b, {n}, DType::float32);
    const Array a0 = (mask & 1) ? x : dx, a1 = (mask & 2) ? y : dy, a2 = (mask & 4) ? out_h : out_d;
    run_elementwise(b, l, {a0, a1, a2}, {n}, nullptr, mask);
    EXPECT_TRUE(close((mask & 4) ? out_h : to_host(b, out_d), want, 1e-5)) << "mask " << mask;
    EXPECT_TRUE(same_bits(x, random_array({n}, DType::float32, 1))) << "input changed";
  }
  // Rows of a 2-D host array with a broadcast device row: not one run, chunked by rows.
  const Array big = random_array({700, 3001}, DType::float32, 3);
  const Array row = random_array({3001}, DType::float32, 4);
  Array out_h = loom::empty({700, 3001}, DType::float32);
  run_elementwise(b, l, {big, to_device(b, row).broadcast_to({700, 3001}), out_h}, {700, 3001},
                  nullptr, 0b101);
  EXPECT_TRUE(close(out_h, f(big, row, {.target = "cpu"}), 1e-5));
}

// ---- reductions ----

struct RedCase {
  Shape shape;
  std::vector<int> axis;  // empty: all
};

// Runs reduction `op` of x (host) on the device, the output pre-filled as the core does.
Array device_reduce(loom::Backend* b, const std::string& op, const Array& x,
                    const std::vector<int>& axis, const Array* x_dev = nullptr) {
  const auto& l = cuda_loop(op, x.dtype());
  const int nd = x.ndim();
  std::vector<bool> red(nd, axis.empty());
  for (int a : axis) red[a] = true;
  Shape kept;
  for (int k = 0; k < nd; ++k) kept.push_back(red[k] ? 1 : x.shape()[k]);
  Array start;
  if (op == "sum" || op == "prod") {
    start = loom::full(kept, op == "sum" ? 0.0 : 1.0, x.dtype());
  } else {
    Array first = x;
    for (int k = nd - 1; k >= 0; --k) {
      if (red[k]) first = first.slice(k, 0, 1);
    }
    start = first.copy();
  }
  Array res = to_device(b, start);
  const Array xd = x_dev ? *x_dev : to_device(b, x);
  const Array ops[] = {res.broadcast_to(x.shape()), xd};
  loom::ReduceCall c{loom::StridedIter::make(ops, x.shape()), cuda_impl(l), x.dtype()};
  b->run_reduce(c, 0);
  return to_host(b, res);
}

Array cpu_reduce(const std::string& op, const Array& x, const std::vector<int>& axis) {
  return runtime().reduce(op)(x, {.target = "cpu", .axis = axes_of(axis), .keepdims = true});
}

const RedCase kCases[] = {{{1}, {}},
                          {{31}, {}},
                          {{100'003}, {}},
                          {{(1 << 22) + 5}, {}},
                          {{1000, 300}, {1}},
                          {{300, 5000}, {0}},
                          {{40, 50, 60}, {0, 2}},
                          {{64, 40, 30}, {1, 2}},
                          {{20, 2000, 3}, {0}},
                          {{2, 300'000}, {1}},
                          {{300'000, 3}, {0}},
                          {{7, 2, 9, 500}, {0, 2, 3}}};

// Whole numbers in [-1, 1]: sums are exact in any order, so the device must equal the host.
TEST(Reduce, SumProdMaxMinMatchCpu) {
  LOOM_CUDA_OR_SKIP(b);
  unsigned seed = 1;
  for (const auto& c : kCases) {
    for (DType dt : {DType::int64, DType::float32, DType::float64}) {
      const Array x = random_array(c.shape, dt, seed++, -1, 2, true);
      for (const char* op : {"sum", "max", "min"}) {
        EXPECT_TRUE(same_bits(device_reduce(b, op, x, c.axis), cpu_reduce(op, x, c.axis)))
            << op << " " << loom::name(dt) << " " << loom::shape_str(c.shape);
      }
      // prod of +-1 is exact too.
      Array s = random_array(c.shape, dt, seed++, 0, 2, true);
      Array pm = runtime().ufunc("subtract")(
          runtime().ufunc("multiply")(s, Array(2).astype(dt), {.target = "cpu"}),
          Array(1).astype(dt), {.target = "cpu"});
      EXPECT_TRUE(same_bits(device_reduce(b, "prod", pm, c.axis), cpu_reduce("prod", pm, c.axis)))
          << "prod " << loom::name(dt) << " " << loom::shape_str(c.shape);
    }
    const Array xi = random_array(c.shape, DType::int32, seed++, -1000, 1000, true);
    EXPECT_TRUE(same_bits(device_reduce(b, "max", xi, c.axis), cpu_reduce("max", xi, c.axis)));
  }
}

// Random reals: close to the host, and the same bits on every run.
TEST(Reduce, DeterministicAndClose) {
  LOOM_CUDA_OR_SKIP(b);
  unsigned seed = 50;
  for (const auto& c : kCases) {
    for (DType dt : {DType::float32, DType::float64}) {
      const Array x = random_array(c.shape, dt, seed++, 0, 1);
      const Array xd = to_device(b, x);
      const Array first = device_reduce(b, "sum", x, c.axis, &xd);
      for (int rep = 0; rep < 3; ++rep) {
        EXPECT_TRUE(same_bits(device_reduce(b, "sum", x, c.axis, &xd), first))
            << loom::shape_str(c.shape);
      }
      // Against float64 on the host: the cpu target sums a kept-innermost axis one row after
      // another, and in float32 that is the less accurate of the two.
      const Array ref = cpu_reduce("sum", x.astype(DType::float64), c.axis).astype(dt);
      EXPECT_TRUE(close(first, ref, dt == DType::float32 ? 2e-6 : 1e-12))
          << loom::shape_str(c.shape);
    }
  }
  // NaN propagates through max.
  Array x = random_array({100'000}, DType::float32, 9);
  x.at<float>(77'777) = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(std::isnan(device_reduce(b, "max", x, {}).item<float>()));
}

// A transposed (strided) input, reduced along each axis.
TEST(Reduce, StridedInput) {
  LOOM_CUDA_OR_SKIP(b);
  const Array x = random_array({500, 700}, DType::float64, 3, -1, 2, true);
  const Array xd = to_device(b, x);
  const Array xt = x.transpose(), xdt = xd.transpose();
  for (std::vector<int> axis : {std::vector<int>{0}, std::vector<int>{1}, std::vector<int>{}}) {
    EXPECT_TRUE(same_bits(device_reduce(b, "sum", xt, axis, &xdt), cpu_reduce("sum", xt, axis)));
  }
}

// ---- gufuncs ----

// Runs gufunc `op` on device copies of `in` (all with the same loop shape), outputs of the
// given full shapes; returns the outputs on the host.
std::vector<Array> device_gufunc(loom::Backend* b, const std::string& op,
                                 const std::vector<Array>& in,
                                 const std::vector<Shape>& out_shapes) {
  const auto desc = runtime().registry().find(op);
  const loom::Layout& L = *desc->layout;
  const auto& l = cuda_loop(op, in[0].dtype());
  std::vector<Array> args;
  for (const auto& a : in) args.push_back(to_device(b, a));
  for (std::size_t k = 0; k < out_shapes.size(); ++k) {
    args.push_back(device_empty(b, out_shapes[k], l.sig.outputs[k]));
  }
  std::vector<std::int64_t> dims = L.dim_sizes;
  const int nl = args[0].ndim() - L.core_num_dims[0];
  const Shape loop_shape(args[0].shape().begin(), args[0].shape().begin() + nl);
  loom::GufuncCall call{{}, {}, {}, cuda_impl(l)};
  loom::SmallVec<char*, 4> base;
  loom::SmallVec<Shape, 4> outer;
  for (int a = 0; a < static_cast<int>(args.size()); ++a) {
    const int nc = L.core_num_dims[a];
    for (int j = 0; j < nc; ++j) {
      dims[L.core_dim_ixs[L.core_offsets[a] + j]] = args[a].shape()[nl + j];
      call.core_steps.push_back(args[a].strides()[nl + j]);
    }
    base.push_back(args[a].data());
    outer.push_back(Shape(args[a].strides().begin(), args[a].strides().begin() + nl));
  }
  call.core_dims = dims;
  call.outer =
      loom::StridedIter::make(std::span<char* const>(base.data(), base.size()),
                              std::span<const Shape>(outer.data(), outer.size()), loop_shape);
  b->run_gufunc(call, 0);
  std::vector<Array> res;
  for (std::size_t k = in.size(); k < args.size(); ++k) res.push_back(to_host(b, args[k]));
  return res;
}

TEST(Gufunc, SumRowOnBothPaths) {
  LOOM_CUDA_OR_SKIP(b);
  auto f = runtime().gufunc("sum_row");
  const Shape shapes[] = {{64, 8, 300},   // team, wide rows (four at a time)
                          {7, 11, 77},    // team: two groups of four rows, three rows alone
                          {3, 9, 600},    // team: two chunks of loads per member, then the rest
                          {500, 40, 5},   // team, narrow rows (a row per lane)
                          {300, 5, 20},   // team, narrow rows (float64: cascade_sum's lanes)
                          {1000, 3, 5},   // thread per instance (15 elements)
                          {2, 3000, 1}};  // team: one column
  unsigned seed = 1;
  for (const Shape& s : shapes) {
    for (DType dt : {DType::int32, DType::float32, DType::float64}) {
      const Array a = random_array(s, dt, seed++, -1, 2, true);  // whole numbers: exact sums
      const auto got = device_gufunc(b, "sum_row", {a}, {{s[0], s[1]}});
      EXPECT_TRUE(same_bits(got[0], f(a, {.target = "cpu"})))
          << loom::shape_str(s) << " " << loom::name(dt);
      const Array r = random_array(s, dt, seed++, 0, 1);
      const Array want = f(r, {.target = "cpu"});
      const Array sums = device_gufunc(b, "sum_row", {r}, {{s[0], s[1]}})[0];
      EXPECT_TRUE(close(sums, want, dt == DType::float32 ? 1e-5 : 1e-12));
      // Narrow rows take cascade_sum's order on both targets: the same bits.
      if (s[2] < 32) {
        EXPECT_TRUE(same_bits(sums, want)) << loom::shape_str(s) << " " << loom::name(dt);
      }
    }
  }
  // Rows that do not start on 16 bytes (a view one element in) take element loads in the packed
  // rows' order: the same bits as the packed copy.
  auto& rt = runtime();
  for (DType dt : {DType::float32, DType::float64}) {
    const Shape s{37, 6, 333};
    const Array r = random_array(s, dt, 77, 0, 1);
    Array big = loom::empty({s[0], s[1], s[2] + 1}, dt);
    loom::copy_cast(r, big.slice(2, 1, s[2] + 1));
    const Array view = rt.to_device(big, "cuda").slice(2, 1, s[2] + 1);
    const Array packed = rt.gufunc("sum_row")(rt.to_device(r, "cuda"), {.target = "cuda"});
    const Array shifted = f(view, {.target = "cuda"});
    EXPECT_TRUE(same_bits(rt.to_host(shifted), rt.to_host(packed))) << loom::name(dt);
  }
}

TEST(Gufunc, DotAndMatmul) {
  LOOM_CUDA_OR_SKIP(b);
  for (DType dt : {DType::float32, DType::float64}) {
    const double tol = dt == DType::float32 ? 1e-5 : 1e-12;
    const Array x = random_array({1000, 64}, dt, 1), y = random_array({1000, 64}, dt, 2);
    EXPECT_TRUE(close(device_gufunc(b, "dot", {x, y}, {{1000}})[0],
                      runtime().gufunc("dot")(x, y, {.target = "cpu"}), tol));
    const Array p = random_array({50, 7, 9}, dt, 3), q = random_array({50, 9, 5}, dt, 4);
    EXPECT_TRUE(close(device_gufunc(b, "matmul", {p, q}, {{50, 7, 5}})[0],
                      runtime().gufunc("matmul")(p, q, {.target = "cpu"}), tol));
  }
}

}  // namespace

namespace {

// The math plugin replaces the generic sum of whole float arrays (2^24 elements and more) by a
// one-pass kernel (whole_sum.cu), started from the value the core passes (initial= included),
// deterministic; its unaligned ends (a view that starts off 16 bytes) and sums queued on two
// streams at once (which share the device's partials) give the host's sums.
TEST(Reduce, HandWrittenWholeSumIsRegisteredStartsFromInitialAndIsDeterministic) {
  LOOM_CUDA_OR_SKIP(b);
  const auto op = runtime().registry().find("sum");
  ASSERT_TRUE(op);
  int labelled = 0;
  for (const auto& l : op->loops) {
    const auto& impl = l.impl[static_cast<int>(loom::Family::cuda)];
    if (impl.hand_written) {
      ++labelled;
      EXPECT_TRUE(impl.takes_start);
      EXPECT_NE(std::string(impl.hand_written).find("one pass"), std::string::npos);
    }
  }
  EXPECT_EQ(labelled, 2);  // float32 and float64
  auto& rt = runtime();
  for (DType dt : {DType::float32, DType::float64}) {
    // Whole numbers in {-1, 0, 1}: exact in any order, so the device must equal the host.
    const Array x = random_array({(1 << 24) + 3}, dt, 5, -1, 2, true);
    const Array xd = to_device(b, x);
    for (double initial : {0.0, 5.0}) {
      const Array got = rt.to_host(rt.reduce("sum")(xd, {.target = "cuda", .initial = initial}));
      const Array want = rt.reduce("sum")(x, {.target = "cpu", .initial = initial});
      EXPECT_TRUE(same_bits(got, want)) << loom::name(dt) << " initial " << initial;
    }
    // Views starting 1..3 elements in (not on 16 bytes) and ending anywhere.
    for (std::int64_t start : {1, 2, 3}) {
      const std::int64_t stop = (1 << 24) + 3 - start;
      const Array got = rt.to_host(rt.reduce("sum")(xd.slice(0, start, stop), {.target = "cuda"}));
      const Array want = rt.reduce("sum")(x.slice(0, start, stop), {.target = "cpu"});
      EXPECT_TRUE(same_bits(got, want)) << loom::name(dt) << " start " << start;
    }
    // Two streams, sums queued on both before either is waited for.
    const Array x2 = random_array({(1 << 24) + 1}, dt, 9, -1, 2, true);
    const Array x2d = to_device(b, x2);
    const loom::Stream s1 = rt.stream("cuda"), s2 = rt.stream("cuda");
    std::vector<Array> r1, r2;
    for (int k = 0; k < 4; ++k) {
      r1.push_back(rt.reduce("sum")(xd, {.target = "cuda", .stream = s1}));
      r2.push_back(rt.reduce("sum")(x2d, {.target = "cuda", .stream = s2}));
    }
    s1.synchronize();
    s2.synchronize();
    const Array w1 = rt.reduce("sum")(x, {.target = "cpu"});
    const Array w2 = rt.reduce("sum")(x2, {.target = "cpu"});
    for (int k = 0; k < 4; ++k) {
      EXPECT_TRUE(same_bits(rt.to_host(r1[k]), w1)) << loom::name(dt) << " stream 1, call " << k;
      EXPECT_TRUE(same_bits(rt.to_host(r2[k]), w2)) << loom::name(dt) << " stream 2, call " << k;
    }
    // Reals: the same bits on every run.
    const Array r = to_device(b, random_array({(1 << 24) + 7}, dt, 6, 0, 1));
    const Array first = rt.to_host(rt.reduce("sum")(r, {.target = "cuda"}));
    for (int rep = 0; rep < 3; ++rep) {
      EXPECT_TRUE(same_bits(rt.to_host(rt.reduce("sum")(r, {.target = "cuda"})), first));
    }
  }
}

// A sum along an axis keeps the generic kernels, which the hand-written loop fills first.
TEST(Reduce, SumAlongAnAxisWithInitialUsesTheFilledGenericPath) {
  LOOM_CUDA_OR_SKIP(b);
  auto& rt = runtime();
  const Array x = random_array({300, 700}, DType::float32, 8, -1, 2, true);
  const Array xd = to_device(b, x);
  for (int axis : {0, 1}) {
    const Array got =
        rt.to_host(rt.reduce("sum")(xd, {.target = "cuda", .axis = {axis}, .initial = 3.0}));
    const Array want = rt.reduce("sum")(x, {.target = "cpu", .axis = {axis}, .initial = 3.0});
    EXPECT_TRUE(same_bits(got, want)) << "axis " << axis;
  }
}

}  // namespace
