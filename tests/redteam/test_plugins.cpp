// Red-team cases of issue 12, items 3, 8 and the plugin part of 9: plugin files that killed the
// program inside dlopen (a truncated copy: SIGBUS), files that are not shared objects for this
// machine, folders and symlinks that let another user swap a plugin, a plugin that silently
// removed the math plugin by registering `add` differently, one that added a subtracting int8
// loop to `add`, and the missing-op message that did not say why. Cases that crashed run in a
// child process. Rules: docs/reliability.md ("Plugin files") and docs/plugins.md ("Which library
// wins").
#include <elf.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "loom/loom.hpp"
#include "loom/plugin_file.hpp"

namespace {

namespace fs = std::filesystem;
using loom::LoadedLibrary;
using loom::PluginError;
using loom::Runtime;
using loom::RuntimeOptions;

const std::string kSerialDir = LOOM_REDTEAM_SERIAL_DIR;
const std::string kMathLib = LOOM_REDTEAM_MATH_LIB;
const std::string kSerialLib = kSerialDir + "/libloom_serial.so";
const std::string kPlugins = std::string(LOOM_REDTEAM_PLUGINS) + "/plugins";

std::vector<char> read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
void write_all(const std::string& path, const std::vector<char>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// A fresh folder of the test's own (mode 0755) under gtest's temp folder.
std::string fresh_dir(const std::string& name) {
  const std::string d = ::testing::TempDir() + "loom_rt_plugins/" + name;
  fs::remove_all(d);
  fs::create_directories(d);
  fs::permissions(::testing::TempDir() + "loom_rt_plugins", fs::perms(0755));
  fs::permissions(d, fs::perms(0755));
  return d;
}

// The libraries that define a plugin's ops in this build: "libloom_math.so", and its CUDA half
// beside it in a CUDA build ("libloom_math.so, libloom_math_cuda.so").
std::string builds_of(const std::string& name) {
  const fs::path folder = fs::path(kMathLib).parent_path();
  const std::string cuda = "libloom_" + name + "_cuda.so";
  return "libloom_" + name + ".so" + (fs::exists(folder / cuda) ? ", " + cuda : "");
}
bool cuda_half_of_math() { return builds_of("math").find("cuda") != std::string::npos; }

std::optional<LoadedLibrary> record_of(const Runtime& rt, const std::string& path) {
  // The default folder may be spelled <build>/bin/../lib/loom: compare resolved paths.
  for (const auto& r : rt.libraries()) {
    if (fs::weakly_canonical(r.path) == fs::weakly_canonical(path)) return r;
  }
  return std::nullopt;
}

template <class E, class F>
std::string message_of(F f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("wrong exception: ") + e.what();
  }
  return "no exception";
}

// In a child: f returns "" when every expectation held, else what went wrong; the child exits 0
// only in the first case (and prints the second, which gtest shows).
template <class F>
[[noreturn]] void child_checks(F f) {
  std::string failed;
  try {
    failed = f();
  } catch (const std::exception& e) {
    failed = std::string("exception: ") + e.what();
  }
  if (!failed.empty()) std::fprintf(stderr, "%s\n", failed.c_str());
  std::_Exit(failed.empty() ? 0 : 1);
}
#define EXPECT_CHILD_OK(body) \
  EXPECT_EXIT(child_checks([&]() -> std::string body), ::testing::ExitedWithCode(0), "")

std::string mismatch(const std::string& what, const std::string& got, const std::string& want) {
  return got == want ? "" : what + ":\n  got:  " + got + "\n  want: " + want;
}

// ---- truncated copies (item 3): what the loader would map past the end of the file ----

// The refusal a copy of `bytes` cut to `cut` bytes must get, worked out here from the ELF
// headers independently of the loader's check.
std::string expected_truncation(const std::vector<char>& bytes, std::uint64_t cut) {
  if (cut == 0) return "not an ELF file: it is empty";
  const auto size = std::to_string(cut);
  if (cut < sizeof(Elf64_Ehdr)) {
    return "truncated: the ELF header needs 64 bytes, file has " + size + " bytes";
  }
  Elf64_Ehdr eh;
  std::memcpy(&eh, bytes.data(), sizeof eh);
  const std::uint64_t ph_end = eh.e_phoff + std::uint64_t{eh.e_phnum} * sizeof(Elf64_Phdr);
  if (ph_end > cut) {
    return "truncated: program headers end at byte " + std::to_string(ph_end) + ", file has " +
           size + " bytes";
  }
  for (int i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr p;
    std::memcpy(&p, bytes.data() + eh.e_phoff + i * sizeof p, sizeof p);
    if (p.p_filesz > 0 && p.p_offset + p.p_filesz > cut) {
      const char* kind = p.p_type == PT_LOAD      ? "loadable segment"
                         : p.p_type == PT_DYNAMIC ? "dynamic segment"
                         : p.p_type == PT_NOTE    ? "note segment"
                         : p.p_type == PT_TLS     ? "TLS segment"
                                                  : "segment";
      return std::string("truncated: ") + kind + " " + std::to_string(i) + " ends at byte " +
             std::to_string(p.p_offset + p.p_filesz) + ", file has " + size + " bytes";
    }
  }
  const std::uint64_t sh_end = eh.e_shoff + std::uint64_t{eh.e_shnum} * sizeof(Elf64_Shdr);
  return "truncated: section headers end at byte " + std::to_string(sh_end) + ", file has " + size +
         " bytes";
}

class TruncatedMath : public ::testing::TestWithParam<int> {};

std::uint64_t cut_point(int which, std::uint64_t size) {
  switch (which) {
    case 0:
      return 0;
    case 1:
      return 40;  // inside the ELF header
    case 2:
      return 4096;
    case 3:
      return size / 2;
    default:
      return size - 1;  // only the section headers' last byte missing
  }
}

// A half-copied libloom_math.so on LOOM_PLUGIN_PATH (shadowing the real one): the program starts,
// the copy is refused with the reason, and a math op's lookup says why it is missing.
TEST_P(TruncatedMath, OnThePluginPathIsRefusedAndReported) {
  const auto bytes = read_all(kMathLib);
  ASSERT_GT(bytes.size(), 8192u);
  const std::uint64_t cut = cut_point(GetParam(), bytes.size());
  const std::string dir = fresh_dir("truncated_" + std::to_string(GetParam()));
  const std::string lib = dir + "/libloom_math.so";
  write_all(lib, std::vector<char>(bytes.begin(), bytes.begin() + static_cast<long>(cut)));
  const std::string want = "plugin " + lib + " refused: " + expected_truncation(bytes, cut);
  EXPECT_CHILD_OK({
    Runtime rt(RuntimeOptions{.plugin_path = {dir}});
    const auto rec = record_of(rt, lib);
    if (!rec) return "the truncated copy was not tried";
    if (rec->ok) return "the truncated copy was loaded";
    if (auto m = mismatch("refusal", rec->error, want); !m.empty()) return m;
    // The program goes on: sqrt is missing (its library was refused; in a CUDA build the math
    // plugin's CUDA half still defines it, without a cpu loop), the cpu target is there.
    if (cuda_half_of_math()) {
      const auto m =
          message_of<loom::Error>([&] { rt.ufunc("sqrt")(loom::array({4.0}), {.target = "cpu"}); });
      if (m == "no exception") return std::string("sqrt ran on cpu without its host half");
    } else {
      const auto m = message_of<loom::LookupError>([&] { rt.ufunc("sqrt"); });
      if (m.find("is registered; loom-info lists the registered ops. ") == std::string::npos) {
        return "sqrt: " + m;
      }
    }
    return std::string(rt.resolve_target("cpu").first->target() == "cpu" ? "" : "no cpu");
  });
  // In this process too (the check refuses before dlopen, so it cannot crash here): the lookup.
  Runtime rt(RuntimeOptions{.plugin_path = {dir}});
  EXPECT_EQ(record_of(rt, lib)->error, want);
  if (!cuda_half_of_math()) {
    EXPECT_EQ(message_of<loom::LookupError>([&] { rt.ufunc("sqrt"); }),
              "no ufunc or gufunc named 'sqrt' is registered; loom-info lists the registered "
              "ops. Libraries refused before their ops were known (one of them may define it): " +
                  want + ".");
  }
  ASSERT_TRUE(record_of(rt, kSerialLib));
  EXPECT_TRUE(record_of(rt, kSerialLib)->ok);
  EXPECT_EQ(rt.kernel("add_kernel").desc().plugins, builds_of("kernels"));  // the others load
}

std::string cut_name(const ::testing::TestParamInfo<int>& info) {
  static const char* const kNames[] = {"empty", "in_elf_header", "at_4096", "at_half",
                                       "last_byte_missing"};
  return kNames[info.param];
}
INSTANTIATE_TEST_SUITE_P(Cuts, TruncatedMath, ::testing::Range(0, 5), cut_name);

// `load_library` of a truncated copy of the serial backend: a PluginError, not SIGBUS.
TEST(RedteamPlugins, LoadLibraryOfTruncatedCopyThrows) {
  const auto bytes = read_all(kSerialLib);
  const std::string dir = fresh_dir("truncated_load");
  const std::string lib = dir + "/libloom_copy.so";
  write_all(lib, std::vector<char>(bytes.begin(), bytes.begin() + 4096));
  const std::string want = "plugin " + lib + " refused: " + expected_truncation(bytes, 4096);
  EXPECT_CHILD_OK({
    Runtime rt(RuntimeOptions{.plugin_path = {kSerialDir}, .use_default_path = false});
    return mismatch("load_library", message_of<PluginError>([&] { rt.load_library(lib); }), want);
  });
}

// ---- files that are not shared objects for this machine ----

TEST(RedteamPlugins, NonElfFileNamedLikeAPluginIsRefused) {
  const std::string dir = fresh_dir("not_elf");
  const std::string lib = dir + "/libloom_x.so";
  write_all(lib, {'#', '!', '/', 'b', 'i', 'n', '/', 's', 'h', '\n'});
  Runtime rt(RuntimeOptions{.plugin_path = {kSerialDir, dir}, .use_default_path = false});
  EXPECT_EQ(record_of(rt, lib)->error,
            "plugin " + lib +
                " refused: not an ELF file: its 10 bytes start with 23 21 2f 62, not 7f 45 4c 46");
  EXPECT_TRUE(record_of(rt, kSerialLib)->ok);
}

TEST(RedteamPlugins, FolderNamedLikeAPluginIsRefused) {
  const std::string dir = fresh_dir("folder_named_so");
  fs::create_directory(dir + "/libloom_d.so");
  Runtime rt(RuntimeOptions{.plugin_path = {dir}, .use_default_path = false});
  EXPECT_EQ(record_of(rt, dir + "/libloom_d.so")->error,
            "plugin " + dir + "/libloom_d.so refused: not a regular file");
}

// A copy of the serial backend with one header field changed.
std::string patched_serial(const std::string& name, std::size_t offset, const void* value,
                           std::size_t n) {
  auto bytes = read_all(kSerialLib);
  std::memcpy(bytes.data() + offset, value, n);
  const std::string dir = fresh_dir(name);
  const std::string lib = dir + "/libloom_serial.so";
  write_all(lib, bytes);
  return lib;
}

std::string file_size(const std::string& path) { return std::to_string(fs::file_size(path)); }

TEST(RedteamPlugins, ElfOfAnotherMachineIsRefused) {
  const std::uint16_t aarch64 = EM_AARCH64;
  const std::string lib =
      patched_serial("aarch64", offsetof(Elf64_Ehdr, e_machine), &aarch64, sizeof aarch64);
  Runtime rt(RuntimeOptions{.plugin_path = {fs::path(lib).parent_path()}});
  EXPECT_EQ(record_of(rt, lib)->error,
            "plugin " + lib +
                " refused: an ELF file for aarch64 (e_machine 183); this machine is x86-64 "
                "(e_machine 62) (file of " +
                file_size(lib) + " bytes)");
  // It shadowed the real serial backend, so cpu is unavailable, with the reason.
  EXPECT_EQ(message_of<loom::TargetError>([&] { rt.resolve_target("cpu"); }),
            "target 'cpu' is unavailable: its backend libloom_serial.so was not found on the "
            "plugin search path or failed to load");
}

TEST(RedteamPlugins, ThirtyTwoBitElfIsRefused) {
  const unsigned char cls = ELFCLASS32;
  const std::string lib = patched_serial("elf32", EI_CLASS, &cls, 1);
  Runtime rt(RuntimeOptions{.plugin_path = {fs::path(lib).parent_path()}});
  EXPECT_EQ(record_of(rt, lib)->error, "plugin " + lib +
                                           " refused: a 32-bit ELF file; this machine loads "
                                           "64-bit ones (file of " +
                                           file_size(lib) + " bytes)");
}

TEST(RedteamPlugins, ExecutableIsRefused) {
  const std::uint16_t exec = ET_EXEC;
  const std::string lib = patched_serial("exec", offsetof(Elf64_Ehdr, e_type), &exec, 2);
  Runtime rt(RuntimeOptions{.plugin_path = {fs::path(lib).parent_path()}});
  EXPECT_EQ(record_of(rt, lib)->error,
            "plugin " + lib +
                " refused: an executable that is not position-independent (ET_EXEC), not a "
                "shared object (ET_DYN) (file of " +
                file_size(lib) + " bytes)");
}

// ---- trust: folders up the path and symlink targets (item 9) ----

std::string copy_serial_to(const std::string& dir, const std::string& name) {
  const std::string lib = dir + "/" + name;
  fs::copy_file(kSerialLib, lib, fs::copy_options::overwrite_existing);
  fs::permissions(lib, fs::perms(0755));
  return lib;
}

TEST(RedteamPlugins, WorldWritableFolderAboveThePluginFolderIsRefused) {
  const std::string top = fresh_dir("open_parent");
  fs::create_directory(top + "/open");
  fs::permissions(top + "/open", fs::perms(0777));
  const std::string dir = top + "/open/plugins";
  fs::create_directory(dir);
  fs::permissions(dir, fs::perms(0755));
  const std::string lib = copy_serial_to(dir, "libloom_serial.so");
  const std::string why = "folder " + top +
                          "/open above it is writable by every user and has "
                          "no sticky bit (mode 0777), so anyone can replace what is in it";
  // The folder scan refuses the folder; load_library refuses the file.
  Runtime rt(RuntimeOptions{.plugin_path = {dir}, .use_default_path = false});
  EXPECT_EQ(record_of(rt, dir)->error, "plugin folder " + dir + " refused: " + why);
  EXPECT_FALSE(record_of(rt, lib));
  Runtime rt2(RuntimeOptions{.plugin_path = {}, .use_default_path = false});
  EXPECT_EQ(message_of<PluginError>([&] { rt2.load_library(lib); }),
            "plugin " + lib + " refused: " + why);
}

TEST(RedteamPlugins, WorldWritableFolderWithStickyBitAboveIsAccepted) {  // as /tmp
  const std::string top = fresh_dir("sticky_parent");
  fs::create_directory(top + "/sticky");
  fs::permissions(top + "/sticky", fs::perms(01777));
  const std::string dir = top + "/sticky/plugins";
  fs::create_directory(dir);
  fs::permissions(dir, fs::perms(0755));
  const std::string lib = copy_serial_to(dir, "libloom_serial.so");
  Runtime rt(RuntimeOptions{.plugin_path = {dir}, .use_default_path = false});
  ASSERT_TRUE(record_of(rt, lib));
  EXPECT_TRUE(record_of(rt, lib)->ok) << record_of(rt, lib)->error;
}

TEST(RedteamPlugins, FolderOwnedByAnotherUserIsRefused) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to give a folder to another user";
  const std::string top = fresh_dir("foreign_owner");
  const std::string dir = top + "/theirs";
  fs::create_directory(dir);
  fs::permissions(dir, fs::perms(0755));
  const std::string lib = copy_serial_to(dir, "libloom_serial.so");
  ASSERT_EQ(::chown(dir.c_str(), 4242, 4242), 0);
  Runtime rt(RuntimeOptions{.plugin_path = {}, .use_default_path = false});
  EXPECT_EQ(message_of<PluginError>([&] { rt.load_library(lib); }),
            "plugin " + lib + " refused: folder " + dir +
                " above it belongs to user uid 4242, who is neither you (root (uid 0)) nor "
                "root, who can replace what is in it");
  ASSERT_EQ(::chown(dir.c_str(), 0, 0), 0);
  ASSERT_EQ(::chown(lib.c_str(), 4242, 4242), 0);
  EXPECT_EQ(message_of<PluginError>([&] { rt.load_library(lib); }),
            "plugin " + lib +
                " refused: it belongs to user uid 4242, who is neither you (root (uid 0)) nor "
                "root; chown it or move it to a folder of yours");
}

