// Red-team cases of issue 12, items 1 and 9 (arrays): shapes, strides, sizes and byte counts that
// overflowed int64 or slipped past a check. Each case is the call as it was reported; those that
// crashed run in a child process (EXPECT_EXIT) that exits 0 only on the expected error and
// message. Rules: docs/reliability.md, "Shapes and sizes".
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "loom/loom.hpp"
#include "loom/shape_check.hpp"
#include "redteam.hpp"

namespace {

using loom::redteam::child_expects;
using loom::redteam::message_of;

using loom::Array;
using loom::DType;
using loom::Shape;

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t k2to61 = std::int64_t{1} << 61;
const std::string kTooBig =
    "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size";

#define EXPECT_IN_CHILD(E, stmt, want) \
  EXPECT_EXIT(child_expects<E>([&] { stmt; }, want), ::testing::ExitedWithCode(0), "")

std::string too_big(const std::string& what, const std::string& shape, int itemsize) {
  return what + ": " + kTooBig + " (shape " + shape + " of " + std::to_string(itemsize) +
         "-byte items: more than 9223372036854775807 bytes)";
}

loom::Runtime& rt() {
  static loom::Runtime r;
  return r;
}

// ---- item 1: creation ----

TEST(RedteamShapes, Empty2To61Float64IsTooBig) {  // was: a 0-byte buffer of size 2^61
  EXPECT_EQ(message_of<loom::ShapeError>([] { loom::empty({k2to61}); }),
            too_big("empty", "(2305843009213693952,)", 8));
}

TEST(RedteamShapes, Full2To61IsTooBig) {  // was: a segfault
  EXPECT_IN_CHILD(loom::ShapeError, loom::full({k2to61}, 1.0),
                  too_big("full", "(2305843009213693952,)", 8));
}

TEST(RedteamShapes, Linspace2To61IsTooBig) {  // was: a segfault
  EXPECT_IN_CHILD(loom::ShapeError, loom::linspace(0.0, 1.0, k2to61),
                  too_big("linspace", "(2305843009213693952,)", 8));
}

TEST(RedteamShapes, Arange2To61IsTooBig) {  // was: a segfault
  EXPECT_IN_CHILD(loom::ShapeError, loom::arange(k2to61),
                  too_big("arange", "(2305843009213693952,)", 8));
}

TEST(RedteamShapes, ZerosWhoseProductWrapsTo2IsTooBig) {  // was: a 2-byte buffer
  EXPECT_EQ(message_of<loom::ShapeError>([] {
              loom::zeros({3, 0x5555555555555556}, DType::uint8);
            }),
            too_big("zeros", "(3, 6148914691236517206)", 1));
}

TEST(RedteamShapes, ZeroExtentDoesNotExcuseTheOthers) {  // NumPy: np.empty((0, 2**62, 2**62))
  const std::int64_t big = std::int64_t{1} << 62;
  EXPECT_EQ(message_of<loom::ShapeError>([&] {
              loom::empty({0, big, big});
            }),
            too_big("empty", "(0, 4611686018427387904, 4611686018427387904)", 8));
  EXPECT_EQ(message_of<loom::ShapeError>([&] {
              loom::c_strides({0, big, big}, 1);
            }),
            too_big("c_strides", "(0, 4611686018427387904, 4611686018427387904)", 1));
}

TEST(RedteamShapes, LargestRepresentableSizesAreAcceptedUpToPtrdiffMax) {
  // (2^62 - 1) * 2 bytes fits; its allocation is refused by the system, as a DeviceError.
  EXPECT_EQ(loom::checked_nbytes(Shape{(std::int64_t{1} << 62) - 1}, 2, "t"), kMax - 1);
  EXPECT_EQ(loom::checked_nbytes(Shape{kMax}, 1, "t"), kMax);
  EXPECT_EQ(loom::checked_nbytes(Shape{0, kMax}, 1, "t"), 0);
  EXPECT_EQ(message_of<loom::ShapeError>([] { loom::checked_nbytes(Shape{kMax}, 2, "t"); }),
            too_big("t", "(9223372036854775807,)", 2));
}

TEST(RedteamShapes, AllocationTheSystemRefusesIsADeviceError) {
  // Representable (PTRDIFF_MAX bytes) but not allocatable: loom's error, not std::bad_alloc or a
  // crash. A child, so that an ASan build can be told to return null (its default aborts).
  const char* old = std::getenv("ASAN_OPTIONS");
  const std::string saved = old ? old : "";
  setenv("ASAN_OPTIONS",
         (saved + (saved.empty() ? "" : ":") + "allocator_may_return_null=1").c_str(), 1);
  EXPECT_IN_CHILD(loom::DeviceError, loom::empty({kMax}, DType::uint8),
                  "host allocation of 9223372036854775807 bytes failed");
  EXPECT_IN_CHILD(loom::DeviceError, loom::zeros({std::int64_t{1} << 60}, DType::float32),
                  "host allocation of 4611686018427387904 bytes failed");
  if (old) {
    setenv("ASAN_OPTIONS", saved.c_str(), 1);
  } else {
    unsetenv("ASAN_OPTIONS");
  }
}

TEST(RedteamShapes, NegativeExtentsAreRefusedEverywhere) {
  const std::string want = "negative dimension in shape (2, -3)";
  EXPECT_EQ(message_of<loom::ShapeError>([] { loom::empty({2, -3}); }), want);
  EXPECT_EQ(message_of<loom::ShapeError>([] { loom::full({2, -3}, 1.0); }), want);
  EXPECT_EQ(message_of<loom::ShapeError>([] { rt().empty({2, -3}, DType::float64, "cpu"); }), want);
  static double d[4];
  EXPECT_EQ(message_of<loom::ShapeError>([] { loom::wrap(d, {2, -3}, DType::float64); }), want);
  EXPECT_EQ(message_of<loom::ShapeError>([] {
              loom::Array(loom::allocate_host(64), DType::float64, {2, -3}, {8, 8});
            }),
            want);
}

TEST(RedteamShapes, LinspaceNegativeNumIsRefused) {
  EXPECT_EQ(message_of<loom::ValueError>([] { loom::linspace(0.0, 1.0, -1); }),
            "linspace: num must be non-negative, got -1");
  EXPECT_IN_CHILD(loom::ShapeError, loom::linspace(0.0, 1.0, kMax),
                  too_big("linspace", "(9223372036854775807,)", 8));
}

// ---- item 1: views ----

TEST(RedteamShapes, ReshapeWhoseProductWrapsIsRefused) {  // was: a view over 32 bytes, segfault
  EXPECT_IN_CHILD(loom::ShapeError, loom::arange(0.0, 4.0).reshape({0x4000000000000001, 4}),
                  "cannot reshape float64 array of shape (4,) on host into shape "
                  "(4611686018427387905, 4)");
}

TEST(RedteamShapes, ReshapeMinusOneBesideZeroIsRefused) {  // NumPy: np.zeros(0).reshape(-1, 0)
  EXPECT_EQ(message_of<loom::ShapeError>([] {
              loom::zeros({0}).reshape({-1, 0});
            }),
            "cannot reshape float64 array of shape (0,) on host into shape (-1, 0)");
  EXPECT_EQ(message_of<loom::ShapeError>([] {
              loom::zeros({0}).reshape({0, -1});
            }),
            "cannot reshape float64 array of shape (0,) on host into shape (0, -1)");
  EXPECT_EQ(loom::zeros({0}).reshape({-1}).shape(), Shape{0});  // NumPy accepts this one
  EXPECT_EQ(loom::zeros({0, 3}).reshape({-1, 3}).shape(), Shape({0, 3}));
}

TEST(RedteamShapes, ReshapeOfZeroSizeToAHugeShapeIsTooBig) {  // NumPy refuses it likewise
  const std::int64_t big = std::int64_t{1} << 62;
  EXPECT_EQ(message_of<loom::ShapeError>([&] {
              loom::zeros({0}).reshape({0, big, 4});
            }),
            too_big("reshape", "(0, 4611686018427387904, 4)", 8));
}

TEST(RedteamShapes, SliceWithInt64MaxStepIsOneElementAsNumPy) {  // was: empty
  const Array x = loom::arange(0.0, 4.0);
  const Array v = x.slice(0, 0, 5, kMax);
  EXPECT_EQ(v.shape(), Shape{1});
  EXPECT_EQ(v.to_vector<double>(), std::vector<double>{0.0});  // np.arange(4.)[0:5:2**63-1]
}

struct SliceCase {
  std::int64_t n, start, stop, step;
  std::vector<std::int64_t> want;
};

TEST(RedteamShapes, SliceOfAnyInt64BoundsIsNumPys) {
  const std::vector<SliceCase> cases = {
#include "slices_numpy.inc"
  };
  ASSERT_EQ(cases.size(), 1344u);
  for (const auto& c : cases) {
    const Array x = loom::arange(c.n);
    const Array v = x.slice(0, c.start, c.stop, c.step);
    EXPECT_EQ(v.to_vector<std::int64_t>(), c.want)
        << "np.arange(" << c.n << ")[" << c.start << ":" << c.stop << ":" << c.step << "]";
    const auto [lo, hi] = v.byte_extent();
    EXPECT_TRUE(lo >= 0 && hi <= static_cast<std::int64_t>(v.buffer()->bytes()));
  }
}

TEST(RedteamShapes, BroadcastToNegativeExtentIsRefused) {  // was: size() == -3
  EXPECT_EQ(message_of<loom::ShapeError>([] { loom::zeros({1}).broadcast_to({-3}); }),
            "negative dimension in shape (-3,)");
}

TEST(RedteamShapes, BroadcastToAHugeShapeIsTooBigAsNumPy) {
  // np.broadcast_to(np.zeros(1), (2**62,)) is "array is too big" although nothing is allocated.
  EXPECT_EQ(
      message_of<loom::ShapeError>([] { loom::zeros({1}).broadcast_to({std::int64_t{1} << 62}); }),
      too_big("broadcast_to", "(4611686018427387904,)", 8));
  const Array ok = loom::zeros({1}, DType::uint8).broadcast_to({std::int64_t{1} << 62, 1});
  EXPECT_EQ(ok.size(), std::int64_t{1} << 62);
}

TEST(RedteamShapes, CallWhoseBroadcastShapeOverflowsIsRefused) {
  // Two valid views whose broadcast has 2^64 elements: the loop's size used to wrap.
  const Array a = loom::zeros({1}, DType::uint8).broadcast_to({std::int64_t{1} << 62, 1});
  const Array b = loom::zeros({4}, DType::uint8);
  EXPECT_IN_CHILD(loom::ShapeError, rt().ufunc("add")(a, b),
                  "broadcast dimensions too large: shapes (4611686018427387904, 1) (4,) "
                  "broadcast to (4611686018427387904, 4), more than 9223372036854775807 "
                  "elements");
}

TEST(RedteamShapes, ShapeSizeOverflowIsAShapeError) {
  EXPECT_EQ(message_of<loom::ShapeError>([] {
              loom::shape_size(Shape{std::int64_t{1} << 32, std::int64_t{1} << 32});
            }),
            "the size of shape (4294967296, 4294967296) overflows int64 (more than "
            "9223372036854775807 elements)");
  EXPECT_EQ(loom::shape_size(Shape{kMax, kMax, 0}), 0);
}

TEST(RedteamShapes, ArrayConstructorRefusesAViewOutsideItsBuffer) {
  EXPECT_EQ(message_of<loom::ShapeError>(
                [] { loom::Array(loom::allocate_host(8), DType::float64, {2}, {8}); }),
            "view outside its buffer: float64 array of shape (2,) on host with strides (8,) "
            "reaches bytes [0, 16) from its element 0 at byte offset 0 of a buffer of 8 bytes");
  EXPECT_EQ(message_of<loom::ShapeError>(
                [] { loom::Array(loom::allocate_host(16), DType::float64, {2}, {-8}); }),
            "view outside its buffer: float64 array of shape (2,) on host with strides (-8,) "
            "reaches bytes [-8, 8) from its element 0 at byte offset 0 of a buffer of 16 bytes");
  const Array fits(loom::allocate_host(16), DType::float64, {2}, {-8}, 8);  // [0, 16): inside
  EXPECT_EQ(fits.size(), 2);
}

// ---- item 9: wrap ----

TEST(RedteamShapes, WrapOfNullIsRefused) {  // was: accepted, then a segfault on use
  EXPECT_IN_CHILD(loom::ValueError,
                  (void)loom::wrap(nullptr, {4}, DType::float64).to_vector<double>(),
                  "wrap: a null pointer for a float64 array of shape (4,) (only a zero-size array "
                  "may wrap nullptr)");
  const Array empty = loom::wrap(nullptr, {0, 3}, DType::float64);  // NumPy allows it too
  EXPECT_EQ(empty.size(), 0);
  EXPECT_TRUE(empty.to_vector<double>().empty());
}

TEST(RedteamShapes, WrapAcceptsNegativeStrides) {  // was: every negative stride refused
  double d[6] = {0, 1, 2, 3, 4, 5};
  // Element 0 is d[5]; the view reads d[5], d[4], ... d[0].
  const Array r = loom::wrap(d + 5, {6}, DType::float64, {-8});
  EXPECT_EQ(r.to_vector<double>(), std::vector<double>({5, 4, 3, 2, 1, 0}));
  EXPECT_EQ(static_cast<void*>(r.buffer()->data()), static_cast<void*>(d));
  EXPECT_EQ(r.buffer()->bytes(), sizeof d);
  EXPECT_EQ(r.byte_extent(), std::make_pair(std::int64_t{0}, std::int64_t{48}));
  // Rows reversed, columns forward: [[3, 4, 5], [0, 1, 2]].
  const Array m = loom::wrap(d + 3, {2, 3}, DType::float64, {-24, 8});
  EXPECT_EQ(m.to_vector<double>(), std::vector<double>({3, 4, 5, 0, 1, 2}));
  // Writes land where they should: add 10 through a reversed view.
  Array w = loom::wrap(d + 5, {6}, DType::float64, {-8});
  rt().ufunc("add")(w, 10.0, {.out = {w}});
  EXPECT_EQ(std::vector<double>(d, d + 6), std::vector<double>({10, 11, 12, 13, 14, 15}));
}

TEST(RedteamShapes, WrapDeleterGetsTheCallersPointer) {
  double d[4] = {};
  void* got = nullptr;
  {
    const Array r = loom::wrap(d + 3, {4}, DType::float64, {-8}, [&](void* p) { got = p; });
  }
  EXPECT_EQ(got, static_cast<void*>(d + 3));
}

TEST(RedteamShapes, WrapReachingOutsideTheAddressSpaceIsRefused) {
  EXPECT_EQ(message_of<loom::ValueError>(
                [] { loom::wrap(reinterpret_cast<void*>(16), {4}, DType::float64, {-8}); }),
            "wrap: shape (4,) with strides (-8,) reaches bytes [-24, 8) around the pointer 16, "
            "outside the address space");
}

TEST(RedteamShapes, WrapWhoseByteOffsetsOverflowIsRefused) {
  static double d[4];
  EXPECT_EQ(message_of<loom::ShapeError>([] {
              loom::wrap(d, {3, 2}, DType::float64, {std::int64_t{1} << 62, 8});
            }),
            "wrap: shape (3, 2) with strides (4611686018427387904, 8) reaches more than "
            "9223372036854775807 bytes from element 0 (the byte offsets overflow int64)");
  EXPECT_EQ(
      message_of<loom::ValueError>([] {
        loom::wrap(d, {2, 2}, DType::float64, {std::int64_t{1} << 62, -(std::int64_t{1} << 62)});
      }),
      "wrap: shape (2, 2) with strides (4611686018427387904, -4611686018427387904) "
      "reaches bytes [-4611686018427387904, 4611686018427387912) around the pointer " +
          std::to_string(reinterpret_cast<std::uintptr_t>(d)) + ", outside the address space");
}

TEST(RedteamShapes, WrapOfAHugeShapeIsTooBig) {
  static double d[4];
  EXPECT_EQ(message_of<loom::ShapeError>([] { loom::wrap(d, {k2to61}, DType::float64); }),
            too_big("wrap", "(2305843009213693952,)", 8));
}

// ---- item 9: arange ----

TEST(RedteamShapes, ArangeToNaNCannotComputeLength) {  // was: empty
  const std::string m = message_of<loom::ValueError>([] { loom::arange(0.0, NAN); });
  EXPECT_EQ(m.rfind("arange: cannot compute length of arange(0.000000, nan, 1.000000)", 0), 0u)
      << m;
  EXPECT_NE(message_of<loom::ValueError>([] {
              loom::arange(0.0, 1.0, NAN);
            }).find("arange: cannot compute length"),
            std::string::npos);
  EXPECT_NE(message_of<loom::ValueError>([] {
              loom::arange(INFINITY, INFINITY);
            }).find("arange: cannot compute length"),
            std::string::npos);
}

TEST(RedteamShapes, ArangeToInfinityExceedsTheMaximumSize) {
  struct Bounds {
    double start, stop, step;
  };
  for (const Bounds& c : {Bounds{0.0, INFINITY, 1.0}, Bounds{INFINITY, 1.0, 1.0},
                          Bounds{0.0, 1.0, 1e-300}, Bounds{0.0, 0x1p63, 1.0}}) {
    const std::string m =
        message_of<loom::ValueError>([&] { loom::arange(c.start, c.stop, c.step); });
    EXPECT_EQ(m.rfind("arange: Maximum allowed size exceeded: arange(", 0), 0u) << m;
  }
  EXPECT_IN_CHILD(loom::ShapeError, loom::arange(0.0, 0x1p62),
                  too_big("arange", "(4611686018427387904,)", 8));
}

TEST(RedteamShapes, ArangeWithAnInfiniteStepIsNumPys) {
  EXPECT_EQ(loom::arange(0.0, 1.0, INFINITY).to_vector<double>(), std::vector<double>{0.0});
  EXPECT_EQ(loom::arange(-1.0, 0.0, INFINITY).to_vector<double>(), std::vector<double>{-1.0});
  EXPECT_EQ(loom::arange(1.0, 0.0, -INFINITY).to_vector<double>(), std::vector<double>{1.0});
  EXPECT_EQ(loom::arange(0.0, -1.0, INFINITY).size(), 0);
  EXPECT_EQ(loom::arange(0.0, 0.0, INFINITY).size(), 0);
  EXPECT_EQ(loom::arange(0.0, 1e-300, 1e300).to_vector<double>(), std::vector<double>{0.0});
  EXPECT_EQ(message_of<loom::ValueError>([] { loom::arange(0.0, 1.0, 0.0); }),
            "arange: step cannot be zero");
}

// ---- item 9: kernel shared memory ----

TEST(RedteamShapes, SharedArrayWhoseByteCountWrapsIsRefused) {  // was: 2^62 floats = 0 bytes
  loom::ThreadCtx t;
  t.shared_bytes = 16;
  EXPECT_EQ(message_of<loom::LaunchError>([&] { t.shared_array<float>(std::int64_t{1} << 62); }),
            "the kernel asks shared_array for 4611686018427387904 elements of 4 bytes at byte "
            "offset 0: more bytes than a size_t holds (18446744073709551615); the launch gave 16 "
            "bytes of shared memory");
  EXPECT_EQ(message_of<loom::LaunchError>([&] { t.shared_array<float>(-1); }),
            "the kernel asks shared_array for -1 elements of 4 bytes at byte offset 0: a negative "
            "count; the launch gave 16 bytes of shared memory");
  EXPECT_EQ(message_of<loom::LaunchError>([&] { t.shared_array<char>(1, SIZE_MAX); }),
            "the kernel asks shared_array for 1 elements of 1 bytes at byte offset "
            "18446744073709551615: more bytes than a size_t holds (18446744073709551615); the "
            "launch gave 16 bytes of shared memory");
  EXPECT_EQ(t.shared_array<float>(4).size(), 4);  // exactly the 16 bytes: fine
}

TEST(RedteamShapes, KernelAskingFor2To62SharedFloatsIsALaunchError) {  // was: writes past it
  loom::Runtime r;
  r.load_library(std::string(LOOM_REDTEAM_PLUGINS) + "/shapes/libloom_redteam_shapes.so");
  Array out = loom::zeros({8}, DType::float32);
  for (const char* target : {"cpu", "parallel"}) {
    bool have = false;
    for (const auto& t : r.targets()) have = have || (t.target == target && t.available);
    if (!have) continue;
    SCOPED_TRACE(target);
    EXPECT_IN_CHILD(loom::LaunchError,
                    r.kernel("rt_shared_n")
                        .launch({.blocks = 2, .threads = 4, .shared_bytes = 16, .target = target},
                                std::int64_t{1} << 62, out),
                    "kernel 'rt_shared_n': the kernel asks shared_array for 4611686018427387904 "
                    "elements of 4 bytes at byte offset 0: more bytes than a size_t holds");
  }
  EXPECT_EQ(out.to_vector<float>(), std::vector<float>(8, 0.0f));
}

}  // namespace
