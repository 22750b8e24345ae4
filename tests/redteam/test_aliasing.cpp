// Red-team cases of issue 12, items 2 and 7: memory that two arrays reach without sharing a Buffer
// object (two wraps of one pointer, shifted by an element), and writes into arrays that must not
// be written (broadcast views, wrapped const memory). Every overlapping call must give NumPy's
// answer (as if the inputs were read before any output is written; each expected value below is
// what NumPy 2.4 gives for the same call); every write into a read-only array is a ValueError
// naming the argument. On cpu and parallel, and on cuda where there is a GPU (host arrays given to
// cuda, and device arrays). Rules: docs/reliability.md, "Overlap and read-only arrays".
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "loom/aliasing.hpp"
#include "loom/loom.hpp"
#include "loom/strided.hpp"
#include "redteam.hpp"

namespace {

using loom::redteam::message_of;

using loom::Array;
using loom::DType;
using loom::Runtime;
using loom::ValueError;

Runtime& rt() {
  static Runtime r;
  return r;
}

std::optional<std::string> unavailable(const std::string& target) {
  for (const auto& t : rt().targets()) {
    if (t.target == target) return t.available ? std::nullopt : std::optional(t.reason);
  }
  return "no backend for target '" + target + "' on the search path";
}

Array wrap_f64(double* p, loom::Shape shape, loom::Device dev = {}) {
  return loom::wrap(p, std::move(shape), DType::float64, {}, {}, dev);
}

std::vector<double> halves(std::int64_t n) {  // 0, 0.5, 1, 1.5, ...
  std::vector<double> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) v[i] = 0.5 * static_cast<double>(i);
  return v;
}

// ---- overlap, on every target (host arrays) ----

class Overlap : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (auto why = unavailable(GetParam())) GTEST_SKIP() << GetParam() << ": " << *why;
  }
  std::string t() const { return GetParam(); }
};

// Issue 12 item 2: 3906 of 10^6 results were wrong on cpu. NumPy: np.add(b[:-1], b[:-1],
// out=b[1:]) with b = 0.5 * arange(n + 1) leaves b[0] = 0 and b[j] = j - 1.
TEST_P(Overlap, ShiftedWrapsAsInputAndOutOfAdd) {
  constexpr std::int64_t n = 1'000'000;
  std::vector<double> base = halves(n + 1);
  const Array in = wrap_f64(base.data(), {n}), out = wrap_f64(base.data() + 1, {n});
  ASSERT_NE(in.buffer(), out.buffer());
  EXPECT_TRUE(loom::may_share_memory(in, out));
  rt().ufunc("add")(in, in, {.target = t(), .out = {out}});
  std::int64_t wrong = 0;
  EXPECT_EQ(base[0], 0.0);
  for (std::int64_t j = 1; j <= n; ++j) wrong += base[j] != static_cast<double>(j - 1);
  EXPECT_EQ(wrong, 0) << "of " << n;
}

// The other direction (out= one element before the input): NumPy gives b[j] = j + 1 for j < n.
TEST_P(Overlap, ShiftedWrapsOutBeforeInput) {
  constexpr std::int64_t n = 1'000'000;
  std::vector<double> base = halves(n + 1);
  const Array in = wrap_f64(base.data() + 1, {n}), out = wrap_f64(base.data(), {n});
  rt().ufunc("add")(in, in, {.target = t(), .out = {out}});
  std::int64_t wrong = 0;
  for (std::int64_t j = 0; j < n; ++j) wrong += base[j] != static_cast<double>(j + 1);
  EXPECT_EQ(wrong, 0) << "of " << n;
  EXPECT_EQ(base[n], 0.5 * n);
}