TEST(RedteamPlugins, SymlinkToAWorldWritableFileIsRefused) {
  const std::string top = fresh_dir("link_to_open_file");
  const std::string target = copy_serial_to(top, "serial_copy.so");
  fs::permissions(target, fs::perms(0666));
  const std::string dir = top + "/plugins";
  fs::create_directory(dir);
  fs::permissions(dir, fs::perms(0755));
  const std::string link = dir + "/libloom_serial.so";
  fs::create_symlink(target, link);
  Runtime rt(RuntimeOptions{.plugin_path = {dir}, .use_default_path = false});
  EXPECT_EQ(record_of(rt, link)->error,
            "plugin " + link + " refused: it resolves (through a symlink) to " + target +
                ", which is writable by every user (mode 0666); remove the write permission of "
                "others (chmod o-w)");
}

TEST(RedteamPlugins, SymlinkToAFileInAWorldWritableFolderIsRefused) {
  const std::string top = fresh_dir("link_into_open_folder");
  fs::create_directory(top + "/open");
  fs::permissions(top + "/open", fs::perms(0777));
  const std::string target = copy_serial_to(top + "/open", "serial_copy.so");
  const std::string link = top + "/libloom_serial.so";
  fs::create_symlink(target, link);
  Runtime rt(RuntimeOptions{.plugin_path = {}, .use_default_path = false});
  EXPECT_EQ(message_of<PluginError>([&] { rt.load_library(link); }),
            "plugin " + link + " refused: folder " + top +
                "/open above its target is writable by every user and has no sticky bit (mode "
                "0777), so anyone can replace what is in it");
}

