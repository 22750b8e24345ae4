// The pre-dlopen check of a plugin file's ELF headers (loom/plugin_file.hpp). glibc's loader maps
// every PT_LOAD segment's file range and then reads the dynamic section, the notes and the TLS
// image through that mapping: a range past the end of the file is a SIGBUS the loader cannot
// catch. Everything the loader would touch through the mapping is checked here against the file
// size, with plain reads, so a damaged or foreign file is refused with the reason instead.
#include "loom/plugin_file.hpp"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace loom {

namespace {

using Ehdr = ElfW(Ehdr);
using Phdr = ElfW(Phdr);
using Shdr = ElfW(Shdr);
using Dyn = ElfW(Dyn);
using Addr = ElfW(Addr);

constexpr unsigned char kClass = sizeof(void*) == 8 ? ELFCLASS64 : ELFCLASS32;
constexpr unsigned char kData =
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB;
#if defined(__x86_64__)
constexpr std::uint16_t kMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr std::uint16_t kMachine = EM_AARCH64;
#elif defined(__powerpc64__)
constexpr std::uint16_t kMachine = EM_PPC64;
#elif defined(__riscv)
constexpr std::uint16_t kMachine = EM_RISCV;
#elif defined(__s390x__)
constexpr std::uint16_t kMachine = EM_S390;
#elif defined(__i386__)
constexpr std::uint16_t kMachine = EM_386;
#elif defined(__arm__)
constexpr std::uint16_t kMachine = EM_ARM;
#else
#error "plugin_file.cpp: add this machine's EM_ value"
#endif

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

std::string str(std::uint64_t v) { return std::to_string(v); }

// end = off + len, false on overflow.
bool end_of(std::uint64_t off, std::uint64_t len, std::uint64_t& end) {
  return !__builtin_add_overflow(off, len, &end);
}

class Checker {
 public:
  explicit Checker(const ElfReader& r) : r_(r) {}

