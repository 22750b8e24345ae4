// Plugin folder policy: a folder on the search path that every user can write to is refused whole
// (recorded in Runtime::libraries() with its path); so is a plugin file every user can write to.
// 0755 folders and 0644 files load. (docs/reliability.md, "Plugin folders".)
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "loom/loom.hpp"

namespace fs = std::filesystem;

namespace {

// A fresh folder holding a copy of the test plugin libloom_test_late.so, removed at the end.
struct TempPluginDir {
  fs::path dir, lib;
  explicit TempPluginDir(const std::string& tag) {
    dir = fs::temp_directory_path() /
          ("loom-perm-" + tag + "-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directory(dir);
    lib = dir / "libloom_test_late.so";
    fs::copy_file(LOOM_CONC_LATE_LIB, lib);
    ::chmod(lib.c_str(), 0644);
  }
  ~TempPluginDir() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  loom::RuntimeOptions options() const {
    return {.plugin_path = {dir.string()}, .use_default_path = false};
  }
};

const loom::LoadedLibrary* find_record(const std::vector<loom::LoadedLibrary>& libs,
                                       const std::string& path) {
  for (const auto& l : libs) {
    if (l.path == path) return &l;
  }
  return nullptr;
}

}  // namespace

TEST(PluginFolder, PrivateFolderLoads) {
  TempPluginDir t("ok");
  ::chmod(t.dir.c_str(), 0755);
  loom::Runtime rt(t.options());
  const auto libs = rt.libraries();
  const auto* rec = find_record(libs, t.lib.string());
  ASSERT_NE(rec, nullptr);
  EXPECT_TRUE(rec->ok) << rec->error;
  EXPECT_NO_THROW(rt.ufunc("c_triple"));
}

TEST(PluginFolder, WorldWritableFolderIsRefused) {
  for (mode_t mode : {0777, 01777}) {  // the sticky bit does not make it safe: others can add files
    TempPluginDir t("ww");
    ASSERT_EQ(::chmod(t.dir.c_str(), mode), 0);
    loom::Runtime rt(t.options());
    const auto libs = rt.libraries();
    const auto* rec = find_record(libs, t.dir.string());
    ASSERT_NE(rec, nullptr) << "no record of the refused folder";
    EXPECT_FALSE(rec->ok);
    EXPECT_NE(rec->error.find(t.dir.string()), std::string::npos) << rec->error;
    EXPECT_NE(rec->error.find("writable by every user"), std::string::npos) << rec->error;
    EXPECT_EQ(find_record(libs, t.lib.string()), nullptr) << "a file of the folder was loaded";
    EXPECT_THROW(rt.ufunc("c_triple"), loom::LookupError);
    ::chmod(t.dir.c_str(), 0755);
  }
}

TEST(PluginFolder, WorldWritableFileIsRefused) {
  TempPluginDir t("wwf");
  ::chmod(t.dir.c_str(), 0755);
  ASSERT_EQ(::chmod(t.lib.c_str(), 0666), 0);
  {
    loom::Runtime rt(t.options());  // found by the folder scan
    const auto libs = rt.libraries();
    const auto* rec = find_record(libs, t.lib.string());
    ASSERT_NE(rec, nullptr);
    EXPECT_FALSE(rec->ok);
    EXPECT_NE(rec->error.find(t.lib.string()), std::string::npos) << rec->error;
    EXPECT_THROW(rt.ufunc("c_triple"), loom::LookupError);
  }
  {
    loom::Runtime rt(loom::RuntimeOptions{.use_default_path = false});  // named explicitly
    try {
      rt.load_library(t.lib.string());
      ADD_FAILURE() << "a world-writable plugin file was loaded";
    } catch (const loom::PluginError& e) {
      EXPECT_NE(std::string(e.what()).find(t.lib.string()), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("0666"), std::string::npos) << e.what();
    }
  }
}
