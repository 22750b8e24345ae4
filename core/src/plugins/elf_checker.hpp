// The pre-dlopen check of a plugin file's ELF headers (loom/plugin_file.hpp), in two parts: the
// ELF header, program and section headers and segments (elf_headers.cpp), then the dynamic
// section the loader walks (elf_dynamic.cpp). Internal to the core.
#pragma once
#include <elf.h>
#include <link.h>

#include <cstdint>
#include <string>
#include <vector>

#include "loom/plugin_file.hpp"

namespace loom::detail::elf {

using Ehdr = ElfW(Ehdr);
using Phdr = ElfW(Phdr);
using Shdr = ElfW(Shdr);
using Dyn = ElfW(Dyn);
using Addr = ElfW(Addr);

inline constexpr unsigned char kClass = sizeof(void*) == 8 ? ELFCLASS64 : ELFCLASS32;
inline constexpr unsigned char kData =
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB;
#if defined(__x86_64__)
inline constexpr std::uint16_t kMachine = EM_X86_64;
#elif defined(__aarch64__)
inline constexpr std::uint16_t kMachine = EM_AARCH64;
#elif defined(__powerpc64__)
inline constexpr std::uint16_t kMachine = EM_PPC64;
#elif defined(__riscv)
inline constexpr std::uint16_t kMachine = EM_RISCV;
#elif defined(__s390x__)
inline constexpr std::uint16_t kMachine = EM_S390;
#elif defined(__i386__)
inline constexpr std::uint16_t kMachine = EM_386;
#elif defined(__arm__)
inline constexpr std::uint16_t kMachine = EM_ARM;
#else
#error "elf_checker.hpp: add this machine's EM_ value"
#endif

// The names messages give an e_machine, an e_type and a segment.
std::string machine_name(unsigned m);
std::string type_name(unsigned t);
std::string segment_name(const Phdr& p);

inline std::string str(std::uint64_t v) { return std::to_string(v); }

// end = off + len, false on overflow.
inline bool end_of(std::uint64_t off, std::uint64_t len, std::uint64_t& end) {
  return !__builtin_add_overflow(off, len, &end);
}

// Each step returns the reason the file is refused, or "" to go on.
class Checker {
 public:
  explicit Checker(const ElfReader& r) : r_(r) {}

  std::string run();

 private:
  const ElfReader& r_;
  std::vector<Phdr> ph_;
  std::vector<const Phdr*> loads_;

  bool read(std::uint64_t off, std::size_t n, void* dst) const {
    std::uint64_t end = 0;
    if (!end_of(off, n, end) || end > r_.size) return false;
    return r_.read(r_.ctx, off, n, dst);
  }
  std::string sized(const std::string& why) const {
    return why + " (file of " + str(r_.size) + " bytes)";
  }
  std::string unreadable(std::uint64_t off, std::uint64_t n) const {
    return "cannot read bytes " + str(off) + " to " + str(off + n) + " of the file (" +
           str(r_.size) + " bytes)";
  }
  std::string not_elf(const unsigned char* ident) const;
  // A table [off, off + count * entsize) that must lie inside the file.
  std::string table(const char* what, std::uint64_t off, std::uint64_t count,
                    std::uint64_t entsize) const;
  std::string program_headers(const Ehdr& eh);
  std::string section_headers(const Ehdr& eh);
  std::string segments();
  // [addr, addr + n) inside the file-backed part of one PT_LOAD.
  bool inside_file_part(Addr addr, std::uint64_t n) const;
  // [addr, addr + n) inside the memory of one PT_LOAD (file bytes or zero-filled).
  bool inside_memory(Addr addr, std::uint64_t n) const;
  // The dynamic section: the loader walks it and follows its addresses, so each table it names
  // must lie in a segment; the string table must end with a NUL inside the file.
  std::string dynamic();
};

}  // namespace loom::detail::elf
