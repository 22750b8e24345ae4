// Catalogue triggers of issue 12's plugin loading (docs/errors.md): files refused before dlopen
// (not ELF, truncated, another machine, malformed headers), untrusted folders, symlinks and
// owners, loops added to another plugin's op, a dependency dlopen cannot find, and the lookup of
// an op that a refused library would have defined. Copies of real plugins are made under gtest's
// temp folder.
#include <elf.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "catalogue.hpp"
#include "loom/def/ufunc.hpp"
#include "loom/error.hpp"
#include "loom/plugin.hpp"
#include "loom/registry.hpp"
#include "loom/runtime.hpp"
#include "trigger_helpers.hpp"

namespace loom {

using namespace catalogue;  // NOLINT: the helpers of this file

namespace {

namespace fs = std::filesystem;

std::vector<char> read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A fresh folder (mode 0755) under gtest's temp folder, holding `bytes` as `name`.
std::string plugin_copy(const std::string& folder, const std::string& name,
                        const std::vector<char>& bytes) {
  const std::string dir = ::testing::TempDir() + "loom_cat_plugins/" + folder;
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::permissions(dir, fs::perms(0755));
  const std::string lib = dir + "/" + name;
  std::ofstream(lib, std::ios::binary).write(bytes.data(), static_cast<long>(bytes.size()));
  fs::permissions(lib, fs::perms(0755));
  return lib;
}

const std::string kGoodLib = LOOM_CAT_GOOD_DIR "/libloom_testops.so";

std::string read_text(const std::string& path) {
  const auto bytes = read_all(path);
  return {bytes.begin(), bytes.end()};
}

// A copy of libloom_testops.so in a fresh folder, beside an index holding `index_text`.
std::string testops_with_index(const std::string& folder, const std::string& index_text) {
  const std::string lib = plugin_copy(folder, "libloom_testops.so", read_all(kGoodLib));
  std::ofstream(lib + ".index", std::ios::trunc) << index_text;
  fs::permissions(lib + ".index", fs::perms(0644));
  return lib;
}

std::vector<char> serial_with(std::size_t offset, const void* value, std::size_t n) {
  auto bytes = read_all(LOOM_CAT_SERIAL_LIB);
  std::memcpy(bytes.data() + offset, value, n);
  return bytes;
}

struct Two {  // a template: its float(float, float) loop must not compute in double
  template <class T>
  T operator()(T a, T b) const {
    return a + b;
  }
};

const TriggerSet plugin_files = {
    {"E-PLUGIN-FILE-NOT-ELF",
     [] { test_rt().load_library(kBrokenDir + "/libloom_test_garbage.so"); }},
    {"E-PLUGIN-FILE-TRUNCATED",
     [] {
       auto bytes = read_all(LOOM_CAT_SERIAL_LIB);
       bytes.resize(4096);  // a half-copied install
       fresh_test_rt().load_library(plugin_copy("truncated", "libloom_cat_cut.so", bytes));
     }},
    {"E-PLUGIN-FILE-FOREIGN",
     [] {
       const std::uint16_t aarch64 = EM_AARCH64;
       fresh_test_rt().load_library(
           plugin_copy("foreign", "libloom_cat_aarch64.so",
                       serial_with(offsetof(Elf64_Ehdr, e_machine), &aarch64, 2)));
     }},
    {"E-PLUGIN-FILE-MALFORMED",
     [] {
       const std::uint16_t entsize = 32;  // not sizeof(Elf64_Phdr)
       fresh_test_rt().load_library(
           plugin_copy("malformed", "libloom_cat_phentsize.so",
                       serial_with(offsetof(Elf64_Ehdr, e_phentsize), &entsize, 2)));
     }},
    {"E-PLUGIN-LOAD",
     [] {
       // A dependency the dynamic loader cannot find: "libloom.so" renamed in the string table.
       auto bytes = read_all(LOOM_CAT_SERIAL_LIB);
       const std::string needed = "libloom.so";
       auto it = std::search(bytes.begin(), bytes.end(), needed.begin(), needed.end());
       if (it == bytes.end()) throw Skip{"libloom_serial.so names no libloom.so dependency"};
       it[5] = 'x';  // libloxm.so
       fresh_test_rt().load_library(plugin_copy("missing_dep", "libloom_cat_needs.so", bytes));
     }},
    {"E-PLUGIN-UNTRUSTED-FOLDER",
     [] {
       const std::string lib =
           plugin_copy("open_parent/sub", "libloom_cat_serial.so", read_all(LOOM_CAT_SERIAL_LIB));
       fs::permissions(fs::path(lib).parent_path().parent_path(), fs::perms(0777));
       fresh_test_rt().load_library(lib);
     }},
    {"E-PLUGIN-UNTRUSTED-SYMLINK",
     [] {
       const std::string target =
           plugin_copy("link_target", "serial_copy.so", read_all(LOOM_CAT_SERIAL_LIB));
       fs::permissions(target, fs::perms(0666));
       const std::string link = fs::path(target).parent_path().string() + "/libloom_cat_link.so";
       fs::create_symlink(target, link);
       fresh_test_rt().load_library(link);
     }},
    {"E-PLUGIN-FOREIGN-OWNER",
     [] {
       if (::geteuid() != 0) throw Skip{"needs root to give a file to another user"};
       const std::string lib =
           plugin_copy("owner", "libloom_cat_theirs.so", read_all(LOOM_CAT_SERIAL_LIB));
       if (::chown(lib.c_str(), 4242, 4242) != 0) throw Skip{"chown failed"};
       fresh_test_rt().load_library(lib);
     }},
    {"E-PLUGIN-FOREIGN-LOOPS",
     [] {
       Registry registry;
       Registrar a(Family::host), b(Family::host);
       def::ufunc<Two, double(double, double)>(a, "op", "");
       def::ufunc<Two, float(float, float)>(b, "op", "");
       registry.merge(a, "liba.so", "a");
       registry.merge(b, "libb.so", "b");
     }},
    // Indexes (docs/plugins.md, "When libraries are opened"): a copy of libloom_testops.so in a
    // fresh folder beside an index written here, loaded with load_library, which checks an index
    // as the lazy opening does.
    {"E-PLUGIN-INDEX-STALE",
     [] {
       const std::string lib =
           testops_with_index("stale", read_text(kGoodLib + ".index") + "op ufunc t_gone\n");
       fresh_test_rt().load_library(lib);
     }},
    {"E-PLUGIN-INDEX-BAD",
     [] { fresh_test_rt().load_library(testops_with_index("bad_index", "not an index\n")); }},
    {"E-PLUGIN-INDEX-ABI",
     [] {
       std::string text = read_text(kGoodLib + ".index");
       const std::string abi = "abi " + std::to_string(kAbiVersion);
       text.replace(text.find(abi), abi.size(), "abi 999");
       fresh_test_rt().load_library(testops_with_index("abi_index", text));
     }},
    {"E-PLUGIN-INDEX-UNTRUSTED",
     [] {
       const std::string lib = testops_with_index("open_index", read_text(kGoodLib + ".index"));
       fs::permissions(lib + ".index", fs::perms(0646));
       fresh_test_rt().load_library(lib);
     }},
    {"E-LOOKUP-REFUSED-PLUGIN",
     [] {
       // libloom_test_duplicate.so registers t_dup_only and then t_add again: refused whole.
       Runtime r = fresh_test_rt();
       try {
         r.load_library(kBrokenDir + "/libloom_test_duplicate.so");
       } catch (const PluginError&) {
       }
       r.ufunc("t_dup_only");
     }},
};

}  // namespace

}  // namespace loom
