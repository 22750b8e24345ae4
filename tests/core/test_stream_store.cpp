// Streaming stores (def/stream_store.hpp): a SIMD loop whose output is at least kStreamBytes
// writes it with non-temporal stores after a head of elements that reach the first aligned one.
// Every element must still get the batch code's bits, whatever the output's alignment, and
// nothing outside the output may change.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "loom/def/stream_store.hpp"
#include "loom/runtime.hpp"

namespace loom {
namespace {

Runtime& rt() {
  static Runtime r(RuntimeOptions{.plugin_path = {LOOM_TEST_SERIAL_DIR, LOOM_TEST_GOOD_DIR},
                                  .use_default_path = false});
  return r;
}

constexpr std::int64_t kElems = def::detail::kStreamBytes / 4 + 37;  // float32: streams on cpu

// t_add (a + b, exact for these values) into out= views starting `skip` elements into a larger
// array, so that the head before the first aligned store takes every length from 0 to a batch.
TEST(StreamStore, OneOutputEveryHeadLength) {
  const std::int64_t n = kElems;
  std::vector<float> av(n), bv(n);
  for (std::int64_t i = 0; i < n; ++i) {
    av[i] = static_cast<float>(i % 4096);
    bv[i] = static_cast<float>(i % 7) * 0.5f;
  }
  const Array a = from_vector(av), b = from_vector(bv);
  for (std::int64_t skip : {0, 1, 5, 15}) {
    Array base = full({n + 16}, -1.0, DType::float32);
    CallOptions o;
    o.target = "cpu";
    o.out = {base.slice(0, skip, skip + n, 1)};
    rt().ufunc("t_add").call({a, b}, o);
    const auto r = base.to_vector<float>();
    for (std::int64_t i = 0; i < skip; ++i)
      ASSERT_EQ(r[i], -1.0f) << "before the view, skip " << skip;
    for (std::int64_t i = 0; i < n; ++i) {
      ASSERT_EQ(r[skip + i], av[i] + bv[i]) << "element " << i << ", skip " << skip;
    }
    for (std::int64_t i = skip + n; i < n + 16; ++i) {
      ASSERT_EQ(r[i], -1.0f) << "after the view, skip " << skip;
    }
  }
}

// t_addsub's three outputs (sum, difference, 1 where the batch code ran) streamed from
// misaligned out= views: every element from the batch code, values exact.
TEST(StreamStore, SeveralOutputsFromTheBatchCode) {
  const std::int64_t n = def::detail::kStreamBytes / 8 + 5;  // float64
  std::vector<double> av(n), bv(n);
  for (std::int64_t i = 0; i < n; ++i) {
    av[i] = static_cast<double>(i);
    bv[i] = 0.25 * static_cast<double>(i % 9);
  }
  const Array a = from_vector(av), b = from_vector(bv);
  for (std::int64_t skip : {0, 3}) {
    std::vector<Array> bases;
    CallOptions o;
    o.target = "cpu";
    for (int k = 0; k < 3; ++k) {
      bases.push_back(zeros({n + 8}, DType::float64));
      o.out.push_back(bases.back().slice(0, skip, skip + n, 1));
    }
    rt().ufunc("t_addsub").call({a, b}, o);
    const auto s = bases[0].to_vector<double>(), d = bases[1].to_vector<double>(),
               lanes = bases[2].to_vector<double>();
    for (std::int64_t i = 0; i < n; ++i) {
      ASSERT_EQ(s[skip + i], av[i] + bv[i]) << "element " << i << ", skip " << skip;
      ASSERT_EQ(d[skip + i], av[i] - bv[i]) << "element " << i << ", skip " << skip;
      ASSERT_EQ(lanes[skip + i], 1.0) << "element " << i << " was computed by the scalar code";
    }
    ASSERT_EQ(s[n + skip], 0.0) << "after the view, skip " << skip;
  }
}

}  // namespace
}  // namespace loom