TEST(RedteamPlugins, SymlinkHeldInAnUntrustedFolderIsRefused) {
  const std::string top = fresh_dir("link_in_open_folder");
  const std::string target = copy_serial_to(top, "serial_copy.so");
  fs::create_directory(top + "/open");
  fs::permissions(top + "/open", fs::perms(0777));
  fs::create_directory(top + "/open/sub");
  fs::permissions(top + "/open/sub", fs::perms(0755));
  const std::string link = top + "/open/sub/libloom_serial.so";
  fs::create_symlink(target, link);
  Runtime rt(RuntimeOptions{.plugin_path = {}, .use_default_path = false});
  EXPECT_EQ(message_of<PluginError>([&] { rt.load_library(link); }),
            "plugin " + link + " refused: folder " + top +
                "/open holding the symlink is writable by every user and has no sticky bit (mode "
                "0777), so anyone can replace what is in it");
  // The same target through a trusted link loads.
  const std::string good = top + "/libloom_good.so";
  fs::create_symlink(target, good);
  rt.load_library(good);  // throws if refused
  EXPECT_EQ(rt.libraries().back().path, good);
  EXPECT_TRUE(rt.libraries().back().ok);
}

// ---- one plugin must not remove or change another (item 8) ----

// The case exactly: LOOM_PLUGIN_PATH names a folder whose plugin registers `add` with
// another arity. Was: the math plugin refused, every math op missing, no word of why.
TEST(RedteamPlugins, ConflictingAddOnLoomPluginPathRefusesOnlyTheConflictingPlugin) {
  const std::string dir = kPlugins + "/conflict_add";
  const std::string lib = dir + "/libloom_rt_conflict_add.so";
  ::setenv("LOOM_PLUGIN_PATH", dir.c_str(), 1);
  Runtime rt;
  ::unsetenv("LOOM_PLUGIN_PATH");
  const auto math = record_of(rt, kMathLib);
  ASSERT_TRUE(math);
  EXPECT_TRUE(math->ok) << math->error;
  const std::string why = "cannot load plugin " + lib +
                          ": plugin libloom_rt_conflict_add.so registers op 'add' as a ufunc of "
                          "1 input and 1 output, unlike the one from " +
                          builds_of("math") +
                          " (a ufunc of 2 inputs and 1 output); the plugin is "
                          "refused";
  ASSERT_TRUE(record_of(rt, lib));
  EXPECT_EQ(record_of(rt, lib)->error, why);
  EXPECT_EQ(rt.ufunc("add")(loom::array({2.0}), loom::array({3.0})).item<double>(), 5.0);
  EXPECT_EQ(rt.ufunc("sqrt")(loom::array({16.0})).item<double>(), 4.0);
  // Its own op is missing, and the lookup says which library would have defined it and why.
  EXPECT_EQ(message_of<loom::LookupError>([&] { rt.ufunc("rt_conflict_only"); }),
            "no ufunc or gufunc named 'rt_conflict_only' is registered; loom-info lists the "
            "registered ops. libloom_rt_conflict_add.so would have defined it but was refused: " +
                why + ".");
}

