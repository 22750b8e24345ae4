// RandomOptions::index_base: a piece drawn at its first element's global index is that slice of
// the whole array, on every target and device set, whatever the piece's length and alignment to
// Philox blocks (what loom::dist's ranks draw, each at its first row).
#include <climits>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "helpers.hpp"

namespace loom_random_test {
namespace {

using loom::Array;
using loom::DType;
using loom::Shape;
using loom::random::Generator;
using loom::random::Philox;
using loom::random::RandomOptions;

// One kind of call, on a Generator the test makes.
struct Draw {
  const char* name;
  std::function<Array(Generator&, const Shape&, const RandomOptions&)> call;
};

const std::vector<Draw>& draws() {
  static const std::vector<Draw> d = {
      {"uniform float32",
       [](Generator& g, const Shape& s, const RandomOptions& o) {
         return g.uniform(runtime(), s, DType::float32, o);
       }},
      {"uniform float64",
       [](Generator& g, const Shape& s, const RandomOptions& o) {
         return g.uniform(runtime(), s, DType::float64, o);
       }},
      {"normal float32",
       [](Generator& g, const Shape& s, const RandomOptions& o) {
         return g.normal(runtime(), s, DType::float32, o);
       }},
      {"normal float64",
       [](Generator& g, const Shape& s, const RandomOptions& o) {
         return g.normal(runtime(), s, DType::float64, o);
       }},
      {"integers int16",
       [](Generator& g, const Shape& s, const RandomOptions& o) {
         return g.integers(runtime(), -5, 17, s, DType::int16, o);
       }},
      {"integers int64 (64-bit span)",
       [](Generator& g, const Shape& s, const RandomOptions& o) {
         return g.integers(runtime(), -7, std::int64_t{1} << 40, s, DType::int64, o);
       }},
  };
  return d;
}

class IndexBaseOn : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (auto why = unavailable(GetParam())) GTEST_SKIP() << GetParam() << " unavailable: " << *why;
  }
};

TEST_P(IndexBaseOn, PiecesAreSlicesOfTheWholeArray) {
  const std::int64_t n = 1000;
  // (first element, length): starts on and inside Philox blocks (4 float32 or 2 float64 elements
  // a block), lengths that end inside one, pieces of a few elements and pieces long enough for
  // the host's groups of 32 blocks.
  const std::pair<std::int64_t, std::int64_t> pieces[] = {
      {0, n}, {1, 999}, {2, 500}, {3, 997}, {5, 1}, {6, 2}, {7, 0}, {130, 700}, {997, 3}, {999, 1}};
  for (const Draw& d : draws()) {
    Generator whole_gen(31, 4, 6);
    const Array whole = d.call(whole_gen, {n}, {.target = "cpu"});
    for (const auto& [base, len] : pieces) {
      Generator g(31, 4, 6);
      const Array piece = d.call(g, {len}, {.target = GetParam(), .index_base = base});
      EXPECT_EQ(bytes_of(piece), bytes_of(whole.slice(0, base, base + len)))
          << d.name << " on " << GetParam() << ", index_base " << base << ", " << len
          << " elements";
      EXPECT_EQ(g.next_call(), 7u);  // a piece takes its call number as the whole array does
    }
  }
}

TEST_P(IndexBaseOn, RowsOfEverySplitJoinIntoTheWholeArray) {
  // A (41, 7) array split into p blocks of rows, each drawn at its first row times the row size
  // (loom::dist's ranks: 41 rows do not divide by 2, 3 or 4): the rows back to back are the
  // whole array's bytes.
  const std::int64_t rows = 41, cols = 7;
  for (const Draw& d : draws()) {
    Generator whole_gen(8);
    const auto want = bytes_of(d.call(whole_gen, {rows, cols}, {.target = "cpu"}));
    for (int p = 1; p <= 4; ++p) {
      std::vector<unsigned char> got;
      for (int r = 0; r < p; ++r) {
        const std::int64_t begin = r * (rows / p) + std::min<std::int64_t>(r, rows % p);
        const std::int64_t count = rows / p + (r < rows % p ? 1 : 0);
        Generator g(8);
        const auto part =
            bytes_of(d.call(g, {count, cols}, {.target = GetParam(), .index_base = begin * cols}));
        got.insert(got.end(), part.begin(), part.end());
      }
      EXPECT_EQ(got, want) << d.name << " on " << GetParam() << " in " << p << " pieces";
    }
  }
}

TEST_P(IndexBaseOn, OutOfAnyLayoutGetsItsOwnCOrder) {
  // Rows [2, 5) of a (6, 8) array into a transposed out= (not C-contiguous).
  const Array whole = Generator(9).normal(runtime(), {6, 8}, DType::float64, {.target = "cpu"});
  Array base = loom::full({8, 3}, -1.0);
  const Array t = base.transpose();
  Generator(9).normal(runtime(), {3, 8}, DType::float64,
                      {.target = GetParam(), .out = t, .index_base = 16});
  EXPECT_EQ(bytes_of(t), bytes_of(whole.slice(0, 2, 5)));
}

INSTANTIATE_TEST_SUITE_P(Targets, IndexBaseOn, ::testing::ValuesIn(kTargets), target_name);

TEST(IndexBase, TheLastIndicesOfInt64EqualTheElementFunctions) {
  // The largest first element allowed: the piece's last index is 2^63 - 2. Integers past 2^56
  // take integer_offset's own path (its attempt byte sits in bits 56-63 of the block number).
  const std::int64_t len = 10, base = LLONG_MAX - len;
  const Philox p(3, 1, 0);
  const RandomOptions o{.target = "cpu", .index_base = base};
  const auto f32 = bytes_of(Generator(3, 1).uniform(runtime(), {len}, DType::float32, o));
  const auto n64 = bytes_of(Generator(3, 1).normal(runtime(), {len}, DType::float64, o));
  const auto i64 = bytes_of(Generator(3, 1).integers(runtime(), 0, 1000, {len}, DType::int64, o));
  Array wf = loom::empty({len}, DType::float32), wn = loom::empty({len}, DType::float64);
  Array wi = loom::empty({len}, DType::int64);
  for (std::int64_t i = 0; i < len; ++i) {
    wf.data<float>()[i] = p.uniform_float32(base + i);
    wn.data<double>()[i] = p.normal_float64(base + i);
    wi.data<std::int64_t>()[i] = static_cast<std::int64_t>(p.integer_offset(base + i, 999));
  }
  EXPECT_EQ(f32, bytes_of(wf));
  EXPECT_EQ(n64, bytes_of(wn));
  EXPECT_EQ(i64, bytes_of(wi));
}

}  // namespace
}  // namespace loom_random_test