// Issue 12 item 2: matmul(A, B, out=<a wrap of A's memory>) gave zeros; NumPy [[19, 22], [43, 50]].
TEST_P(Overlap, MatmulOutIsAWrapOfA) {
  std::vector<double> a = {1, 2, 3, 4}, b = {5, 6, 7, 8};
  const Array A = wrap_f64(a.data(), {2, 2}), B = wrap_f64(b.data(), {2, 2});
  const Array out = wrap_f64(a.data(), {2, 2});
  rt().gufunc("matmul")(A, B, {.target = t(), .out = {out}});
  EXPECT_EQ(a, (std::vector<double>{19, 22, 43, 50}));
  // The same array as out= (one buffer): the same answer.
  std::vector<double> c = {1, 2, 3, 4};
  const Array C = wrap_f64(c.data(), {2, 2});
  rt().gufunc("matmul")(C, B, {.target = t(), .out = {C}});
  EXPECT_EQ(c, (std::vector<double>{19, 22, 43, 50}));
}

// Views whose elements interleave (x[::2] and x[1::2]) share no byte: the residue test says so,
// and the call is right either way. NumPy: x[1::2] = 10 * x[::2].
TEST_P(Overlap, InterleavedViews) {
  std::vector<double> x(10);
  for (int i = 0; i < 10; ++i) x[i] = i;
  const Array w = wrap_f64(x.data(), {10});
  const Array even = w.slice(0, 0, 10, 2), odd = wrap_f64(x.data(), {10}).slice(0, 1, 10, 2);
  EXPECT_FALSE(loom::may_share_memory(even, odd));
  EXPECT_TRUE(loom::may_share_memory(even, w.slice(0, 2, 10, 2)));
  rt().ufunc("multiply")(even, 10.0, {.target = t(), .out = {odd}});
  EXPECT_EQ(x, (std::vector<double>{0, 0, 2, 20, 4, 40, 6, 60, 8, 80}));
}

// In place on the same elements needs no copy and is right (NumPy's exception to its rule).
TEST_P(Overlap, InPlaceSameElements) {
  std::vector<double> x = halves(1000);
  const Array a = wrap_f64(x.data(), {1000}), b = wrap_f64(x.data(), {1000});
  EXPECT_TRUE(loom::same_elements(a, b));
  rt().ufunc("multiply")(a, 4.0, {.target = t(), .out = {b}});
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(x[i], 2.0 * i);
}

// Reductions and the methods with an out= that reaches their input (NumPy's answers).
TEST_P(Overlap, ReductionsAndMethodsWithOverlappingOut) {
  const auto add = rt().ufunc("add");
  {  // np.add.reduce(m, axis=0, out=m[0])
    std::vector<double> m(12);
    for (int i = 0; i < 12; ++i) m[i] = i;
    const Array M = wrap_f64(m.data(), {3, 4}), row0 = wrap_f64(m.data(), {4});
    add.reduce(M, {.target = t(), .axis = 0, .out = row0});
    EXPECT_EQ(m, (std::vector<double>{12, 15, 18, 21, 4, 5, 6, 7, 8, 9, 10, 11}));
  }
  {  // np.add.accumulate(b[:-1], out=b[1:])
    std::vector<double> b = {0, 1, 2, 3, 4, 5, 6};
    add.accumulate(wrap_f64(b.data(), {6}), {.target = t(), .out = wrap_f64(b.data() + 1, {6})});
    EXPECT_EQ(b, (std::vector<double>{0, 0, 1, 3, 6, 10, 15}));
  }
  {  // np.add.reduceat(c, [0, 2, 4, 6], out=c[1:5])
    std::vector<double> c = {0, 1, 2, 3, 4, 5, 6, 7};
    const Array idx = loom::array<std::int64_t>({0, 2, 4, 6});
    add.reduceat(wrap_f64(c.data(), {8}), idx, {.target = t(), .out = wrap_f64(c.data() + 1, {4})});
    EXPECT_EQ(c, (std::vector<double>{0, 1, 5, 9, 13, 5, 6, 7}));
  }
  {  // np.add.outer(d[:2], d[:3], out=d.reshape(2, 3))
    std::vector<double> d = {0, 1, 2, 3, 4, 5};
    add.outer(wrap_f64(d.data(), {2}), wrap_f64(d.data(), {3}),
              {.target = t(), .out = {wrap_f64(d.data(), {2, 3})}});
    EXPECT_EQ(d, (std::vector<double>{0, 1, 2, 1, 2, 3}));
  }
}