// The same library named in load_library after the math plugin: refused, math unchanged. Only
// math's host build is open then (its cuda half opens with a cuda target: docs/plugins.md, "When
// libraries are opened"), and the message names the builds merged so far.
TEST(RedteamPlugins, ConflictingAddLoadedLaterIsRefused) {
  Runtime rt;
  const std::string lib = kPlugins + "/conflict_add/libloom_rt_conflict_add.so";
  EXPECT_EQ(message_of<PluginError>([&] { rt.load_library(lib); }),
            "cannot load plugin " + lib +
                ": plugin libloom_rt_conflict_add.so registers op 'add' as a ufunc of 1 input "
                "and 1 output, unlike the one from libloom_math.so (a ufunc of 2 inputs and 1 "
                "output); the plugin is refused");
  EXPECT_EQ(rt.ufunc("add")(loom::array({2.0}), loom::array({3.0})).item<double>(), 5.0);
}

// An int8 `add` loop that subtracts, from an unrelated library: refused whether it comes first on
// the path or later; add of int8 still adds.
TEST(RedteamPlugins, LoopAddedToAnotherPluginsOpIsRefused) {
  const std::string dir = kPlugins + "/int8_add";
  const std::string lib = dir + "/libloom_rt_int8_add.so";
  const std::string why = "cannot load plugin " + lib +
                          ": plugin libloom_rt_int8_add.so (plugin 'rt_int8_add') adds "
                          "float64(int8,float64) to ufunc 'add', which belongs to plugin 'math' (" +
                          builds_of("math") +
                          "); only builds of the plugin that defined it may add loops; the "
                          "plugin is refused";
  Runtime rt(RuntimeOptions{.plugin_path = {dir}});
  ASSERT_TRUE(record_of(rt, lib));
  EXPECT_EQ(record_of(rt, lib)->error, why);
  const auto add = rt.ufunc("add");
  EXPECT_EQ(add.desc().signatures().find("float64(int8,float64)"), std::string::npos)
      << add.desc().signatures();
  const auto r = add(loom::array<std::int8_t>({5}), loom::array<double>({3}));
  EXPECT_EQ(r.item<double>(), 8);
  // Loaded into a fresh runtime, where only math's host build is open yet.
  Runtime later;
  std::string why_later = why;
  why_later.replace(why_later.find(builds_of("math")), builds_of("math").size(), "libloom_math.so");
  EXPECT_EQ(message_of<PluginError>([&] { later.load_library(lib); }), why_later);
}

