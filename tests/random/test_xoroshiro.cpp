// Numba's xoroshiro128p with Numba's bits: create_xoroshiro128p_states and the four draw
// functions against data/xoroshiro_numba.txt (numba.cuda.random's own values, written by
// gen_xoroshiro_ref.py), on the host and inside a kernel on every target.
#include <cmath>
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>

#include "helpers.hpp"

namespace loom_random_test {
namespace {

struct Config {
  std::uint64_t seed, sub;
  bool operator<(const Config& o) const { return seed != o.seed ? seed < o.seed : sub < o.sub; }
};
struct Reference {
  std::map<Config, std::vector<std::uint64_t>> states;  // s0, s1 of every state, in order
  // draws[func][config][state index]: the IEEE bits of the first draws
  std::map<std::string, std::map<Config, std::map<int, std::vector<std::uint64_t>>>> draws;
};

Reference read_reference(const char* path) {
  Reference ref;
  std::ifstream in(path);
  EXPECT_TRUE(in) << "cannot read " << path;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream s(line);
    std::string kind;
    s >> kind;
    if (kind == "state") {
      Config c;
      int i;
      std::uint64_t s0, s1;
      s >> c.seed >> c.sub >> i >> std::hex >> s0 >> s1;
      ref.states[c].push_back(s0);
      ref.states[c].push_back(s1);
    } else if (kind == "draw") {
      std::string func;
      Config c;
      int i;
      s >> func >> c.seed >> c.sub >> i >> std::hex;
      auto& v = ref.draws[func][c][i];
      for (std::uint64_t b; s >> b;) v.push_back(b);
    }
  }
  return ref;
}

// Numba on the CPU: the states, and the draws host targets must give.
const Reference& reference() {
  static const Reference r = read_reference(LOOM_RTEST_NUMBA_DATA);
  return r;
}
// Numba's draws in CUDA kernels (gen_xoroshiro_cuda_ref.py, run on an H200): the normals go
// through libdevice's logf/cosf there, so cuda targets are held to these bits, not the CPU's.
const Reference& cuda_reference() {
  static const Reference r = read_reference(LOOM_RTEST_NUMBA_CUDA_DATA);
  return r;
}

TEST(Xoroshiro, ReferenceDataIsComplete) {
  EXPECT_EQ(reference().states.size(), 12u);  // 4 seeds x 3 subsequences
  EXPECT_EQ(reference().draws.size(), 4u);
  for (const auto& [f, m] : reference().draws) EXPECT_EQ(m.size(), 12u) << f;
  EXPECT_EQ(cuda_reference().draws.size(), 4u);
  for (const auto& [f, m] : cuda_reference().draws) EXPECT_EQ(m.size(), 12u) << f;
}

TEST(Xoroshiro, StatesEqualNumbas) {
  for (const auto& [c, want] : reference().states) {
    const std::int64_t n = static_cast<std::int64_t>(want.size() / 2);
    const loom::Array s = loom::random::create_xoroshiro128p_states(
        runtime(), n, c.seed, {.subsequence_start = c.sub, .target = "cpu"});
    EXPECT_EQ(s.dtype(), loom::DType::uint64);
    EXPECT_EQ(s.shape(), (loom::Shape{n, 2}));
    EXPECT_EQ(s.to_vector<std::uint64_t>(), want) << "seed " << c.seed << " sub " << c.sub;
  }
  EXPECT_EQ(loom::random::create_xoroshiro128p_states(runtime(), 0, 1, {.target = "cpu"}).shape(),
            (loom::Shape{0, 2}));
}

// The draw as the bits of its own type (float32 draws are exact in the kernel's float64 out).
std::uint64_t bits(double v, bool f32) {
  if (f32) {
    const float f = static_cast<float>(v);
    std::uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
  }
  std::uint64_t b;
  std::memcpy(&b, &v, 8);
  return b;
}
// Uniforms are exact; on the host normals go through libm's logf/cosf (as Numba's do), so they
// may differ from the machine that wrote the data by a few units in the last place. cuda targets
// (libdevice, as Numba's kernels) are held to Numba's CUDA bits exactly.
void expect_draw(const std::string& func, std::uint64_t got, std::uint64_t want,
                 const std::string& where, bool exact = false) {
  const bool normal = func.starts_with("normal");
  const std::int64_t d = static_cast<std::int64_t>(got - want);
  EXPECT_LE(std::abs(d), normal && !exact ? 2 : 0)
      << func << " " << where << ": got " << std::hex << got << " want " << want;
}

const char* const kFuncs[] = {"uniform_float32", "uniform_float64", "normal_float32",
                              "normal_float64"};

TEST(Xoroshiro, HostDrawsEqualNumbas) {
  namespace r = loom::random;
  for (int which = 0; which < 4; ++which) {
    const std::string func = kFuncs[which];
    for (const auto& [c, per_index] : reference().draws.at(func)) {
      for (const auto& [i, want] : per_index) {
        std::vector<std::uint64_t> st = reference().states.at(c);
        const loom::View<std::uint64_t, 2> v{st.data(), {std::int64_t(st.size() / 2), 2}, {16, 8}};
        for (std::size_t j = 0; j < want.size(); ++j) {
          const double x = which == 0   ? r::xoroshiro128p_uniform_float32(v, i)
                           : which == 1 ? r::xoroshiro128p_uniform_float64(v, i)
                           : which == 2 ? r::xoroshiro128p_normal_float32(v, i)
                                        : r::xoroshiro128p_normal_float64(v, i);
          expect_draw(func, bits(x, which % 2 == 0), want[j],
                      "seed " + std::to_string(c.seed) + " state " + std::to_string(i));
        }
      }
    }
  }
}

class XoroshiroKernel : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (auto why = unavailable(GetParam())) GTEST_SKIP() << GetParam() << " unavailable: " << *why;
  }
};