// ufunc.at with b, or the indices, in a's memory: both are read before any update (NumPy).
TEST_P(Overlap, AtWithBOrIndicesInTheArray) {
  const auto add = rt().ufunc("add");
  {  // np.add.at(a[1:], [0, 1, 2, 3], a[:4])
    std::vector<double> a = {0, 1, 2, 3, 4, 5};
    add.at(wrap_f64(a.data() + 1, {5}), loom::array<std::int64_t>({0, 1, 2, 3}),
           wrap_f64(a.data(), {4}), {.target = t()});
    EXPECT_EQ(a, (std::vector<double>{0, 1, 3, 5, 7, 5}));
  }
  {  // a = [1, 0, 2, 0, 3] (int64); np.add.at(a, a[:3], 10)
    std::vector<std::int64_t> a = {1, 0, 2, 0, 3};
    const Array A = loom::wrap(a.data(), {5}, DType::int64);
    const Array I = loom::wrap(a.data(), {3}, DType::int64);
    add.at(A, I, Array(std::int64_t{10}), {.target = t()});
    EXPECT_EQ(a, (std::vector<std::int64_t>{11, 10, 12, 0, 3}));
  }
}

// Issue 28: a writeable view whose elements share memory (an Eigen map with outer stride 1 through
// as_array; here a wrap of 4 doubles as (2, 3) with strides (8, 8): element (0, 1) is element
// (1, 0)) given as out=: add(a, 1, out=a) gave 1 3 5 5 5 5, a result of the write order. Refused
// (docs/decisions.md) wherever a call writes an array, naming two elements that meet, with the
// memory left as it was; an interleaved view whose elements do not meet is computed.
TEST_P(Overlap, SelfOverlappingOutIsRefused) {
  std::vector<double> m = {0, 1, 2, 3};
  const Array a = loom::wrap(m.data(), {2, 3}, DType::float64, {8, 8});
  ASSERT_TRUE(a.writeable());
  const auto add = rt().ufunc("add");
  auto refused = [&](const std::function<void()>& call, const char* what) {
    const std::string msg = message_of<ValueError>(call);
    EXPECT_NE(msg.find("overlaps itself: elements (0, 1) and (1, 0) share memory"),
              std::string::npos)
        << what << ": " << msg;
    EXPECT_EQ(m, (std::vector<double>{0, 1, 2, 3})) << what << " wrote";
  };
  refused([&] { add(a, 1.0, {.target = t(), .out = {a}}); }, "add");
  refused([&] { add(loom::zeros({2, 3}), 1.0, {.target = t(), .out = {a}}); }, "add, fresh in");
  refused([&] { add.outer(loom::zeros({2}), loom::zeros({3}), {.target = t(), .out = {a}}); },
          "outer");
  refused([&] { add.accumulate(loom::zeros({2, 3}), {.target = t(), .out = a}); }, "accumulate");
  refused([&] { add.reduce(loom::zeros({4, 2, 3}), {.target = t(), .out = a}); }, "reduce");
  refused([&] { add.at(a, loom::array<std::int64_t>({0}), 1.0, {.target = t()}); }, "at");
  refused([&] { rt().copy_to(loom::zeros({2, 3}), a); }, "copy_to");
  // (3, 2) with strides (16, 24): offsets 0, 24, 16, 40, 32, 56 bytes, all distinct.
  std::vector<double> w(8, 0);
  const Array inter = loom::wrap(w.data(), {3, 2}, DType::float64, {16, 24});
  add(loom::arange(0.0, 6.0).reshape({3, 2}), 1.0, {.target = t(), .out = {inter}});
  EXPECT_EQ(w, (std::vector<double>{1, 0, 3, 2, 5, 4, 0, 6}));
}

INSTANTIATE_TEST_SUITE_P(Targets, Overlap, ::testing::Values("cpu", "parallel", "cuda"));