// The rule's other side: a plugin's own CUDA half adds its loops; an unrelated CUDA-family library
// adding loops to that op is refused and changes nothing. (No cuda backend on this path: the CUDA
// half opens only with everything, registry(), not with a lookup.)
TEST(RedteamPlugins, OwnCudaHalfMayAddLoopsAStrangerMayNot) {
  Runtime rt(
      RuntimeOptions{.plugin_path = {kSerialDir, kPlugins + "/family"}, .use_default_path = false});
  EXPECT_FALSE(rt.ufunc("rt_fam").desc().has_family(loom::Family::cuda));
  rt.registry();
  const auto fam = rt.ufunc("rt_fam");
  EXPECT_TRUE(fam.desc().has_family(loom::Family::host));
  EXPECT_TRUE(fam.desc().has_family(loom::Family::cuda));
  EXPECT_EQ(fam.desc().plugins, "libloom_rt_family.so, libloom_rt_family_cuda.so");
  const std::string stranger = kPlugins + "/stranger/libloom_rt_stranger_cuda.so";
  Runtime rt2(RuntimeOptions{.plugin_path = {kSerialDir}, .use_default_path = false});
  rt2.load_library(kPlugins + "/family/libloom_rt_family.so");
  EXPECT_EQ(message_of<PluginError>([&] { rt2.load_library(stranger); }),
            "cannot load plugin " + stranger +
                ": plugin libloom_rt_stranger_cuda.so (plugin 'rt_stranger') adds "
                "float64(float64) to ufunc 'rt_fam', which belongs to plugin 'rt_family' "
                "(libloom_rt_family.so); only builds of the plugin that defined it may add "
                "loops; the plugin is refused");
  EXPECT_FALSE(rt2.ufunc("rt_fam").desc().has_family(loom::Family::cuda));
  EXPECT_EQ(rt2.ufunc("rt_fam")(loom::array({1.0})).item<double>(), 2.0);
}

}  // namespace