TEST_P(XoroshiroKernel, DrawsInAKernelEqualNumbas) {
  const Config c{12345, 1};
  const std::int64_t n = 4, draws = 8;
  for (int which = 0; which < 4; ++which) {
    const loom::Array states = loom::random::create_xoroshiro128p_states(
        runtime(), n, c.seed, {.subsequence_start = c.sub, .target = GetParam()});
    loom::Array out = loom::zeros({n, draws});
    runtime()
        .kernel("test_xoroshiro_draws")
        .launch({.blocks = 2, .threads = 2, .target = GetParam()}, states, which, out);
    const std::vector<double> got = out.to_vector<double>();
    const bool gpu = GetParam().starts_with("cuda");
    const Reference& ref = gpu ? cuda_reference() : reference();
    for (const auto& [i, want] : ref.draws.at(kFuncs[which]).at(c)) {
      for (std::int64_t j = 0; j < draws; ++j) {
        expect_draw(kFuncs[which], bits(got[i * draws + j], which % 2 == 0), want[j],
                    GetParam() + " state " + std::to_string(i), gpu);
      }
    }
    // The states moved on by the draws (two a normal), as Numba's do.
    const std::vector<std::uint64_t> before = reference().states.at(c);
    std::vector<std::uint64_t> after_ref = before;
    const loom::View<std::uint64_t, 2> v{after_ref.data(), {n, 2}, {16, 8}};
    for (std::int64_t i = 0; i < n; ++i) {
      for (std::int64_t j = 0; j < draws * (which >= 2 ? 2 : 1); ++j) {
        loom::random::xoroshiro128p_next(v, i);
      }
    }
    std::vector<std::uint64_t> after(before.size());
    const auto b = bytes_of(states);
    std::memcpy(after.data(), b.data(), b.size());
    EXPECT_EQ(after, after_ref) << GetParam();
  }
}

INSTANTIATE_TEST_SUITE_P(Targets, XoroshiroKernel, ::testing::ValuesIn(kTargets), target_name);

// The states array's layout (docs/random.md, "Numba's xoroshiro128p"): rows further apart than
// 16 bytes, words still adjacent, draw as the contiguous states on every one-device target (an
// unchecked cuda launch reaches a row's second word as the first one's neighbour); words not
// adjacent (a transposed (2, n) array) draw the same on the host targets and in a checked cuda
// launch, which follow the View's strides.
class XoroshiroLayout : public XoroshiroKernel {};

TEST_P(XoroshiroLayout, StatesOfAnyRowStrideDrawAsContiguousOnes) {
  const std::string target = GetParam();
  const bool gpu = target.starts_with("cuda");
  const std::int64_t n = 5, draws = 6;
  auto on_target = [&](loom::Array a) { return gpu ? runtime().to_device(a, target) : a; };
  auto draw = [&](const loom::Array& states, bool checked) {
    loom::Array out = loom::zeros({n, draws});
    runtime()
        .kernel("test_xoroshiro_draws")
        .launch({.blocks = 1, .threads = 8, .checked = checked, .target = target}, states, 0, out);
    return out.to_vector<double>();
  };
  auto states = [&] {
    return loom::random::create_xoroshiro128p_states(runtime(), n, 7, {.target = target});
  };
  const loom::Array plain = states();
  const std::vector<double> want = draw(plain, false);
  const std::vector<unsigned char> want_states = bytes_of(plain);

  // Rows 32 bytes apart, the words of each adjacent: columns 1 and 2 of an (n, 4) array.
  loom::Array wide = on_target(loom::zeros({n, 4}, loom::DType::uint64));
  const loom::Array rows = wide.slice(1, 1, 3);
  runtime().ufunc("positive")(states(), {.target = target, .out = {rows}});
  EXPECT_EQ(draw(rows, false), want) << target << ": rows 32 bytes apart";
  EXPECT_EQ(bytes_of(rows), want_states) << target << ": the states the draws left";

  // Words 8 n bytes apart: the transpose of a (2, n) array. Unchecked on the host targets,
  // checked on cuda (its unchecked launch assumes adjacent words).
  loom::Array pairs = on_target(loom::zeros({2, n}, loom::DType::uint64));
  const loom::Array apart = pairs.transpose();
  runtime().ufunc("positive")(states(), {.target = target, .out = {apart}});
  EXPECT_EQ(draw(apart, gpu), want) << target << ": words not adjacent";
  EXPECT_EQ(bytes_of(apart), want_states) << target << ": the states the draws left";
}

INSTANTIATE_TEST_SUITE_P(Targets, XoroshiroLayout, ::testing::Values("cpu", "parallel", "cuda"),
                         target_name);

}  // namespace
}  // namespace loom_random_test
