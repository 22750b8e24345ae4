// float16 ops against NumPy on every one of the 65536 float16 inputs: float16_all.py writes
// NumPy's outputs of spacing, modf, frexp (every input) and nextafter, divmod, floor_divide,
// remainder, fmod (every input against another one, and against +-0, the smallest subnormal,
// +-1, the largest finite, +-inf, NaN, the smallest normal); loom's float16 loops must give the
// same bits on every available target (a NaN result need only be a NaN on cuda, whose
// conversions give the canonical 0x7fff, and where both operands are NaN; docs/catalogue.md).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "loom/loom.hpp"
#include "python.hpp"

namespace numpy_diff {
namespace {

using loom::Array;
using loom::DType;
using json = nlohmann::json;

loom::Runtime& runtime() {
  static loom::Runtime rt;
  return rt;
}

struct Table {
  std::string error, numpy;
  std::map<std::string, std::vector<std::int64_t>> arrays;  // bits (uint16) or int32 values
};

// Runs float16_all.py once and reads what it wrote.
const Table& table() {
  static const Table t = [] {
    Table r;
    const std::string path = std::string(LOOM_NUMPY_DIFF_DIR) + "/float16_all.bin";
    const std::string cmd = std::string("'") + loom::numpy_diff::python3() + "' '" +
                            LOOM_FLOAT16_ALL_SCRIPT + "' '" + path + "'";
    if (const int rc = std::system(cmd.c_str()); rc != 0) {
      r.error = "`" + cmd + "` failed (status " + std::to_string(rc) +
                "): NumPy missing? scripts/setup-deps installs it";
      return r;
    }
    std::ifstream f(path, std::ios::binary);
    std::string line;
    std::getline(f, line);
    const json head = json::parse(line);
    r.numpy = head.at("numpy").get<std::string>();
    for (const auto& a : head.at("arrays")) {
      const std::string dt = a.at("dtype").get<std::string>();
      const auto n = a.at("count").get<std::size_t>();
      std::vector<std::int64_t>& v = r.arrays[a.at("name").get<std::string>()];
      v.resize(n);
      for (std::size_t i = 0; i < n; ++i) {
        if (dt == "<u2") {
          unsigned char b[2];
          f.read(reinterpret_cast<char*>(b), 2);
          v[i] = b[0] | (b[1] << 8);
        } else {
          unsigned char b[4];
          f.read(reinterpret_cast<char*>(b), 4);
          v[i] = static_cast<std::int32_t>(static_cast<std::uint32_t>(b[0]) | (b[1] << 8) |
                                           (b[2] << 16) | (static_cast<std::uint32_t>(b[3]) << 24));
        }
      }
    }
    if (!f) r.error = "short read of " + path;
    std::filesystem::remove(path);
    return r;
  }();
  return t;
}

Array halves(const std::vector<std::int64_t>& bits, std::size_t n) {
  Array a = loom::empty({static_cast<std::int64_t>(n)}, DType::float16);
  auto* p = reinterpret_cast<std::uint16_t*>(a.data());
  for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<std::uint16_t>(bits[i]);
  return a;
}

bool is_nan16(std::uint16_t b) { return (b & 0x7c00u) == 0x7c00u && (b & 0x03ffu) != 0; }

// loom's output `got` (float16 or int32) against NumPy's `want`; returns the mismatch count and
// describes the first few. any_nan: a NaN result only needs to be a NaN (cuda's conversions give
// the canonical 0x7fff where the host keeps NumPy's payload).
int compare(const std::string& what, const Array& got, const std::vector<std::int64_t>& want,
            const std::vector<std::int64_t>& x, const std::vector<std::int64_t>* y, bool any_nan) {
  const Array g = got.device().is_host() ? got : runtime().to_host(got);
  const bool half = g.dtype() == DType::float16;
  std::vector<std::int64_t> ints;
  if (!half) ints = g.to_vector<std::int64_t>();
  int bad = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    std::int64_t l;
    bool ok;
    if (half) {
      std::uint16_t b;
      std::memcpy(&b, g.data() + i * 2, 2);
      l = b;
      // Two NaN operands: IEEE 754 does not say whose payload a result keeps (loom's remainder
      // keeps x's, NumPy's y's), so any NaN will do.
      const bool two_nans = y && is_nan16(static_cast<std::uint16_t>(x[i])) &&
                            is_nan16(static_cast<std::uint16_t>((*y)[i]));
      ok = l == want[i] ||
           ((any_nan || two_nans) && is_nan16(b) && is_nan16(static_cast<std::uint16_t>(want[i])));
    } else {
      l = ints[i];
      ok = l == want[i];
    }
    if (!ok && bad++ < 5) {
      char msg[128];
      std::snprintf(msg, sizeof msg, "x 0x%04llx y 0x%04llx: numpy 0x%04llx loom 0x%04llx",
                    static_cast<unsigned long long>(x[i]),
                    static_cast<unsigned long long>(y ? (*y)[i] : 0),
                    static_cast<unsigned long long>(want[i]), static_cast<unsigned long long>(l));
      ADD_FAILURE() << what << ": " << msg << (y ? "" : " (unary: ignore y)");
    }
  }
  return bad;
}

class Float16All : public ::testing::TestWithParam<std::string> {};

TEST_P(Float16All, SameBitsAsNumPy) {
  const std::string target = GetParam();
  bool listed = false;
  for (const auto& t : runtime().targets()) {
    if (t.target != target) continue;
    listed = true;
    if (!t.available) GTEST_SKIP() << "target '" << target << "' is unavailable: " << t.reason;
  }
  if (!listed) GTEST_SKIP() << "target '" << target << "': its backend was not built or loaded";
  const Table& t = table();
  ASSERT_TRUE(t.error.empty()) << t.error;
  const auto& xs = t.arrays.at("x");
  const auto& ys = t.arrays.at("y");
  const Array x1 = halves(xs, 65536), x = halves(xs, xs.size()), y = halves(ys, ys.size());
  const loom::CallOptions o{.target = target};
  const bool any_nan = target == "cuda";
  auto uf = [&](const char* n) { return runtime().ufunc(n); };
  int bad = 0;
  bad += compare("spacing", uf("spacing")(x1, o), t.arrays.at("spacing"), xs, nullptr, any_nan);
  const auto modf = uf("modf").call({x1}, o);
  bad += compare("modf[0]", modf.at(0), t.arrays.at("modf.0"), xs, nullptr, any_nan);
  bad += compare("modf[1]", modf.at(1), t.arrays.at("modf.1"), xs, nullptr, any_nan);
  const auto frexp = uf("frexp").call({x1}, o);
  bad += compare("frexp[0]", frexp.at(0), t.arrays.at("frexp.0"), xs, nullptr, any_nan);
  bad += compare("frexp[1]", frexp.at(1), t.arrays.at("frexp.1"), xs, nullptr, any_nan);
  bad += compare("nextafter", uf("nextafter")(x, y, o), t.arrays.at("nextafter"), xs, &ys, any_nan);
  const auto dm = uf("divmod").call({x, y}, o);
  bad += compare("divmod[0]", dm.at(0), t.arrays.at("divmod.0"), xs, &ys, any_nan);
  bad += compare("divmod[1]", dm.at(1), t.arrays.at("divmod.1"), xs, &ys, any_nan);
  for (const char* op : {"floor_divide", "remainder", "fmod"}) {
    bad += compare(op, uf(op)(x, y, o), t.arrays.at(op), xs, &ys, any_nan);
  }
  std::printf("float16_all '%s' (NumPy %s): %d mismatches\n", target.c_str(), t.numpy.c_str(), bad);
}

INSTANTIATE_TEST_SUITE_P(Targets, Float16All, testing::Values("cpu", "parallel", "cuda"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace numpy_diff
