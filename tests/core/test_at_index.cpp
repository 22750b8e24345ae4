// Ufunc::at with NumPy's full index: tuples of index arrays and slices, on every host target.
// Expected values are NumPy 2's (np.add.at and friends), written out by hand.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "host_runtime.hpp"
#include "loom/error.hpp"
#include "loom/runtime.hpp"

using namespace loom;

namespace {

using V = std::vector<double>;
using I64 = std::vector<std::int64_t>;

using loom::test::host_targets;
using loom::test::rt;

Array iota(Shape shape) {
  return arange(0.0, static_cast<double>(shape_size(shape)), 1.0).reshape(shape);
}
Array ints(const I64& v) { return from_vector(v); }

class AtIndex : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(rt().registry().find("add"))
        << "the math plugin is not in " << LOOM_TEST_SERIAL_DIR;
  }
  AtOptions on() const { return {.target = GetParam()}; }
  Ufunc add() const { return rt().ufunc("add"); }
};

// np.add.at(a, (i, j), 1) on a (3, 4): a pair of index arrays picks elements; a repeated pair
// counts once per occurrence.
TEST_P(AtIndex, APairOfIndexArraysPicksElements) {
  Array a = zeros({3, 4});
  add().at(a, {ints({0, 2, 0, -1}), ints({1, 3, 1, 0})}, 1.0, on());
  EXPECT_EQ(a.to_vector<double>(), (V{0, 2, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1}));
  // b per pair; the index arrays broadcast together (a column of rows against a row of columns).
  Array c = zeros({3, 4});
  add().at(c, {ints({0, 2}).reshape({2, 1}), ints({1, 2, 3})}, iota({2, 3}), on());
  EXPECT_EQ(c.to_vector<double>(), (V{0, 0, 1, 2, 0, 0, 0, 0, 0, 3, 4, 5}));
}

// np.add.at(a, (slice(None), [0, 0, 2]), [10, 20, 30]) on a (2, 3): a slice keeps its axis, the
// index array's dims take the indexed axis's place (adjacent), b broadcasts to (2, 3).
TEST_P(AtIndex, ASliceBeforeAnIndexArrayKeepsItsAxis) {
  Array a = zeros({2, 3});
  add().at(a, {Slice{}, ints({0, 0, 2})}, from_vector(V{10, 20, 30}), on());
  EXPECT_EQ(a.to_vector<double>(), (V{30, 0, 30, 30, 0, 30}));
  // A stepped slice, negative bounds: rows 2 and 0 of a (3, 2), column 1, b of shape (2,) rows.
  Array s = zeros({3, 2});
  add().at(s, {Slice{.start = -1, .stop = {}, .step = -2}, ints({1})},
           from_vector(V{1, 2}).reshape({2, 1}), on());
  EXPECT_EQ(s.to_vector<double>(), (V{0, 2, 0, 0, 0, 1}));
}

// NumPy's rule for index arrays split by a slice: their dims go first. a (2, 3, 4),
// a[[0, 1], :, [3, 0]] has shape (2, 3): b of shape (2, 3) is (pair, middle axis).
TEST_P(AtIndex, IndexArraysSplitByASliceGoFirst) {
  Array a = zeros({2, 3, 4});
  add().at(a, {ints({0, 1}), Slice{}, ints({3, 0})}, iota({2, 3}), on());
  V want(24, 0);
  for (int j = 0; j < 3; ++j) {
    want[0 * 12 + j * 4 + 3] += j;      // pair 0: a[0, j, 3] += b[0, j]
    want[1 * 12 + j * 4 + 0] += 3 + j;  // pair 1: a[1, j, 0] += b[1, j]
  }
  EXPECT_EQ(a.to_vector<double>(), want);
}

// Integers (0-d index arrays), a 1-d bool array (its true positions), and a tuple shorter than
// ndim (the rest whole); a transposed a, whose indexed axes do not merge in place.
TEST_P(AtIndex, IntegersBoolsShortTuplesAndTransposedArrays) {
  Array a = zeros({2, 3});
  add().at(a, {Array(std::int64_t{1}), ints({2, 2})}, 5.0, on());
  EXPECT_EQ(a.to_vector<double>(), (V{0, 0, 0, 0, 0, 10}));
  Array m = zeros({3, 2});
  add().at(m, {from_vector(std::vector<bool>{true, false, true})}, from_vector(V{1, 2}), on());
  EXPECT_EQ(m.to_vector<double>(), (V{1, 2, 0, 0, 1, 2}));
  Array t = zeros({3, 2});
  const Array tt = t.transpose();  // (2, 3) view
  add().at(tt, {ints({1, 0, 1}), ints({2, 0, 2})}, from_vector(V{1, 2, 3}), on());
  EXPECT_EQ(t.to_vector<double>(), (V{2, 0, 0, 0, 0, 4}));
  Array w = zeros({2, 2});
  add().at(w, {}, 1.0, on());  // np.add.at(w, (), 1): every element once
  EXPECT_EQ(w.to_vector<double>(), (V{1, 1, 1, 1}));
}

TEST_P(AtIndex, BadIndicesAreRefusedAndLeaveTheArrayAlone) {
  Array a = iota({2, 3});
  const V before = a.to_vector<double>();
  auto refused = [&](auto&& call, const char* what) {
    try {
      call();
      ADD_FAILURE() << "accepted: " << what;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
    EXPECT_EQ(a.to_vector<double>(), before) << what;
  };
  refused(
      [&] {
        add().at(a, {ints({0}), ints({0}), ints({0})}, 1.0, on());
      },
      "too many indices for array: array is 2-dimensional, but 3 were indexed");
  refused(
      [&] {
        add().at(a, {ints({0, 1}), ints({0, 1, 2})}, 1.0, on());
      },
      "indexing arrays could not be broadcast together with shapes (2,) (3,)");
  refused(
      [&] {
        add().at(a, {ints({1}), ints({3})}, 1.0, on());
      },
      "index 3 is out of bounds for axis 1 with size 3");
  refused([&] { add().at(a, {Slice{.step = 0}}, 1.0, on()); }, "slice step cannot be zero");
  refused(
      [&] {
        add().at(a, {Slice{}, ints({0, 1})}, from_vector(V{1, 2, 3}), on());
      },
      "b of shape (3,) does not broadcast to the indexed shape (2, 2)");
  refused([&] { add().at(a, {from_vector(std::vector<bool>{true})}, 1.0, on()); },
          "boolean index did not match indexed array along axis 0");
  refused([&] { add().at(a, {from_vector(V{0.0})}, 1.0, on()); },
          "indices must be an integer array, got float64 in index entry 0");
}

INSTANTIATE_TEST_SUITE_P(Targets, AtIndex, ::testing::ValuesIn(host_targets()),
                         [](const auto& i) { return i.param; });

}  // namespace
