// Bad inputs to loom::random: a loom::Error subclass naming the values, raised before anything
// is drawn, so that the caller's out= and the generator's call count are untouched.
#include <cstdint>

#include "helpers.hpp"

namespace loom_random_test {
namespace {

using loom::Array;
using loom::DType;
using loom::random::Generator;

template <class E, class F>
void expect_error(F&& f, const std::string& part) {
  try {
    f();
    ADD_FAILURE() << "no error; expected one containing: " << part;
  } catch (const E& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST(RandomErrors, BadInputsNameTheValuesAndTouchNothing) {
  Generator g(1);
  Array out = loom::full({4}, 7.0);
  const auto before = bytes_of(out);
  const auto cpu = [](std::optional<Array> o = {}) {
    return loom::random::RandomOptions{.target = "cpu", .out = std::move(o)};
  };
  expect_error<loom::ShapeError>(
      [&] {
        g.uniform(runtime(), {2, -3}, DType::float32, cpu());
      },
      "negative dimension -3 at axis 1 of shape (2, -3)");
  expect_error<loom::TypeError>([&] { g.uniform(runtime(), {4}, DType::int32, cpu()); },
                                "dtype int32 is not a float dtype");
  expect_error<loom::TypeError>([&] { g.normal(runtime(), {4}, DType::float16, cpu()); },
                                "dtype float16 is not a float dtype");
  expect_error<loom::TypeError>([&] { g.integers(runtime(), 0, 9, {4}, DType::float64, cpu()); },
                                "dtype float64 is not an integer dtype");
  expect_error<loom::ValueError>([&] { g.integers(runtime(), 5, 5, {4}, DType::int64, cpu()); },
                                 "high (5) must be above low (5)");
  expect_error<loom::ValueError>([&] { g.integers(runtime(), 0, 300, {4}, DType::uint8, cpu()); },
                                 "[0, 300) is out of bounds for uint8 ([0, 255])");
  expect_error<loom::ValueError>([&] { g.integers(runtime(), -1, 3, {4}, DType::uint64, cpu()); },
                                 "[-1, 3) is out of bounds for uint64");
  expect_error<loom::TypeError>([&] { g.uniform(runtime(), {4}, DType::float32, cpu(out)); },
                                "out= has dtype float64, the call draws float32");
  expect_error<loom::ShapeError>(
      [&] {
        g.normal(runtime(), {2, 2}, DType::float64, cpu(out));
      },
      "out= has shape (4,), the call's shape is (2, 2)");
  // index_base: below 0, or the last element's index past 2^63 - 1.
  const auto at = [](std::int64_t base, std::optional<Array> o = {}) {
    return loom::random::RandomOptions{.target = "cpu", .out = std::move(o), .index_base = base};
  };
  expect_error<loom::ValueError>(
      [&] { g.uniform(runtime(), {4}, DType::float64, at(-1, out)); },
      "Generator.uniform: index_base -1 with 4 elements: the elements' indices must lie in [0, "
      "2^63 - 1]");
  expect_error<loom::ValueError>(
      [&] {
        g.normal(runtime(), {2, 2}, DType::float64, at(INT64_MAX - 3));
      },
      "Generator.normal: index_base 9223372036854775804 with 4 elements");
  expect_error<loom::ValueError>(
      [&] { g.integers(runtime(), 0, 9, {4}, DType::int64, at(INT64_MIN)); },
      "Generator.integers: index_base -9223372036854775808 with 4 elements");
  EXPECT_EQ(bytes_of(out), before);
  EXPECT_EQ(g.next_call(), 0u);  // no call number was used
  // A read-only out= is the kernel launch's own error, before anything runs; the call takes no
  // call number either.
  expect_error<loom::ValueError>(
      [&] { g.uniform(runtime(), {4}, DType::float64, cpu(out.as_readonly())); }, "read-only");
  EXPECT_EQ(bytes_of(out), before);
  EXPECT_EQ(g.next_call(), 0u);
  // The largest index_base allowed draws.
  EXPECT_EQ(g.uniform(runtime(), {4}, DType::float64, at(INT64_MAX - 4)).size(), 4);
  EXPECT_EQ(g.next_call(), 1u);
}

TEST(RandomErrors, CallNumbersRunOut) {
  Generator g(1, 2, 0xFFFFFFFFu);
  g.uniform(runtime(), {3}, DType::float32, {.target = "cpu"});  // the last call number
  expect_error<loom::ValueError>(
      [&] { g.uniform(runtime(), {3}, DType::float32, {.target = "cpu"}); },
      "Generator(seed=1, stream=2) has used all 2^32 call numbers");
}

TEST(RandomErrors, NegativeStateCount) {
  expect_error<loom::ValueError>(
      [] { loom::random::create_xoroshiro128p_states(runtime(), -2, 1, {.target = "cpu"}); },
      "create_xoroshiro128p_states: n (-2) must not be negative");
}

}  // namespace
}  // namespace loom_random_test
