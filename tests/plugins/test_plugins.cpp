// Plugin loading: broken libraries (no factory, wrong ABI version, duplicate op, throwing or
// malformed registration, not a shared library) are refused with a message naming the path and
// the reason, and change nothing; the search path honours LOOM_PLUGIN_PATH and never the current
// directory.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "loom/error.hpp"
#include "loom/plugin.hpp"
#include "loom/runtime.hpp"

namespace loom {
namespace {

namespace fs = std::filesystem;

const std::string kSerialDir = LOOM_TEST_SERIAL_DIR;
const std::string kGoodDir = LOOM_TEST_GOOD_DIR;
const std::string kBrokenDir = LOOM_TEST_BROKEN_DIR;

// The serial backend, libloom_testops and the folder of broken plugins (with one valid, extra).
Runtime& rt_all() {
  static Runtime r(
      RuntimeOptions{.plugin_path = {kSerialDir, kGoodDir, kBrokenDir}, .use_default_path = false});
  return r;
}

std::optional<LoadedLibrary> record_of(const Runtime& rt, const std::string& file) {
  for (const auto& l : rt.libraries()) {
    if (fs::path(l.path).filename() == file) return l;
  }
  return std::nullopt;
}

// Folders compared as canonical paths: libloom may be found as bin/../lib through its RUNPATH.
std::vector<std::string> canonical(const std::vector<std::string>& dirs) {
  std::vector<std::string> out;
  for (const auto& d : dirs) out.push_back(fs::weakly_canonical(d).string());
  return out;
}
const std::string kBesideCore = LOOM_TEST_CORE_DIR "/loom";

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

std::vector<std::string> op_names(const Runtime& rt) {
  std::vector<std::string> out;
  for (const auto& d : rt.registry().list()) out.push_back(d->name + " " + d->signatures());
  return out;
}

struct Broken {
  const char* file;
  std::vector<std::string> reason;
};

const Broken kBroken[] = {
    {"libloom_test_no_factory.so", {"exports no loom_plugin factory", "LOOM_PLUGIN"}},
    {"libloom_test_bad_abi.so",
     {"ABI version " + std::to_string(kAbiVersion + 1),
      "ABI version " + std::to_string(kAbiVersion), "rebuild"}},
    // A plugin of the ABI before this one (an older loom's build), refused the same way.
    {"libloom_test_old_abi.so",
     {"ABI version " + std::to_string(kAbiVersion - 1),
      "ABI version " + std::to_string(kAbiVersion), "rebuild"}},
    {"libloom_test_duplicate.so", {"'t_add'", "float64(float64,float64)", "libloom_testops.so"}},
    {"libloom_test_throws.so", {"registering its ops", "deliberate failure in register_ops"}},
    {"libloom_test_bad_gufunc.so", {"'t_bad_dot'", "(n),(n)->()"}},
    // Refused before dlopen (docs/reliability.md, "Plugin files").
    {"libloom_test_garbage.so", {"refused: not an ELF file", "start with 74 68 69 73"}},
};

class BrokenPlugin : public ::testing::TestWithParam<Broken> {};

TEST_P(BrokenPlugin, IsRecordedAsRefusedWithPathAndReason) {
  const auto rec = record_of(rt_all(), GetParam().file);
  ASSERT_TRUE(rec) << GetParam().file << " was not tried";
  EXPECT_FALSE(rec->ok);
  EXPECT_TRUE(contains(rec->error, kBrokenDir + "/" + GetParam().file)) << rec->error;
  for (const auto& r : GetParam().reason) EXPECT_TRUE(contains(rec->error, r)) << rec->error;
}

TEST_P(BrokenPlugin, ExplicitLoadThrowsPluginErrorWithTheSameMessage) {
  Runtime rt(RuntimeOptions{.plugin_path = {kSerialDir, kGoodDir}, .use_default_path = false});
  const auto before = op_names(rt);
  const std::string path = kBrokenDir + "/" + GetParam().file;
  try {
    rt.load_library(path);
    FAIL() << "loaded " << path;
  } catch (const PluginError& e) {
    EXPECT_EQ(std::string(e.what()), record_of(rt_all(), GetParam().file)->error);
  }
  const auto rec = record_of(rt, GetParam().file);
  ASSERT_TRUE(rec);
  EXPECT_FALSE(rec->ok);
  EXPECT_EQ(op_names(rt), before) << "a refused plugin changed the registry";
  EXPECT_EQ(rt.ufunc("t_add")(array({1.0}), array({2.0})).item<double>(), 3.0);
}

INSTANTIATE_TEST_SUITE_P(Refused, BrokenPlugin, ::testing::ValuesIn(kBroken), [](const auto& info) {
  std::string n = info.param.file;
  return n.substr(13, n.size() - 16);  // libloom_test_<n>.so
});

TEST(PluginFolder, GoodLibrariesLoadAmongBrokenOnes) {
  for (const char* f : {"libloom_serial.so", "libloom_testops.so", "libloom_test_extra.so"}) {
    const auto rec = record_of(rt_all(), f);
    ASSERT_TRUE(rec) << f;
    EXPECT_TRUE(rec->ok) << f << ": " << rec->error;
  }
  int refused = 0;  // in the broken folder (lib/loom holds whatever else the build made)
  for (const auto& l : rt_all().libraries()) refused += !l.ok && contains(l.path, kBrokenDir);
  EXPECT_EQ(refused, static_cast<int>(std::size(kBroken)));
}

TEST(PluginFolder, OpsOfGoodPluginsWorkAfterRefusals) {
  EXPECT_EQ(rt_all().ufunc("t_add")(array({1.0, 2.0}), 1.0).to_vector<double>(),
            (std::vector<double>{2.0, 3.0}));
  EXPECT_EQ(rt_all().ufunc("t_neg")(array({1.5f})).to_vector<float>(), (std::vector<float>{-1.5f}));
  EXPECT_EQ(rt_all().reduce("t_sum")(array({1.0, 2.0})).item<double>(), 3.0);
}

TEST(PluginFolder, RefusedPluginsLeaveNothingInTheRegistry) {
  for (const char* op :
       {"t_dup_only", "t_bad_abi_op", "t_throw_only", "t_gu_before", "t_bad_dot"}) {
    EXPECT_EQ(rt_all().registry().find(op), nullptr) << op;
  }
  const auto add = rt_all().registry().find("t_add");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->plugins, "libloom_testops.so");
  EXPECT_EQ(add->signatures(), "float32(float32,float32), float64(float64,float64)");
  EXPECT_EQ(add->doc, "a + b");
}

TEST(PluginLoad, SamePluginTwiceIsRefusedAsDuplicate) {
  Runtime rt(RuntimeOptions{.plugin_path = {kSerialDir, kGoodDir}, .use_default_path = false});
  const auto before = op_names(rt);
  try {
    rt.load_library(LOOM_TEST_GOOD_LIB);
    FAIL() << "loaded twice";
  } catch (const PluginError& e) {
    EXPECT_TRUE(contains(e.what(), "already registered by libloom_testops.so")) << e.what();
  }
  EXPECT_EQ(op_names(rt), before);
}

TEST(PluginLoad, SecondBackendForTheSameTargetIsRefused) {
  Runtime rt(RuntimeOptions{.plugin_path = {kSerialDir}, .use_default_path = false});
  try {
    rt.load_library(LOOM_TEST_SERIAL_LIB);
    FAIL() << "loaded twice";
  } catch (const PluginError& e) {
    EXPECT_TRUE(contains(e.what(), "target 'cpu'")) << e.what();
  }
  EXPECT_TRUE(rt.resolve_target("cpu").first != nullptr);
}

TEST(PluginLoad, MissingFileIsPluginErrorNamingThePath) {
  Runtime rt(RuntimeOptions{.use_default_path = false});
  const std::string path = kBrokenDir + "/libloom_no_such_file.so";
  try {
    rt.load_library(path);
    FAIL() << "loaded a missing file";
  } catch (const PluginError& e) {
    EXPECT_TRUE(contains(e.what(), path)) << e.what();
  }
}

// ---- search path ----

// Sets (or unsets, for nullptr) an environment variable for one test.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    value ? setenv(name, value, 1) : unsetenv(name);
  }
  ~ScopedEnv() { old_ ? setenv(name_, old_->c_str(), 1) : unsetenv(name_); }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// A fresh folder holding a copy of libloom_testops.so, made the current directory.
