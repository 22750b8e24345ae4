// Libraries opened when first used (docs/plugins.md, "When libraries are opened"): the
// constructor reads the indexes and opens nothing that has one; a lookup opens exactly the
// libraries listing the name, a target its backend, the cuda family's halves once a cuda-family
// backend opens; a stale, unparsable or foreign-ABI index refuses its library; a library without
// an index is opened at start-up; a handle taken before a library added loops to its name calls
// them. Each test copies the libraries into a fresh folder, so that whether a copy is mapped
// (dl_iterate_phdr) says whether this test's runtime opened it.
#include <gtest/gtest.h>
#include <link.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "loom/def/ufunc.hpp"
#include "loom/error.hpp"
#include "loom/plugin.hpp"
#include "loom/runtime.hpp"

namespace loom {
namespace {

namespace fs = std::filesystem;

const std::string kSerialLib = LOOM_TEST_SERIAL_LIB;
const std::string kGoodLib = LOOM_TEST_GOOD_LIB;  // libloom_testops.so
const std::string kMultidevLib = LOOM_TEST_MULTIDEV_LIB;
const std::string kLazyDir = LOOM_TEST_LAZY_DIR;
const std::string kLazyMoreLib = LOOM_TEST_LAZY_MORE_DIR "/libloom_lazy_more.so";

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

std::string read(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A fresh folder (mode 0700, trusted) that copies of libraries go into.
class Folder {
 public:
  Folder() {
    std::string tmpl = (fs::temp_directory_path() / "loom_lazy_XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    dir_ = tmpl;
  }
  ~Folder() { fs::remove_all(dir_); }
  // Copies `lib` and, when `with_index`, its index.
  void add(const std::string& lib, bool with_index = true) const {
    fs::copy_file(lib, dir_ / fs::path(lib).filename());
    if (with_index)
      fs::copy_file(lib + ".index", dir_ / (fs::path(lib).filename().string() + ".index"));
  }
  void write(const std::string& file, const std::string& text) const {
    std::ofstream(dir_ / file, std::ios::trunc) << text;
  }
  std::string path(const std::string& file = {}) const {
    return file.empty() ? dir_.string() : (dir_ / file).string();
  }
  // The file names of this folder's libraries mapped into the process.
  std::set<std::string> opened() const {
    struct Ctx {
      std::string dir;
      std::set<std::string> out;
    } ctx{dir_.string() + "/", {}};
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void* p) {
          auto& c = *static_cast<Ctx*>(p);
          const std::string name = info->dlpi_name ? info->dlpi_name : "";
          if (name.starts_with(c.dir)) c.out.insert(name.substr(c.dir.size()));
          return 0;
        },
        &ctx);
    return ctx.out;
  }
  RuntimeOptions options() const {
    return RuntimeOptions{.plugin_path = {dir_.string()}, .use_default_path = false};
  }

 private:
  fs::path dir_;
};

using Names = std::set<std::string>;

// serial, testops, multidev and the lazy family: libloom_lazy.so, its fake cuda half and the
// fake cuda-family backend.
void add_all(const Folder& f) {
  for (const auto& lib : {kSerialLib, kGoodLib, kMultidevLib}) f.add(lib);
  for (const char* lib : {"libloom_lazy.so", "libloom_lazy_cuda.so", "libloom_fakecuda.so"}) {
    f.add(kLazyDir + "/" + lib);
  }
}

TEST(LazyPlugins, ConstructionOpensNoLibraryThatHasAnIndex) {
  Folder f;
  add_all(f);
  Runtime rt(f.options());
  EXPECT_EQ(f.opened(), Names{});
  EXPECT_TRUE(rt.search_notices().empty());  // the .index files are not "passed over"
}

TEST(LazyPlugins, ALookupOpensExactlyTheLibrariesListingTheName) {
  Folder f;
  add_all(f);
  Runtime rt(f.options());
  auto add = rt.ufunc("t_add");
  EXPECT_EQ(f.opened(), Names{"libloom_testops.so"});
  const Array x = full({4}, 1.5f);
  EXPECT_EQ(add(x, x, {.target = "cpu"}).at<float>(0), 3.0f);  // the target opens serial
  EXPECT_EQ(f.opened(), (Names{"libloom_testops.so", "libloom_serial.so"}));
  rt.kernel("lz_fill");  // host family only: the fake cuda half stays closed
  EXPECT_EQ(f.opened(), (Names{"libloom_testops.so", "libloom_serial.so", "libloom_lazy.so"}));
  EXPECT_THROW(rt.ufunc("no_such_op"), LookupError);
  EXPECT_EQ(f.opened().size(), 3u);
}

TEST(LazyPlugins, ATargetOpensOnlyItsBackend) {
  Folder f;
  add_all(f);
  Runtime rt(f.options());
  EXPECT_EQ(rt.resolve_target("multidev:1").second, 1);
  EXPECT_EQ(f.opened(), Names{"libloom_test_multidev.so"});
  EXPECT_NE(rt.collectives("multidev"), nullptr);
}

TEST(LazyPlugins, TargetsOpensEveryBackendButNoOps) {
  Folder f;
  add_all(f);
  Runtime rt(f.options());
  Names targets;
  for (const auto& t : rt.targets()) targets.insert(t.target);
  EXPECT_TRUE(targets.count("fakecuda") && targets.count("multidev") && targets.count("cpu"));
  EXPECT_EQ(f.opened(),
            (Names{"libloom_serial.so", "libloom_test_multidev.so", "libloom_fakecuda.so"}));
}

TEST(LazyPlugins, TheCudaHalfOfALookedUpNameOpensWithACudaFamilyBackend) {
  Folder f;
  add_all(f);
  Runtime rt(f.options());
  const Kernel k = rt.kernel("lz_fill");
  EXPECT_FALSE(k.desc().has_family(Family::cuda));
  EXPECT_EQ(f.opened(), Names{"libloom_lazy.so"});
  // Unavailable (no device), but opened: the cuda family is active from now on.
  EXPECT_THROW(rt.resolve_target("fakecuda"), TargetError);
  EXPECT_EQ(f.opened(), (Names{"libloom_lazy.so", "libloom_fakecuda.so", "libloom_lazy_cuda.so"}));
  EXPECT_TRUE(rt.kernel("lz_fill").desc().has_family(Family::cuda));
}

TEST(LazyPlugins, AHostOnlyProgramNeverOpensTheCudaFamily) {
  Folder f;
  add_all(f);
  Runtime rt(f.options());
  const Array x = full({8}, 2.0f);
  EXPECT_EQ(rt.reduce("lz_sum")(x).item<float>(), 16.0f);
  Array out = zeros({8}, DType::float32);
  rt.kernel("lz_fill").launch({.size = 8}, out, 3.0f);
  EXPECT_EQ(rt.reduce("t_sum")(out).item<float>(), 24.0f);
  EXPECT_EQ(f.opened(), (Names{"libloom_lazy.so", "libloom_serial.so", "libloom_testops.so"}));
}

TEST(LazyPlugins, LibrariesAndRegistryOpenEverything) {
  Folder f;
  add_all(f);
  Runtime rt(f.options());
  const auto libs = rt.libraries();
  EXPECT_EQ(libs.size(), 6u);
  for (const auto& l : libs) EXPECT_TRUE(l.ok) << l.path << ": " << l.error;
  EXPECT_EQ(f.opened().size(), 6u);
  EXPECT_NE(rt.registry().find("lz_add"), nullptr);
  EXPECT_TRUE(rt.registry().find_kernel("lz_fill")->has_family(Family::cuda));
}

TEST(LazyPlugins, ALibraryWithoutAnIndexIsOpenedAtStartUp) {
  Folder f;
  f.add(kSerialLib);
  f.add(kGoodLib, /*with_index=*/false);
  Runtime rt(f.options());
  EXPECT_EQ(f.opened(), Names{"libloom_testops.so"});
}

TEST(LazyPlugins, AStaleIndexRefusesItsLibraryWhenOpened) {
  Folder f;
  f.add(kSerialLib);
  f.add(kGoodLib, /*with_index=*/false);
  // The index lists an op the library does not define.
  f.write("libloom_testops.so.index", read(kGoodLib + ".index") + "op ufunc t_gone\n");
  Runtime rt(f.options());
  EXPECT_EQ(f.opened(), Names{});
  try {
    rt.ufunc("t_add");
    FAIL() << "a stale index was taken";
  } catch (const LookupError& e) {
    const std::string m = e.what();
    EXPECT_TRUE(contains(m, "libloom_testops.so would have defined it but was refused")) << m;
    EXPECT_TRUE(contains(m, "libloom_testops.so.index is stale (it lists ufunc 't_gone')")) << m;
    EXPECT_TRUE(contains(m,
                         "rebuild the plugin (loom_add_plugin writes the index) or delete "
                         "the index to load it at start-up"))
        << m;
  }
  bool recorded = false;
  for (const auto& l : rt.libraries()) {
    if (l.path == f.path("libloom_testops.so")) recorded = !l.ok && contains(l.error, "is stale");
  }
  EXPECT_TRUE(recorded);
  // Nothing of it was merged; the serial backend still works.
  EXPECT_EQ(rt.registry().find("t_sum"), nullptr);
  EXPECT_EQ(rt.resolve_target("cpu").second, 0);
}

TEST(LazyPlugins, AStaleIndexIsAPluginErrorOfLoadLibrary) {
  Folder f;
  f.add(kGoodLib, /*with_index=*/false);
  std::string text = read(kGoodLib + ".index");
  text.erase(text.find("op ufunc t_add\n"), 15);  // the library defines one it does not list
  f.write("libloom_testops.so.index", text);
  Runtime rt(RuntimeOptions{.use_default_path = false});
  try {
    rt.load_library(f.path("libloom_testops.so"));
    FAIL() << "a stale index was taken";
  } catch (const PluginError& e) {
    EXPECT_TRUE(contains(e.what(), "is stale (the library defines ufunc 't_add')")) << e.what();
  }
  EXPECT_EQ(rt.registry().find("t_sum"), nullptr);
}

TEST(LazyPlugins, AnUnparsableIndexRefusesItsLibrary) {
  Folder f;
  f.add(kGoodLib, /*with_index=*/false);
  f.write("libloom_testops.so.index", "not an index\n");
  Runtime rt(f.options());
  const auto libs = rt.libraries();
  ASSERT_EQ(libs.size(), 1u);
  EXPECT_FALSE(libs[0].ok);
  EXPECT_TRUE(contains(libs[0].error, "libloom_testops.so.index cannot be parsed"))
      << libs[0].error;
  EXPECT_TRUE(contains(libs[0].error, "rebuild the plugin")) << libs[0].error;
  EXPECT_EQ(f.opened(), Names{});
  try {
    rt.ufunc("t_add");
    FAIL();
  } catch (const LookupError& e) {
    EXPECT_TRUE(contains(e.what(), "cannot be parsed")) << e.what();
  }
}

TEST(LazyPlugins, AnIndexOfAnotherAbiRefusesItsLibrary) {
  Folder f;
  f.add(kGoodLib, /*with_index=*/false);
  std::string text = read(kGoodLib + ".index");
  const std::string abi = "abi " + std::to_string(kAbiVersion);
  text.replace(text.find(abi), abi.size(), "abi 999");
  f.write("libloom_testops.so.index", text);
  Runtime rt(f.options());
  const auto libs = rt.libraries();
  ASSERT_EQ(libs.size(), 1u);
  EXPECT_TRUE(contains(libs[0].error,
                       "was written for loom ABI version 999 but this loom has ABI "
                       "version " +
                           std::to_string(kAbiVersion)))
      << libs[0].error;
  EXPECT_EQ(f.opened(), Names{});
}

// Which library wins stays as with eager loading: opening a library opens the earlier ones that
// share a name with it first. libloom_test_duplicate.so (a later folder) defines t_dup_only and
// t_add, which libloom_testops.so defines: looking up t_dup_only opens testops first, and the
// duplicate is refused as it was when everything loaded at start-up.
TEST(LazyPlugins, TheEarlierLibraryOfASharedNameWinsWhicheverNameIsLookedUpFirst) {
  Folder first, second;
  first.add(kGoodLib);
  second.add(LOOM_TEST_BROKEN_DIR "/libloom_test_duplicate.so");
  Runtime rt(
      RuntimeOptions{.plugin_path = {first.path(), second.path()}, .use_default_path = false});
  try {
    rt.ufunc("t_dup_only");
    FAIL() << "the later library took t_add";
  } catch (const LookupError& e) {
    EXPECT_TRUE(contains(e.what(),
                         "libloom_test_duplicate.so would have defined it but was "
                         "refused"))
        << e.what();
  }
  EXPECT_EQ(first.opened(), Names{"libloom_testops.so"});
  EXPECT_EQ(second.opened(), Names{"libloom_test_duplicate.so"});
  EXPECT_EQ(rt.ufunc("t_add").desc().signatures(),
            "float32(float32,float32), float64(float64,float64)");
}

// Runtime::define's ownership checks see the unopened libraries' ops: t_add is testops' even
// before anything looked it up, so the program may not add loops to it.
struct Sub {
  template <class T>
  T operator()(T a, T b) const {
    return a - b;
  }
};
TEST(LazyPlugins, DefineChecksTheNamesOfUnopenedLibraries) {
  Folder f;
  f.add(kSerialLib);
  f.add(kGoodLib);
  Runtime rt(f.options());
  try {
    rt.define("app", [](Registrar& reg) {
      def::ufunc<Sub, std::int8_t(std::int8_t, std::int8_t)>(reg, "t_add", "a - b");
    });
    FAIL() << "the program took loops of testops' t_add";
  } catch (const PluginError& e) {
    EXPECT_TRUE(contains(e.what(), "which belongs to plugin 'testops'")) << e.what();
  }
  EXPECT_EQ(f.opened(), (Names{"libloom_serial.so", "libloom_testops.so"}));
  EXPECT_EQ(rt.ufunc("t_add")(full({1}, 1.0f), full({1}, 2.0f)).item<float>(), 3.0f);
}

// A handle made before a library adds loops to its name calls them (Runtime::current_op): every
// entry point, on a plain target, a device set and sharded arrays.
TEST(LazyPlugins, AHandleTakenBeforeALibraryAddedLoopsUsesThem) {
  Folder f;
  add_all(f);
  Runtime rt(f.options());
  const Ufunc add = rt.ufunc("lz_add");
  const Reduce sum = rt.reduce("lz_sum");
  const Kernel fill = rt.kernel("lz_fill");
  const Array x = full({6}, 2.0);  // float64: lz_add has only float32 loops yet
  EXPECT_THROW(add(x, x), Error);
  rt.load_library(kLazyMoreLib);  // float64 loops of lz_add, lz_sum and lz_fill
  EXPECT_EQ(add(x, x).dtype(), DType::float64);
  EXPECT_EQ(add.call({x, x})[0].at<double>(0), 4.0);
  EXPECT_EQ(add.reduce(x).item<double>(), 12.0);
  EXPECT_EQ(add.accumulate(x).at<double>(5), 12.0);
  const Array idx = full({2}, std::int64_t{0});
  EXPECT_EQ(add.reduceat(x, idx).at<double>(0), 2.0);
  EXPECT_EQ(add.outer(x, x).shape(), (Shape{6, 6}));
  Array a = zeros({6}, DType::float64);
  add.at(a, idx, full({2}, 1.0));
  EXPECT_EQ(a.at<double>(0), 2.0);
  const std::vector<AtIndex> index{idx};
  add.at(a, std::span<const AtIndex>(index), full({2}, 1.0));
  EXPECT_EQ(a.at<double>(0), 4.0);
  EXPECT_EQ(sum(x).item<double>(), 12.0);
  Array out = zeros({6}, DType::float64);
  fill.launch({.size = 6}, out, 7.0);
  EXPECT_EQ(out.at<double>(5), 7.0);
  // A device set, a kernel on one, sharded arrays.
  EXPECT_EQ(add(x, x, {.target = "multidev:0,1"}).at<double>(3), 4.0);
  fill.launch({.size = 6, .target = "multidev:0,1"}, out, 5.0);
  EXPECT_EQ(out.at<double>(0), 5.0);
  const ShardedArray sx = rt.to_devices(x, "multidev:all");
  EXPECT_EQ(rt.to_host(add(sx, sx)).at<double>(0), 4.0);
  EXPECT_EQ(sum(sx).item<double>(), 12.0);
  EXPECT_EQ(add.reduce(sx).item<double>(), 12.0);
}

}  // namespace
}  // namespace loom
