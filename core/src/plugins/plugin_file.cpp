// The pre-dlopen check of a plugin file's ELF headers (loom/plugin_file.hpp). glibc's loader maps
// every PT_LOAD segment's file range and then reads the dynamic section, the notes and the TLS
// image through that mapping: a range past the end of the file is a SIGBUS the loader cannot
// catch. Everything the loader would touch through the mapping is checked here against the file
// size, with plain reads, so a damaged or foreign file is refused with the reason instead.
// The checks themselves: elf_headers.cpp and elf_dynamic.cpp; here, reading a file for them.
#include "loom/plugin_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "plugins/elf_checker.hpp"

namespace loom {

namespace {

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

std::string elf_image_problem(const ElfReader& image) { return detail::elf::Checker(image).run(); }

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
