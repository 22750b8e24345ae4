// Search path notices: entries that do not exist or are not folders, and loom plugins not named
// libloom_*.so, are reported by Runtime::search_notices(), loom-info and a failed lookup instead
// of being skipped without a trace; other files of a plugin folder are left alone.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "loom/error.hpp"
#include "loom/runtime.hpp"

namespace loom {
namespace {

namespace fs = std::filesystem;

const std::string kSerialDir = LOOM_TEST_SERIAL_DIR;
const std::string kGoodDir = LOOM_TEST_GOOD_DIR;
const std::string kGoodLib = LOOM_TEST_GOOD_LIB;  // libloom_testops.so
const std::string kCoreLib = LOOM_TEST_CORE_DIR "/libloom.so";

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// A plugin folder holding the test plugin under two names the loader passes over, a shared
// object that is no plugin, a truncated copy of the plugin, and files that are no libraries.
class MisnamedFolder {
 public:
  MisnamedFolder() {
    std::string tmpl = (fs::temp_directory_path() / "loom_search_XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    dir_ = tmpl;
    fs::copy_file(kGoodLib, dir_ / "loom_testops.so");  // the prefix "lib" forgotten
    fs::copy_file(kGoodLib, dir_ / "libtestops.so");    // a plain CMake MODULE name
    fs::copy_file(kCoreLib, dir_ / "libhelper.so");     // a library, but no loom plugin
    fs::copy_file(kGoodLib, dir_ / "libtruncated.so");  // a plugin cut short: unreadable tables
    fs::resize_file(dir_ / "libtruncated.so", fs::file_size(kGoodLib) / 2);
    std::ofstream(dir_ / "fake.so") << "not a shared object\n";

    std::ofstream(dir_ / "CMakeCache.txt") << "# a build folder's other files\n";
  }
  // Also the plugin under the name the loader loads, and copies of it beside that name.
  void add_loaded_name() const {
    fs::copy_file(kGoodLib, dir_ / "libloom_testops.so");
    fs::copy_file(kGoodLib, dir_ / "libloom_testops.so.1");
    fs::create_symlink(dir_ / "libloom_testops.so", dir_ / "testops.so");
  }
  ~MisnamedFolder() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string str() const { return dir_.string(); }
  std::string file(const char* f) const { return (dir_ / f).string(); }

 private:
  fs::path dir_;
};

std::string misnamed(const std::string& path, const std::string& rename) {
  return "'" + path +
         "' is a loom plugin (it exports loom_plugin) but the loader loads only files named "
         "libloom_*.so; rename it " +
         rename + " (loom_add_plugin names it so)";
}

template <class F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const LookupError& e) {
    return e.what();
  }
  return "(no LookupError)";
}

TEST(SearchNotices, MissingEntriesFilesAndMisnamedPluginsAreReported) {
  const MisnamedFolder dir;
  const std::string missing = dir.str() + "_nope";
  const Runtime rt(RuntimeOptions{.plugin_path = {missing, dir.str(), kGoodLib, kSerialDir},
                                  .use_default_path = false});
  const auto n = rt.search_notices();
  ASSERT_EQ(n.size(), 4u);
  EXPECT_EQ(n[0].kind, SearchNotice::Kind::missing_entry);
  EXPECT_EQ(n[0].path, missing);
  EXPECT_EQ(n[0].message, "search path entry '" + missing + "' does not exist");
  // Sorted by file name within the folder; the non-plugins (libhelper.so, the truncated copy,
  // fake.so, CMakeCache.txt) are not mentioned.
  EXPECT_EQ(n[1].kind, SearchNotice::Kind::misnamed_library);
  EXPECT_EQ(n[1].path, dir.file("libtestops.so"));
  EXPECT_EQ(n[1].message, misnamed(dir.file("libtestops.so"), "libloom_testops.so"));
  EXPECT_EQ(n[2].kind, SearchNotice::Kind::misnamed_library);
  EXPECT_EQ(n[2].message, misnamed(dir.file("loom_testops.so"), "libloom_testops.so"));
  EXPECT_EQ(n[3].kind, SearchNotice::Kind::not_a_folder);
  EXPECT_EQ(n[3].message, "search path entry '" + kGoodLib +
                              "' is not a folder; the search path lists the folders holding the "
                              "libraries");
  // Passed over means not loaded: the misnamed copies registered nothing.
  EXPECT_EQ(rt.registry().find("t_add"), nullptr);
  for (const auto& l : rt.libraries()) EXPECT_EQ(fs::path(l.path).parent_path(), kSerialDir);
}

TEST(SearchNotices, CopiesBesideTheLoadedNameAreNotReported) {
  const MisnamedFolder dir;
  dir.add_loaded_name();  // the loader has the plugin: loom_testops.so and the rest are copies
  const Runtime rt(
      RuntimeOptions{.plugin_path = {kSerialDir, dir.str()}, .use_default_path = false});
  EXPECT_TRUE(rt.search_notices().empty()) << rt.search_notices().at(0).message;
  EXPECT_NE(rt.registry().find("t_add"), nullptr);
}

TEST(SearchNotices, LookupErrorsAppendThem) {
  const MisnamedFolder dir;
  const std::string missing = dir.str() + "_nope";
  const Runtime rt(RuntimeOptions{.plugin_path = {missing, kSerialDir, kGoodDir, dir.str()},
                                  .use_default_path = false});
  const std::string notes = "search path entry '" + missing + "' does not exist; " +
                            misnamed(dir.file("libtestops.so"), "libloom_testops.so") + "; " +
                            misnamed(dir.file("loom_testops.so"), "libloom_testops.so");
  EXPECT_EQ(message_of([&] { rt.ufunc("nothing_like_it"); }),
            "no ufunc or gufunc named 'nothing_like_it' is registered; loom-info lists the "
            "registered ops; note: " +
                notes);
  // After a suggestion (a sentence of its own), the note is one too.
  EXPECT_EQ(message_of([&] { rt.reduce("t_summ"); }),
            "no reduction named 't_summ' is registered; loom-info lists the registered ops; did "
            "you mean 't_sum'? Note: " +
                notes + ".");
  EXPECT_EQ(message_of([&] { rt.kernel("nothing_like_it"); }),
            "no kernel named 'nothing_like_it' is registered; loom-info lists the registered "
            "kernels; note: " +
                notes);
  // A name that exists as another kind: the notices explain nothing, so none.
  EXPECT_FALSE(contains(message_of([&] { rt.ufunc("t_sum"); }), "note"));
}

TEST(SearchNotices, NoNoticesNoNote) {
  const Runtime rt(
      RuntimeOptions{.plugin_path = {kSerialDir, kGoodDir}, .use_default_path = false});
  EXPECT_TRUE(rt.search_notices().empty());
  EXPECT_EQ(message_of([&] { rt.ufunc("nothing_like_it"); }),
            "no ufunc or gufunc named 'nothing_like_it' is registered; loom-info lists the "
            "registered ops");
}

TEST(SearchNotices, LookupNamesAtMostThree) {
  const Runtime rt(RuntimeOptions{.plugin_path = {"/loom_nope_1", "/loom_nope_2", "/loom_nope_3",
                                                  "/loom_nope_4", "/loom_nope_5", kSerialDir},
                                  .use_default_path = false});
  EXPECT_EQ(rt.search_notices().size(), 5u);
  const std::string m = message_of([&] { rt.ufunc("nothing_like_it"); });
  EXPECT_TRUE(contains(m,
                       "'/loom_nope_3' does not exist; and 2 more (Runtime::search_notices() "
                       "and loom-info list them)"))
      << m;
  EXPECT_FALSE(contains(m, "/loom_nope_4")) << m;
}

#ifdef LOOM_TEST_INFO
// loom-info run as a user runs it, with LOOM_PLUGIN_PATH set.
std::string run_info(const std::string& plugin_path, const std::string& args) {
  const std::string cmd =
      "LOOM_PLUGIN_PATH='" + plugin_path + "' '" LOOM_TEST_INFO "' " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return "(popen failed)";
  std::string out;
  char buf[4096];
  for (std::size_t got; (got = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, got);
  const int rc = pclose(p);
  return rc == 0 ? out : out + "\n(exit status " + std::to_string(rc) + ")";
}

TEST(SearchNotices, LoomInfoListsThem) {
  const MisnamedFolder dir;
  const std::string missing = dir.str() + "_nope";
  const std::string text = run_info(missing + ":" + dir.str(), "");
  EXPECT_TRUE(contains(
      text, "\nSearch path notices (3)\n  search path entry '" + missing + "' does not exist\n  " +
                misnamed(dir.file("libtestops.so"), "libloom_testops.so") + "\n  " +
                misnamed(dir.file("loom_testops.so"), "libloom_testops.so") + "\n"))
      << text;
  const std::string json = run_info(missing + ":" + dir.str(), "--json --indent -1");
  EXPECT_TRUE(contains(json, "\"search_notices\":[{\"kind\":\"missing_entry\",\"path\":\"" +
                                 missing + "\",\"message\":\"search path entry '" + missing +
                                 "' does not exist\"},{\"kind\":\"misnamed_library\""))
      << json;
  // Nothing passed over: no section.
  EXPECT_FALSE(contains(run_info(kGoodDir, ""), "Search path notices")) << run_info(kGoodDir, "");
}
#endif

}  // namespace
}  // namespace loom