// Issue 12 item 2: rt.copy_to(x.slice(0, 0, 9), x.slice(0, 1, 10)) zeroed x; np.copyto shifts.
TEST(OverlapCopy, CopyToShiftsLikeNumPy) {
  Array x = loom::arange(0.0, 10.0);
  rt().copy_to(x.slice(0, 0, 9), x.slice(0, 1, 10));
  EXPECT_EQ(x.to_vector<double>(), (std::vector<double>{0, 0, 1, 2, 3, 4, 5, 6, 7, 8}));
  Array y = loom::arange(0.0, 10.0);
  rt().copy_to(y.slice(0, 1, 10), y.slice(0, 0, 9));
  EXPECT_EQ(y.to_vector<double>(), (std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9, 9}));
  // Two wraps of one memory, with a cast on the way (float64 -> int64 view of other bytes is
  // not a thing NumPy allows in place; here the source is read whole first).
  std::vector<double> z = {0, 1, 2, 3, 4, 5};
  rt().copy_to(wrap_f64(z.data(), {5}), wrap_f64(z.data() + 1, {5}));
  EXPECT_EQ(z, (std::vector<double>{0, 0, 1, 2, 3, 4}));
}

// ---- overlap on cuda device arrays: device pointers are ranges too ----

class DeviceOverlap : public ::testing::Test {
 protected:
  void SetUp() override {
    if (auto why = unavailable("cuda")) GTEST_SKIP() << "cuda: " << *why;
  }
};

TEST_F(DeviceOverlap, ShiftedDeviceWrapsAsInputAndOut) {
  constexpr std::int64_t n = 1'000'000;
  const Array d = rt().to_device(loom::from_vector(halves(n + 1)), "cuda");
  auto* p = reinterpret_cast<double*>(d.data());
  const Array in = wrap_f64(p, {n}, d.device()), out = wrap_f64(p + 1, {n}, d.device());
  rt().ufunc("add")(in, in, {.target = "cuda", .out = {out}});
  const std::vector<double> h = rt().to_host(d).to_vector<double>();
  std::int64_t wrong = 0;
  for (std::int64_t j = 1; j <= n; ++j) wrong += h[j] != static_cast<double>(j - 1);
  EXPECT_EQ(h[0], 0.0);
  EXPECT_EQ(wrong, 0) << "of " << n;
}

TEST_F(DeviceOverlap, MatmulAndCopyToOnDeviceWraps) {
  const Array dA = rt().to_device(loom::from_vector<double>({1, 2, 3, 4}, {2, 2}), "cuda");
  const Array dB = rt().to_device(loom::from_vector<double>({5, 6, 7, 8}, {2, 2}), "cuda");
  const Array out = wrap_f64(reinterpret_cast<double*>(dA.data()), {2, 2}, dA.device());
  rt().gufunc("matmul")(dA, dB, {.target = "cuda", .out = {out}});
  EXPECT_EQ(rt().to_host(dA).to_vector<double>(), (std::vector<double>{19, 22, 43, 50}));
  const Array dx = rt().to_device(loom::arange(0.0, 10.0), "cuda");
  auto* p = reinterpret_cast<double*>(dx.data());
  rt().copy_to(wrap_f64(p, {9}, dx.device()), wrap_f64(p + 1, {9}, dx.device()));
  EXPECT_EQ(rt().to_host(dx).to_vector<double>(),
            (std::vector<double>{0, 0, 1, 2, 3, 4, 5, 6, 7, 8}));
}

TEST_F(DeviceOverlap, DeviceBroadcastOutIsRefused) {
  const Array d = rt().to_device(loom::zeros({1}), "cuda");
  const Array x = rt().to_device(loom::arange(0.0, 4.0), "cuda");
  const std::string m = message_of<ValueError>(
      [&] { rt().ufunc("add")(x, x, {.target = "cuda", .out = {d.broadcast_to({4})}}); });
  EXPECT_NE(m.find("ufunc 'add': out= array 0 is read-only"), std::string::npos) << m;
  EXPECT_EQ(rt().to_host(d).item<double>(), 0.0);
}

// ---- read-only arrays, on every target ----

class ReadOnly : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (auto why = unavailable(GetParam())) GTEST_SKIP() << GetParam() << ": " << *why;
  }
  std::string t() const { return GetParam(); }
};

