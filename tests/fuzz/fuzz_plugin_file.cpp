// libFuzzer target: arbitrary bytes, written to a temporary file, through the check a plugin file
// passes before dlopen (loom/plugin_file.hpp). The check must never crash, must give the same
// answer from the file and from memory, and must refuse whatever the dynamic loader could not map
// safely: for a file it accepts, every loadable segment is mapped here the way ld.so maps it and
// each of its file pages is read, so a segment past the end of the file is a SIGBUS (a finding).
// The same bytes also go through the search path scan's symbol reader (plugin_search.hpp).
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "../../core/src/plugins/plugin_search.hpp"
#include "loom/plugin_file.hpp"

namespace {

// In /dev/shm where there is one: rewriting a file on ext4 in place (O_TRUNC) flushes it to disk
// on close, which made the target wait on I/O (275 executions/s).
const std::string& temp_path() {
  static const std::string p = std::string(::access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp") +
                               "/loom_fuzz_plugin_file_" + std::to_string(::getpid()) + ".so";
  static const bool cleanup = (std::atexit([] { ::unlink(p.c_str()); }), true);
  (void)cleanup;
  return p;
}

bool read_mem(const void* ctx, std::uint64_t offset, std::size_t n, void* dst) {
  std::memcpy(dst, static_cast<const unsigned char*>(ctx) + offset, n);
  return true;
}

[[noreturn]] void finding(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_plugin_file: %s: %s\n", what, detail.c_str());
  std::abort();
}

// The file was accepted: map what ld.so maps and touch every page of it.
void map_like_the_loader(int fd, const std::uint8_t* data, std::size_t size) {
  ElfW(Ehdr) eh;
  std::memcpy(&eh, data, sizeof eh);
  const long page = ::sysconf(_SC_PAGESIZE);
  for (int i = 0; i < eh.e_phnum; ++i) {
    ElfW(Phdr) p;
    std::memcpy(&p, data + eh.e_phoff + i * sizeof p, sizeof p);
    if (p.p_type != PT_LOAD || p.p_filesz == 0) continue;
    const std::uint64_t start = p.p_offset & ~static_cast<std::uint64_t>(page - 1);
    const std::uint64_t len = p.p_offset + p.p_filesz - start;
    void* m = ::mmap(nullptr, len, PROT_READ, MAP_PRIVATE, fd, static_cast<off_t>(start));
    if (m == MAP_FAILED) finding("mmap of an accepted segment failed", std::to_string(i));
    volatile unsigned char sink = 0;
    for (std::uint64_t off = 0; off < len; off += static_cast<std::uint64_t>(page)) {
      sink = sink + static_cast<const unsigned char*>(m)[off];  // SIGBUS past the end of the file
    }
    sink = sink + static_cast<const unsigned char*>(m)[len - 1];
    ::munmap(m, len);
  }
  (void)size;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string& path = temp_path();
  ::unlink(path.c_str());  // a new file each time, never one truncated in place
  const int out = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (out < 0) finding("cannot write the temporary file", path);
  for (std::size_t done = 0; done < size;) {
    const ssize_t n = ::write(out, data + done, size - done);
    if (n <= 0) finding("cannot write the temporary file", path);
    done += static_cast<std::size_t>(n);
  }
  ::close(out);

  // The search path scan reads the same untrusted files for their `loom_plugin` symbol (never
  // loading them): it must not crash either, whatever it answers.
  (void)loom::detail::exports_loom_plugin(path);

  const std::string why = loom::plugin_file_problem(path);
  const std::string from_memory = loom::elf_image_problem(loom::ElfReader{size, &read_mem, data});
  if (why != from_memory) finding("file and memory disagree", why + " | " + from_memory);
  if (why.empty()) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    map_like_the_loader(fd, data, size);
    ::close(fd);
  } else if (why.find('\0') != std::string::npos) {
    finding("a NUL in the reason", why);
  }
  return 0;
}
