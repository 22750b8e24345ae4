// Notices of the plugin folder scan (plugin_search.hpp): what the search path holds that the
// loader passes over, so that a missing op can be traced to a mistyped folder or a misnamed
// library instead of nothing (docs/plugins.md, "Search path notices").
#include "plugins/plugin_search.hpp"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace loom::detail {

namespace {

using Ehdr = ElfW(Ehdr);
using Shdr = ElfW(Shdr);
using Sym = ElfW(Sym);

constexpr unsigned char kClass = sizeof(void*) == 8 ? ELFCLASS64 : ELFCLASS32;
constexpr unsigned char kData =
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB;
// Bounds on what is read of one file: a plugin's dynamic tables are kilobytes; a file claiming
// more is not one worth reading whole.
constexpr std::uint64_t kMaxTable = 64ull << 20;

class File {
 public:
  explicit File(const std::string& path)
      : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)) {}  // a FIFO must not block
  ~File() {
    if (fd_ >= 0) ::close(fd_);
  }
  File(const File&) = delete;
  File& operator=(const File&) = delete;

  // The size of a regular file, or false (not open, not regular).
  bool regular_size(std::uint64_t& size) const {
    struct stat st {};
    if (fd_ < 0 || ::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) return false;
    size = static_cast<std::uint64_t>(st.st_size);
    return true;
  }
  bool read(std::uint64_t offset, std::size_t n, void* dst) const {
    auto* out = static_cast<char*>(dst);
    while (n > 0) {
      const ssize_t got = ::pread(fd_, out, n, static_cast<off_t>(offset));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) return false;
      out += got;
      offset += static_cast<std::uint64_t>(got);
      n -= static_cast<std::size_t>(got);
    }
    return true;
  }

 private:
  int fd_;
};

// [offset, offset + len) lies inside a file of `size` bytes (no overflow).
bool inside(std::uint64_t offset, std::uint64_t len, std::uint64_t size) {
  return offset <= size && len <= size - offset;
}

bool defines(const File& f, std::uint64_t size, const Shdr& syms, const Shdr& strs,
             const char* name) {
  if (syms.sh_entsize != sizeof(Sym) || syms.sh_size > kMaxTable || strs.sh_size > kMaxTable ||
      !inside(syms.sh_offset, syms.sh_size, size) || !inside(strs.sh_offset, strs.sh_size, size)) {
    return false;
  }
  std::vector<char> str(strs.sh_size);
  std::vector<Sym> sym(syms.sh_size / sizeof(Sym));
  if (!f.read(strs.sh_offset, str.size(), str.data()) ||
      !f.read(syms.sh_offset, sym.size() * sizeof(Sym), sym.data())) {
    return false;
  }
  const std::size_t len = std::strlen(name);
  for (const Sym& s : sym) {
    if (s.st_shndx == SHN_UNDEF || s.st_name >= str.size()) continue;
    // The name and its NUL must lie inside the table.
    if (str.size() - s.st_name > len && std::memcmp(&str[s.st_name], name, len + 1) == 0) {
      return true;
    }
  }
  return false;
}

bool is_library_name(const std::string& f) {
  return f.ends_with(".so") || f.find(".so.") != std::string::npos;
}

}  // namespace

bool exports_loom_plugin(const std::string& path) {
  const File f(path);
  std::uint64_t size = 0;
  Ehdr eh{};
  if (!f.regular_size(size) || size < sizeof(Ehdr) || !f.read(0, sizeof(Ehdr), &eh)) return false;
  if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != kClass ||
      eh.e_ident[EI_DATA] != kData || eh.e_type != ET_DYN || eh.e_shentsize != sizeof(Shdr) ||
      eh.e_shnum == 0 || !inside(eh.e_shoff, std::uint64_t{eh.e_shnum} * sizeof(Shdr), size)) {
    return false;
  }
  std::vector<Shdr> sh(eh.e_shnum);
  if (!f.read(eh.e_shoff, sh.size() * sizeof(Shdr), sh.data())) return false;
  for (const Shdr& s : sh) {
    if (s.sh_type != SHT_DYNSYM || s.sh_link >= sh.size()) continue;
    const Shdr& strs = sh[s.sh_link];
    if (strs.sh_type == SHT_STRTAB && defines(f, size, s, strs, "loom_plugin")) return true;
  }
  return false;
}

std::string loader_name_for(const std::string& file) {
  std::string stem = file;
  if (const auto so = stem.find(".so"); so != std::string::npos) stem.resize(so);
  if (stem.starts_with("lib")) stem.erase(0, 3);
  if (stem.starts_with("loom_")) stem.erase(0, 5);
  return "libloom_" + (stem.empty() ? std::string("<name>") : stem) + ".so";
}

std::vector<SearchNotice> entry_notices(const std::string& entry) {
  std::error_code ec;
  const auto st = std::filesystem::status(entry, ec);
  if (st.type() == std::filesystem::file_type::not_found) {
    return {{SearchNotice::Kind::missing_entry, entry,
             "search path entry '" + entry + "' does not exist"}};
  }
  if (ec) {
    return {{SearchNotice::Kind::unreadable_entry, entry,
             "search path entry '" + entry + "' cannot be read: " + ec.message()}};
  }
  if (!std::filesystem::is_directory(st)) {
    return {{SearchNotice::Kind::not_a_folder, entry,
             "search path entry '" + entry +
                 "' is not a folder; the search path lists the folders holding the libraries"}};
  }
  return {};
}

std::vector<SearchNotice> file_notices(const std::string& path) {
  const std::filesystem::path p(path);
  const std::string f = p.filename().string();
  // Beside a file of the name the loader wants (a symlink to it, a versioned copy), the loader
  // already has the plugin: nothing is missing.
  std::error_code ec;
  if (!is_library_name(f) || std::filesystem::exists(p.parent_path() / loader_name_for(f), ec) ||
      !exports_loom_plugin(path)) {
    return {};
  }
  return {{SearchNotice::Kind::misnamed_library, path,
           "'" + path + "' is a loom plugin (it exports loom_plugin) but the loader loads only " +
               "files named libloom_*.so; rename it " + loader_name_for(f) +
               " (loom_add_plugin names it so)"}};
}

std::string notices_note(const std::vector<SearchNotice>& notices, bool after_sentence) {
  if (notices.empty()) return {};
  std::string out = after_sentence ? " Note: " : "; note: ";
  constexpr std::size_t kShown = 3;  // bounded: the message stays readable
  for (std::size_t i = 0; i < notices.size() && i < kShown; ++i) {
    if (i) out += "; ";
    out += notices[i].message;
  }
  if (notices.size() > kShown) {
    out += "; and " + std::to_string(notices.size() - kShown) +
           " more (Runtime::search_notices() and loom-info list them)";
  }
  return after_sentence ? out + "." : out;
}

}  // namespace loom::detail