class PluginInCwd : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* t = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("loom_cwd_" + std::to_string(getpid()) + "_" + t->name());
    fs::create_directories(dir_);
    fs::copy_file(LOOM_TEST_GOOD_LIB, dir_ / "libloom_testops.so",
                  fs::copy_options::overwrite_existing);
    old_ = fs::current_path();
    fs::current_path(dir_);
  }
  void TearDown() override {
    fs::current_path(old_);
    fs::remove_all(dir_);
  }
  void expect_cwd_not_searched(const Runtime& rt) {
    EXPECT_EQ(rt.registry().find("t_add"), nullptr);
    for (const auto& l : rt.libraries()) EXPECT_FALSE(contains(l.path, dir_.string())) << l.path;
    for (const auto& p : rt.search_path()) {
      EXPECT_TRUE(fs::path(p).is_absolute()) << "relative entry '" << p << "'";
      EXPECT_FALSE(contains(p, dir_.string())) << p;
    }
  }
  fs::path dir_, old_;
};

TEST_F(PluginInCwd, DefaultRuntimeNeverSearchesTheCurrentDirectory) {
  ScopedEnv env("LOOM_PLUGIN_PATH", nullptr);
  Runtime rt;
  expect_cwd_not_searched(rt);
  EXPECT_EQ(canonical(rt.search_path()), canonical({kBesideCore}));
}

