// Catalogue triggers of issue 12's runtime checks (docs/errors.md): thread counts from
// LOOM_NUM_THREADS, RuntimeOptions::num_threads and set_num_threads; fiber stack sizes; the
// kernel watchdog's variable.
#include <cstdlib>
#include <optional>
#include <string>

#include "catalogue.hpp"
#include "trigger_helpers.hpp"

namespace loom {

using namespace catalogue;  // NOLINT: the helpers of this file

namespace {

// Sets an environment variable for one scope and restores it after (also on a throw).
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* o = std::getenv(name)) old_ = o;
    ::setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

Runtime serial_rt(int num_threads = 0) {
  return Runtime(RuntimeOptions{
      .plugin_path = {kSerialDir}, .use_default_path = false, .num_threads = num_threads});
}

const TriggerSet runtime_triggers = {
    {"E-VALUE-NUM-THREADS-ENV",
     [] {
       ScopedEnv env("LOOM_NUM_THREADS", "many");
       serial_rt();
     }},
    {"E-VALUE-NUM-THREADS-RANGE",
     [] {
       ScopedEnv env("LOOM_NUM_THREADS", "99999999999999999999");
       serial_rt();
     }},
    {"E-VALUE-NUM-THREADS-NEGATIVE", [] { serial_rt(-5); }},
    {"E-VALUE-NUM-THREADS-TOO-MANY", [] { test_rt().set_num_threads(10'000'000); }},
    {"E-VALUE-KERNEL-WATCHDOG",
     [] {
       ScopedEnv env("LOOM_KERNEL_WATCHDOG", "soon");
       const Array out = zeros({1});
       rt().kernel("block_sum_sync")
           .launch({.blocks = 1, .threads = 4, .shared_bytes = 32, .target = "cpu"}, zeros({4}),
                   out);
     }},
    {"E-LAUNCH-STACK-BYTES",
     [] {
       launch_add(rt(), {.blocks = 1, .threads = 8, .stack_bytes = 1 << 30, .target = "cpu"});
     }},
    {"E-KERNEL-STACK-GUARD",
     [] {
       internal("mprotect refusing PROT_NONE on a fresh private mapping of the process's own");
     }},
};

}  // namespace
}  // namespace loom