  std::string run() {
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
      return sized(
          std::string("a ") +
          (eh.e_ident[EI_DATA] == ELFDATA2MSB ? "big-endian" : "little-endian or unknown") +
          " ELF file; this machine is " + (kData == ELFDATA2LSB ? "little-endian" : "big-endian"));
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
  std::string not_elf(const unsigned char* ident) const {
    std::string head;
    const std::uint64_t n = r_.size < SELFMAG ? r_.size : SELFMAG;
    for (std::uint64_t i = 0; i < n; ++i) {
      char b[4];
      std::snprintf(b, sizeof b, "%02x", ident[i]);
      if (i) head += ' ';
      head += b;
    }
    if (n == 0) return "not an ELF file: it is empty";
    return "not an ELF file: its " + str(r_.size) + " bytes start with " + head +
           ", not 7f 45 4c 46";
  }
  // A table [off, off + count * entsize) that must lie inside the file.
  std::string table(const char* what, std::uint64_t off, std::uint64_t count,
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

  std::string program_headers(const Ehdr& eh) {
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

  std::string section_headers(const Ehdr& eh) {
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

  std::string segments() {
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

  // [addr, addr + n) inside the file-backed part of one PT_LOAD.
  bool inside_file_part(Addr addr, std::uint64_t n) const {
    for (const Phdr* p : loads_) {
      if (addr >= p->p_vaddr && addr - p->p_vaddr <= p->p_filesz &&
          n <= p->p_filesz - (addr - p->p_vaddr)) {
        return true;
      }
    }
    return false;
  }
  // [addr, addr + n) inside the memory of one PT_LOAD (file bytes or zero-filled).
  bool inside_memory(Addr addr, std::uint64_t n) const {
    for (const Phdr* p : loads_) {
      if (addr >= p->p_vaddr && addr - p->p_vaddr <= p->p_memsz &&
          n <= p->p_memsz - (addr - p->p_vaddr)) {
        return true;
      }
    }
    return false;
  }

  // The dynamic section: the loader walks it and follows its addresses, so each table it names
  // must lie in a segment; the string table must end with a NUL inside the file.
  std::string dynamic() {
    const Phdr* dyn = nullptr;
    for (const auto& p : ph_) {
      if (p.p_type == PT_DYNAMIC) dyn = &p;
    }
    if (!dyn) return sized("no dynamic segment (PT_DYNAMIC): not a shared library");
    // The loader reads it at its address, through the loadable segment holding it (checked to
    // be in that segment's file bytes): read the same bytes, whatever p_offset says.
    std::uint64_t at = 0;
    for (const Phdr* p : loads_) {
      if (dyn->p_vaddr >= p->p_vaddr && dyn->p_vaddr - p->p_vaddr < p->p_filesz) {
        at = p->p_offset + (dyn->p_vaddr - p->p_vaddr);
      }
    }
    const std::size_t count = dyn->p_filesz / sizeof(Dyn);
    std::vector<Dyn> d(count);
    if (count && !read(at, count * sizeof(Dyn), d.data())) {
      return unreadable(at, count * sizeof(Dyn));
    }
    bool terminated = false;
    std::uint64_t val[DT_NUM] = {};
    bool has[DT_NUM] = {};
    Addr gnu_hash = 0, versym = 0, verdef = 0, verneed = 0;
    for (const auto& e : d) {
      if (e.d_tag == DT_NULL) {
        terminated = true;
        break;
      }
      if (e.d_tag >= 0 && e.d_tag < DT_NUM) {
        val[e.d_tag] = e.d_un.d_val;
        has[e.d_tag] = true;
      }
      if (e.d_tag == DT_GNU_HASH) gnu_hash = e.d_un.d_ptr;
      if (e.d_tag == DT_VERSYM) versym = e.d_un.d_ptr;
      if (e.d_tag == DT_VERDEF) verdef = e.d_un.d_ptr;
      if (e.d_tag == DT_VERNEED) verneed = e.d_un.d_ptr;
      if (e.d_tag == DT_FLAGS_1 && (e.d_un.d_val & DF_1_PIE)) {
        return sized("a position-independent executable (DF_1_PIE), not a shared library");
      }
    }
    if (!terminated) return sized("the dynamic section has no DT_NULL end within the file");
    if (!has[DT_STRTAB] || !has[DT_SYMTAB]) {
      return sized("the dynamic section names no string or symbol table");
    }
    struct Range {
      const char* what;
      int addr_tag, size_tag;
    };
    static constexpr Range kRanges[] = {
        {"string table", DT_STRTAB, DT_STRSZ},
        {"relocations (DT_RELA)", DT_RELA, DT_RELASZ},
        {"relocations (DT_REL)", DT_REL, DT_RELSZ},
        {"PLT relocations", DT_JMPREL, DT_PLTRELSZ},
        {"init array", DT_INIT_ARRAY, DT_INIT_ARRAYSZ},
        {"fini array", DT_FINI_ARRAY, DT_FINI_ARRAYSZ},
        {"preinit array", DT_PREINIT_ARRAY, DT_PREINIT_ARRAYSZ},
        {"symbol table", DT_SYMTAB, -1},
        {"hash table", DT_HASH, -1},
        {"init function", DT_INIT, -1},
        {"fini function", DT_FINI, -1},
        {"PLT GOT", DT_PLTGOT, -1},
    };
    for (const auto& r : kRanges) {
      if (!has[r.addr_tag]) continue;
      const std::uint64_t n = r.size_tag >= 0 ? val[r.size_tag] : 1;
      if (!inside_memory(val[r.addr_tag], n)) {
        return sized(std::string("the dynamic section's ") + r.what + " (address " +
                     str(val[r.addr_tag]) + ", " + str(n) + " bytes) is outside every loadable " +
                     "segment");
      }
    }
    for (auto [what, a] :
         {std::pair{"GNU hash table", gnu_hash}, std::pair{"version table", versym},
          std::pair{"version definitions", verdef}, std::pair{"version needs", verneed}}) {
      if (a && !inside_memory(a, 1)) {
        return sized(std::string("the dynamic section's ") + what + " (address " + str(a) +
                     ") is outside every loadable segment");
      }
    }
    // Names (DT_NEEDED, DT_SONAME, DT_RUNPATH) are read up to a NUL: the table must end with one.
    const std::uint64_t strsz = val[DT_STRSZ];
    if (strsz == 0) return sized("the dynamic string table is empty");
    if (!inside_file_part(val[DT_STRTAB], strsz)) {
      return sized("the dynamic string table is not inside the file bytes of a loadable segment");
    }
    for (const auto& e : d) {
      if (e.d_tag == DT_NULL) break;
      if ((e.d_tag == DT_NEEDED || e.d_tag == DT_SONAME || e.d_tag == DT_RPATH ||
           e.d_tag == DT_RUNPATH) &&
          e.d_un.d_val >= strsz) {
        return sized("a dynamic entry names string " + str(e.d_un.d_val) +
                     ", past the string table's " + str(strsz) + " bytes");
      }
    }
    const Phdr* seg = nullptr;
    for (const Phdr* p : loads_) {
      if (val[DT_STRTAB] >= p->p_vaddr && val[DT_STRTAB] - p->p_vaddr < p->p_filesz) seg = p;
    }
    unsigned char last = 1;
    const std::uint64_t end = seg->p_offset + (val[DT_STRTAB] - seg->p_vaddr) + strsz - 1;
    if (!read(end, 1, &last)) return unreadable(end, 1);
    if (last != 0) return sized("the dynamic string table does not end with a NUL");
    return {};
  }
};

bool read_fd(const void* ctx, std::uint64_t offset, std::size_t n, void* dst) {
  const int fd = *static_cast<const int*>(ctx);
  auto* out = static_cast<char*>(dst);
  while (n > 0) {
    const ssize_t got = ::pread(fd, out, n, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;  // an error, or the file shrank since fstat
    out += got;
    offset += static_cast<std::uint64_t>(got);
    n -= static_cast<std::size_t>(got);
  }
  return true;
}

}  // namespace

std::string elf_image_problem(const ElfReader& image) { return Checker(image).run(); }

std::string plugin_file_problem(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::string("cannot open it: ") + std::strerror(errno);
  struct stat st {};
  std::string why;
  if (::fstat(fd, &st) != 0) {
    why = std::string("cannot stat it: ") + std::strerror(errno);
  } else if (!S_ISREG(st.st_mode)) {
    why = "not a regular file";
  } else {
    why = elf_image_problem(ElfReader{static_cast<std::uint64_t>(st.st_size), &read_fd, &fd});
  }
  ::close(fd);
  return why;
}

}  // namespace loom
