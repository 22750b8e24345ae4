// The second part of the pre-dlopen check of a plugin file (elf_checker.hpp): the dynamic section,
// which the loader walks and whose tables it follows.
#include <utility>

#include "plugins/elf_checker.hpp"

namespace loom::detail::elf {

std::string Checker::dynamic() {
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

}  // namespace loom::detail::elf
