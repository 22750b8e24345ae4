// The multidev test backend's log (multidev.cpp), for the device-set tests: the functions the
// loaded plugin exports, found with dlsym. A Runtime must have loaded the plugin first.
#pragma once
#include <dlfcn.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace loom::test {

class MultidevLog {
 public:
  // `lib`: the plugin's file (LOOM_TEST_MULTIDEV_LIB), already opened (resolve "multidev" first: a
  // runtime opens a library with an index when first used).
  explicit MultidevLog(const char* lib) : handle_(dlopen(lib, RTLD_NOW | RTLD_NOLOAD)) {
    if (!handle_) throw std::runtime_error(std::string("multidev plugin not loaded: ") + lib);
    rows_ = reinterpret_cast<std::int64_t (*)(int, int*)>(sym("loom_test_multidev_rows"));
    reset_ = reinterpret_cast<void (*)()>(sym("loom_test_multidev_reset"));
    collectives_ = reinterpret_cast<int (*)()>(sym("loom_test_multidev_collectives"));
  }
  // The total size (elements, or a kernel's blocks) of device d's calls since reset().
  std::int64_t rows(int d) const {
    int calls = 0;
    return rows_(d, &calls);
  }
  // Collective reductions since reset().
  int collectives() const { return collectives_(); }
  void reset() const { reset_(); }

 private:
  void* sym(const char* name) const {
    void* s = dlsym(handle_, name);
    if (!s) throw std::runtime_error(std::string("multidev plugin lacks ") + name);
    return s;
  }
  void* handle_;
  std::int64_t (*rows_)(int, int*) = nullptr;
  void (*reset_)() = nullptr;
  int (*collectives_)() = nullptr;
};

}  // namespace loom::test
