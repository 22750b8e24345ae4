// Helpers shared by the fuzz targets: a bug aborts with a message, so libFuzzer records a crash.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace loom::fuzz {

[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "FUZZ BUG: %s\n", what.c_str());
  std::abort();
}

// Reads bytes off the fuzzer's input; past the end it yields zeros.
class Bytes {
 public:
  Bytes(const std::uint8_t* d, std::size_t n) : d_(d), n_(n) {}
  std::uint8_t u8() { return i_ < n_ ? d_[i_++] : 0; }
  int pick(int n) { return n > 0 ? u8() % n : 0; }  // [0, n)
  bool flag() { return u8() & 1; }
  std::string str(std::size_t max) {
    std::string s;
    const std::size_t len = u8() % (max + 1);
    while (s.size() < len && i_ < n_) s += static_cast<char>(d_[i_++]);
    return s;
  }
  std::size_t left() const { return n_ - i_; }

 private:
  const std::uint8_t* d_;
  std::size_t n_;
  std::size_t i_ = 0;
};

}  // namespace loom::fuzz