// Issue 12 item 7: a broadcast view was accepted as out= (parallel left 49152 where cpu left
// 100000). NumPy: "output array is read-only", and out= is untouched.
TEST_P(ReadOnly, BroadcastViewAsOutIsRefused) {
  const Array one = loom::zeros({1});
  const Array b = one.broadcast_to({100000});
  EXPECT_FALSE(b.writeable());
  const Array x = loom::full({100000}, 1.0);
  const std::string m =
      message_of<ValueError>([&] { rt().ufunc("add")(x, x, {.target = t(), .out = {b}}); });
  EXPECT_NE(m.find("ufunc 'add': out= array 0 is read-only (float64 array of shape (100000,)"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("NumPy: 'output array is read-only'"), std::string::npos) << m;
  EXPECT_EQ(one.item<double>(), 0.0);
}

// Issue 12 item 7: a broadcast view as the written argument of a kernel (thread_counter_race's
// counter, add_kernel's out). A View<const T> argument still takes one.
TEST_P(ReadOnly, KernelArguments) {
  const Array counter = loom::zeros({1}, DType::int32).broadcast_to({4});
  const std::string m = message_of<ValueError>([&] {
    rt().kernel("thread_counter_race").launch({.blocks = 4, .threads = 64, .target = t()}, counter);
  });
  EXPECT_NE(m.find("kernel 'thread_counter_race': argument 0 (int32[:]) is read-only"),
            std::string::npos)
      << m;
  const Array x = loom::full({1}, 2.0).broadcast_to({8});  // read-only, read through View<const>
  const std::vector<double> yv = {0, 1, 2, 3, 4, 5, 6, 7};
  const Array y = loom::wrap(yv.data(), {8}, DType::float64);  // const memory: read-only too
  const Array out = loom::zeros({8});
  rt().kernel("add_kernel").launch({.blocks = 1, .threads = 8, .target = t()}, x, y, out);
  EXPECT_EQ(out.to_vector<double>(), (std::vector<double>{2, 3, 4, 5, 6, 7, 8, 9}));
  const std::string m2 = message_of<ValueError>([&] {
    rt().kernel("add_kernel").launch({.blocks = 1, .threads = 8, .target = t()}, out, out, y);
  });
  EXPECT_NE(m2.find("kernel 'add_kernel': argument 2 (float64[:]) is read-only"), std::string::npos)
      << m2;
}

// wrap of const memory is read-only: every call and method that writes refuses it by name, every
// call that reads takes it.
TEST_P(ReadOnly, ConstWrapIsRefusedWhereverACallWrites) {
  const std::vector<double> cv = {1, 2, 3, 4};
  const Array c = loom::wrap(cv.data(), {4}, DType::float64);
  const Array c22 = loom::wrap(cv.data(), {2, 2}, DType::float64);
  EXPECT_FALSE(c.writeable());
  const auto add = rt().ufunc("add");
  EXPECT_EQ(add(c, 1.0, {.target = t()}).to_vector<double>(), (std::vector<double>{2, 3, 4, 5}));
  const Array x = loom::arange(0.0, 4.0);
  auto refused = [&](auto f, const std::string& want) {
    const std::string m = message_of<ValueError>(f);
    EXPECT_NE(m.find(want), std::string::npos) << m;
  };
  refused([&] { add(x, x, {.target = t(), .out = {c}}); },
          "ufunc 'add': out= array 0 is read-only");
  refused(
      [&] {
        rt().ufunc("divmod").call({x, x}, {.target = t(), .out = {loom::zeros({4}), c}});
      },
      "ufunc 'divmod': out= array 1 is read-only");
  refused([&] { rt().gufunc("matmul")(c22, c22, {.target = t(), .out = {c22}}); },
          "gufunc 'matmul': out= array 0 is read-only");
  refused(
      [&] {
        add.reduce(loom::zeros({3, 4}), {.target = t(), .axis = 0, .out = c});
      },
      "reduction 'add': out= is read-only");
  refused(
      [&] {
        rt().reduce("sum")(loom::zeros({3, 4}), {.target = t(), .axis = 0, .out = c});
      },
      "reduction 'sum': out= is read-only");
  refused([&] { add.accumulate(x, {.target = t(), .out = c}); },
          "ufunc 'add'.accumulate: out= is read-only");
  refused([&] { add.reduceat(x, loom::arange(4), {.target = t(), .out = c}); },
          "ufunc 'add'.reduceat: out= is read-only");
  refused([&] { add.outer(x.slice(0, 0, 2), x.slice(0, 0, 2), {.target = t(), .out = {c22}}); },
          "ufunc 'add': out= array 0 is read-only");
  refused([&] { add.at(c, loom::arange(2), 1.0, {.target = t()}); },
          "ufunc 'add'.at: the array a is read-only");
  EXPECT_EQ(cv, (std::vector<double>{1, 2, 3, 4}));
}

INSTANTIATE_TEST_SUITE_P(Targets, ReadOnly, ::testing::Values("cpu", "parallel", "cuda"));

TEST(ReadOnlyArrays, CopyToDestination) {
  const Array b = loom::zeros({1}).broadcast_to({3});
  const std::string m = message_of<ValueError>([&] { rt().copy_to(loom::zeros({3}), b); });
  EXPECT_NE(m.find("copy_to: the destination is read-only"), std::string::npos) << m;
  const std::string m2 = message_of<ValueError>([&] { loom::copy_cast(loom::zeros({3}), b); });
  EXPECT_NE(m2.find("copy_cast: the destination is read-only"), std::string::npos) << m2;
}

// Views of a read-only array stay read-only; copies are writeable (NumPy's flags.writeable).
TEST(ReadOnlyArrays, ViewsStayReadOnlyCopiesDoNot) {
  const std::vector<double> cv(12, 1.0);
  const Array c = loom::wrap(cv.data(), {3, 4}, DType::float64);
  EXPECT_FALSE(c.slice(0, 1, 3).writeable());
  EXPECT_FALSE(c.index(0, 1).writeable());
  EXPECT_FALSE(c.transpose().writeable());
  EXPECT_FALSE(c.reshape({12}).writeable());
  EXPECT_FALSE(c.as_strong().writeable());
  EXPECT_TRUE(c.copy().writeable());
  EXPECT_TRUE(c.astype(DType::float32).writeable());
  EXPECT_TRUE(c.transpose().reshape({12}).writeable());  // not contiguous: a copy, as NumPy
  EXPECT_TRUE(loom::zeros({3}).writeable());
  EXPECT_FALSE(loom::zeros({3}).broadcast_to({3}).writeable());  // NumPy: always read-only
  EXPECT_FALSE(loom::zeros({3}).as_readonly().writeable());
  std::vector<double> v(4);
  EXPECT_TRUE(loom::wrap(v.data(), {4}, DType::float64).writeable());
  // A zero stride on an axis of more than one element repeats an element: read-only. On an axis
  // of one element it repeats nothing.
  EXPECT_FALSE(loom::wrap(v.data(), {4}, DType::float64, {0}).writeable());
  EXPECT_TRUE(loom::wrap(v.data(), {1, 4}, DType::float64, {0, 8}).writeable());
}

// Broadcasting inside a call is not a write: inputs of any stride still work.
TEST(ReadOnlyArrays, InternalBroadcastingStillWorks) {
  const Array col = loom::from_vector<double>({0, 10, 20}, {3, 1});
  const Array row = loom::from_vector<double>({1, 2}, {1, 2});
  const Array s = rt().ufunc("add")(col, row);
  EXPECT_EQ(s.to_vector<double>(), (std::vector<double>{1, 2, 11, 12, 21, 22}));
  const Array b = loom::full({1}, 3.0).broadcast_to({2, 3});  // a read-only input
  EXPECT_EQ(rt().ufunc("multiply")(b, 2.0).to_vector<double>(), std::vector<double>(6, 6.0));
  const Array o = loom::zeros({2, 3});
  rt().ufunc("add")(b, col.slice(0, 0, 2).reshape({2, 1}),
                    {.out = {o}, .where = loom::array<bool>({true, false, true})});
  EXPECT_EQ(o.to_vector<double>(), (std::vector<double>{3, 0, 3, 13, 0, 13}));
  EXPECT_EQ(rt().reduce("sum")(b).item<double>(), 18.0);
  EXPECT_EQ(loom::full({3}, 2.5).to_vector<double>(), std::vector<double>(3, 2.5));
}

}  // namespace
