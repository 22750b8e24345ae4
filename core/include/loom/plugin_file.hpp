// The checks a plugin file passes before it is handed to dlopen: that it is a shared object for
// this machine whose headers and segments lie inside the file (a truncated copy would otherwise
// kill the program with SIGBUS inside dlopen), and that nobody but its owner, the user running
// the program, or root can change it or the folders leading to it (docs/reliability.md,
// "Plugin files").
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace loom {

// Why `size` bytes of an ELF image could not be mapped safely by the dynamic loader as a shared
// object of this machine ("truncated: segment 2 ends at byte 8192, file has 4096 bytes"), or
// empty when they can. `read(offset, n, dst)` copies bytes [offset, offset + n) of the image
// into dst; the check asks only for ranges inside [0, size). Reads never go past what the
// headers say and what `size` allows, so a hostile image cannot make the check crash.
struct ElfReader {
  std::uint64_t size = 0;
  bool (*read)(const void* ctx, std::uint64_t offset, std::size_t n, void* dst) = nullptr;
  const void* ctx = nullptr;
};
std::string elf_image_problem(const ElfReader& image);

// The same check on the file at `path`, read with pread (never mapped, so a file cut short
// while it is read gives an error, not SIGBUS). Also refuses what is not a regular file or
// cannot be opened. Empty when the file may be given to dlopen.
std::string plugin_file_problem(const std::string& path);

// Why the plugin (or plugin folder) at `path` is not trusted, or empty: the file (or folder)
// itself is writable by every user; a folder above it is writable by every user without the
// sticky bit; the file or one of those folders belongs to another user who is not root. When
// `path` is or passes through a symlink, the folders holding the link and those holding its
// target are both checked. `folder_trusted`: the caller has just checked the folder holding
// `path` (a plugin folder of the search path), so a plain file there needs only its own check.
std::string plugin_trust_problem(const std::string& path, bool folder_trusted = false);

}  // namespace loom