TEST_F(PluginInCwd, EmptyEntriesOfLoomPluginPathAreNotTheCurrentDirectory) {
  ScopedEnv env("LOOM_PLUGIN_PATH", "::");
  Runtime rt;
  expect_cwd_not_searched(rt);
}

TEST_F(PluginInCwd, EarlierFolderShadowsTheSameFileNameLater) {
  Runtime rt(RuntimeOptions{.plugin_path = {dir_.string(), kGoodDir}, .use_default_path = false});
  int seen = 0;
  for (const auto& l : rt.libraries()) {
    if (fs::path(l.path).filename() != "libloom_testops.so") continue;
    ++seen;
    EXPECT_TRUE(l.ok) << l.error;
    EXPECT_EQ(fs::path(l.path).parent_path(), dir_);
  }
  EXPECT_EQ(seen, 1);
}

TEST(SearchPath, LoomPluginPathIsHonouredBeforeTheFolderBesideLibloom) {
  const std::string value = kGoodDir + ":" + kBrokenDir;
  ScopedEnv env("LOOM_PLUGIN_PATH", value.c_str());
  Runtime rt;
  EXPECT_EQ(canonical(rt.search_path()), canonical({kGoodDir, kBrokenDir, kBesideCore}));
  EXPECT_NE(rt.registry().find("t_add"), nullptr);
  EXPECT_NE(rt.registry().find("t_neg"), nullptr);
}

TEST(SearchPath, ExplicitPluginPathReplacesLoomPluginPath) {
  ScopedEnv env("LOOM_PLUGIN_PATH", kBrokenDir.c_str());
  Runtime rt(RuntimeOptions{.plugin_path = {kGoodDir}});
  EXPECT_EQ(canonical(rt.search_path()), canonical({kGoodDir, kBesideCore}));
  EXPECT_EQ(rt.registry().find("t_neg"), nullptr);
}

TEST(SearchPath, WithoutDefaultPathOnlyTheGivenFoldersAreSearched) {
  ScopedEnv env("LOOM_PLUGIN_PATH", kBrokenDir.c_str());
  Runtime rt(RuntimeOptions{.plugin_path = {kGoodDir}, .use_default_path = false});
  EXPECT_EQ(rt.search_path(), (std::vector<std::string>{kGoodDir}));
  ASSERT_EQ(rt.libraries().size(), 1u);
  EXPECT_EQ(rt.libraries()[0].name, "testops");
}

}  // namespace
}  // namespace loom
