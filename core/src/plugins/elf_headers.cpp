// The first part of the pre-dlopen check of a plugin file (elf_checker.hpp): the ELF header
// against this machine, the program and section header tables inside the file, and the segments
// the loader maps (their file bytes inside the file, ascending, and what it reads through them
// inside a loadable segment).
#include <cstdio>
#include <cstring>

#include "plugins/elf_checker.hpp"

namespace loom::detail::elf {

std::string machine_name(unsigned m) {
  switch (m) {
    case EM_X86_64:
      return "x86-64";
    case EM_386:
      return "i386";
    case EM_AARCH64:
      return "aarch64";
    case EM_ARM:
      return "arm";
    case EM_PPC64:
      return "ppc64";
    case EM_RISCV:
      return "riscv";
    case EM_S390:
      return "s390";
    case 190:
      return "cuda";  // EM_CUDA: a cubin, not a host library
    default:
      return "machine " + std::to_string(m);
  }
}

std::string type_name(unsigned t) {
  switch (t) {
    case ET_REL:
      return "a relocatable object (.o, ET_REL)";
    case ET_EXEC:
      return "an executable that is not position-independent (ET_EXEC)";
    case ET_CORE:
      return "a core dump (ET_CORE)";
    default:
      return "ELF type " + std::to_string(t);
  }
}

std::string segment_name(const Phdr& p) {
  switch (p.p_type) {
    case PT_LOAD:
      return "loadable segment";
    case PT_DYNAMIC:
      return "dynamic segment";
    case PT_NOTE:
      return "note segment";
    case PT_TLS:
      return "TLS segment";
    case PT_INTERP:
      return "interpreter segment";
    case PT_GNU_PROPERTY:
      return "property segment";
    default:
      return "segment";
  }
}

std::string Checker::run() {
  const std::uint64_t size = r_.size;
  unsigned char ident[SELFMAG] = {};
  const std::size_t head = size < SELFMAG ? static_cast<std::size_t>(size) : SELFMAG;
  if (head > 0 && !read(0, head, ident)) return unreadable(0, head);
  if (size < SELFMAG || std::memcmp(ident, ELFMAG, SELFMAG) != 0) return not_elf(ident);
  if (size < sizeof(Ehdr)) {
    return "truncated: the ELF header needs " + str(sizeof(Ehdr)) + " bytes, file has " +
           str(size) + " bytes";
  }
  Ehdr eh{};
  if (!read(0, sizeof eh, &eh)) return unreadable(0, sizeof eh);
  if (eh.e_ident[EI_CLASS] != kClass) {
    return sized(std::string("a ") + (eh.e_ident[EI_CLASS] == ELFCLASS32 ? "32" : "?") +
                 "-bit ELF file; this machine loads " + (kClass == ELFCLASS64 ? "64" : "32") +
                 "-bit ones");
  }
  if (eh.e_ident[EI_DATA] != kData) {
    return sized(std::string("a ") +
                 (eh.e_ident[EI_DATA] == ELFDATA2MSB ? "big-endian" : "little-endian or unknown") +
                 " ELF file; this machine is " +
                 (kData == ELFDATA2LSB ? "little-endian" : "big-endian"));
  }
  if (eh.e_ident[EI_VERSION] != EV_CURRENT || eh.e_version != EV_CURRENT) {
    return sized("ELF version " + str(eh.e_version) + ", not " + str(EV_CURRENT));
  }
  if (eh.e_ident[EI_OSABI] != ELFOSABI_SYSV && eh.e_ident[EI_OSABI] != ELFOSABI_GNU) {
    return sized("an ELF file for OS ABI " + str(eh.e_ident[EI_OSABI]) +
                 ", not System V or GNU/Linux");
  }
  if (eh.e_machine != kMachine) {
    return sized("an ELF file for " + machine_name(eh.e_machine) + " (e_machine " +
                 str(eh.e_machine) + "); this machine is " + machine_name(kMachine) +
                 " (e_machine " + str(kMachine) + ")");
  }
  if (eh.e_type != ET_DYN) {
    return sized(type_name(eh.e_type) + ", not a shared object (ET_DYN)");
  }
  if (std::string why = program_headers(eh); !why.empty()) return why;
  // Segments before section headers: a truncated copy names the segment the loader would map.
  if (std::string why = segments(); !why.empty()) return why;
  if (std::string why = section_headers(eh); !why.empty()) return why;
  return dynamic();
}

std::string Checker::not_elf(const unsigned char* ident) const {
  std::string head;
  const std::uint64_t n = r_.size < SELFMAG ? r_.size : SELFMAG;
  for (std::uint64_t i = 0; i < n; ++i) {
    char b[4];
    std::snprintf(b, sizeof b, "%02x", ident[i]);
    if (i) head += ' ';
    head += b;
  }
  if (n == 0) return "not an ELF file: it is empty";
  return "not an ELF file: its " + str(r_.size) + " bytes start with " + head + ", not 7f 45 4c 46";
}

std::string Checker::table(const char* what, std::uint64_t off, std::uint64_t count,
                           std::uint64_t entsize) const {
  std::uint64_t bytes = 0, end = 0;
  if (__builtin_mul_overflow(count, entsize, &bytes) || !end_of(off, bytes, end)) {
    return sized(std::string(what) + " at byte " + str(off) + " (" + str(count) + " of " +
                 str(entsize) + " bytes) reach past 2^64");
  }
  if (end > r_.size) {
    return "truncated: " + std::string(what) + " end at byte " + str(end) + ", file has " +
           str(r_.size) + " bytes";
  }
  return {};
}

std::string Checker::program_headers(const Ehdr& eh) {
  if (eh.e_phnum == 0) return sized("no program headers: nothing the loader could map");
  if (eh.e_phnum == PN_XNUM) {
    return sized("extended program header numbering (PN_XNUM), which the loader does not take");
  }
  if (eh.e_phentsize != sizeof(Phdr)) {
    return sized("program header entries of " + str(eh.e_phentsize) + " bytes, not " +
                 str(sizeof(Phdr)));
  }
  if (auto why = table("program headers", eh.e_phoff, eh.e_phnum, sizeof(Phdr)); !why.empty()) {
    return why;
  }
  ph_.resize(eh.e_phnum);
  if (!read(eh.e_phoff, ph_.size() * sizeof(Phdr), ph_.data())) {
    return unreadable(eh.e_phoff, ph_.size() * sizeof(Phdr));
  }
  return {};
}

std::string Checker::section_headers(const Ehdr& eh) {
  if (eh.e_shoff == 0) return {};  // stripped of section headers (sstrip): the loader needs none
  if (eh.e_shentsize != sizeof(Shdr)) {
    return sized("section header entries of " + str(eh.e_shentsize) + " bytes, not " +
                 str(sizeof(Shdr)));
  }
  std::uint64_t count = eh.e_shnum;
  if (count == 0) {  // extended numbering: section 0's sh_size holds the count
    if (auto why = table("section headers", eh.e_shoff, 1, sizeof(Shdr)); !why.empty()) {
      return why;
    }
    Shdr s0{};
    if (!read(eh.e_shoff, sizeof s0, &s0)) return unreadable(eh.e_shoff, sizeof s0);
    count = s0.sh_size;
  }
  return table("section headers", eh.e_shoff, count, sizeof(Shdr));
}

std::string Checker::segments() {
  Addr last_end = 0;
  for (std::size_t i = 0; i < ph_.size(); ++i) {
    const Phdr& p = ph_[i];
    const std::string name = segment_name(p) + " " + str(i);
    std::uint64_t end = 0;
    if (!end_of(p.p_offset, p.p_filesz, end)) {
      return sized(name + " (bytes " + str(p.p_offset) + " + " + str(p.p_filesz) +
                   ") reaches past 2^64");
    }
    // A loadable segment without file bytes counts too: the loader zero-fills the rest of the
    // page holding its end, which is a write into the file's mapping there.
    if ((p.p_filesz > 0 || p.p_type == PT_LOAD) && end > r_.size) {
      return "truncated: " + name + " ends at byte " + str(end) + ", file has " + str(r_.size) +
             " bytes";
    }
    if (p.p_type != PT_LOAD) continue;
    Addr vend = 0;
    if (__builtin_add_overflow(p.p_vaddr, p.p_memsz, &vend)) {
      return sized(name + "'s addresses reach past the end of the address space");
    }
    if (p.p_filesz > p.p_memsz) {
      return sized(name + " has more file bytes (" + str(p.p_filesz) + ") than memory bytes (" +
                   str(p.p_memsz) + ")");
    }
    if (p.p_align > 1 &&
        ((p.p_align & (p.p_align - 1)) != 0 || p.p_vaddr % p.p_align != p.p_offset % p.p_align)) {
      return sized(name + " is misaligned (address " + str(p.p_vaddr) + ", offset " +
                   str(p.p_offset) + ", alignment " + str(p.p_align) + ")");
    }
    // The loader maps from the first segment's start to the last one's end: they must ascend.
    if (!loads_.empty() && p.p_vaddr < last_end) {
      return sized(name + " starts at address " + str(p.p_vaddr) + ", below the end of the " +
                   "loadable segment before it (" + str(last_end) + ")");
    }
    last_end = vend;
    loads_.push_back(&p);
  }
  if (loads_.empty()) return sized("no loadable (PT_LOAD) segment");
  // What the loader reads through the mapping must be file-backed memory of a segment.
  for (std::size_t i = 0; i < ph_.size(); ++i) {
    const Phdr& p = ph_[i];
    if (p.p_type != PT_DYNAMIC && p.p_type != PT_NOTE && p.p_type != PT_TLS &&
        p.p_type != PT_GNU_PROPERTY) {
      continue;
    }
    if (p.p_filesz > 0 && !inside_file_part(p.p_vaddr, p.p_filesz)) {
      return sized(segment_name(p) + " " + str(i) + " (addresses " + str(p.p_vaddr) + " + " +
                   str(p.p_filesz) + ") is not inside the file bytes of a loadable segment");
    }
    // Notes are read up to p_memsz through the mapping.
    if (p.p_type != PT_TLS && !inside_memory(p.p_vaddr, p.p_memsz)) {
      return sized(segment_name(p) + " " + str(i) + " (addresses " + str(p.p_vaddr) + " + " +
                   str(p.p_memsz) + ") is not inside a loadable segment");
    }
  }
  return {};
}

bool Checker::inside_file_part(Addr addr, std::uint64_t n) const {
  for (const Phdr* p : loads_) {
    if (addr >= p->p_vaddr && addr - p->p_vaddr <= p->p_filesz &&
        n <= p->p_filesz - (addr - p->p_vaddr)) {
      return true;
    }
  }
  return false;
}

bool Checker::inside_memory(Addr addr, std::uint64_t n) const {
  for (const Phdr* p : loads_) {
    if (addr >= p->p_vaddr && addr - p->p_vaddr <= p->p_memsz &&
        n <= p->p_memsz - (addr - p->p_vaddr)) {
      return true;
    }
  }
  return false;
}

}  // namespace loom::detail::elf
