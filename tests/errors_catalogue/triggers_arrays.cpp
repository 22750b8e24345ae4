// Catalogue triggers of issue 14's array use and transfer checks (docs/errors.md): typed access
// (data<T>, view<T, N>), fill, the transfer guard and its variable.
#include <cstdint>
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

const TriggerSet array_triggers = {
    {"E-VALUE-TYPED-READONLY",
     [] {
       (void)arange(3).broadcast_to({2, 3}).data<std::int64_t>();
     }},
    {"E-VALUE-VIEW-NDIM",
     [] {
       (void)zeros({2, 3}).view<double, 1>();
     }},
    {"E-VALUE-FILL-RANGE", [] { zeros({2}, DType::uint8).fill(300); }},
    {"E-VALUE-READONLY-FILL",
     [] {
       zeros({3}).broadcast_to({2, 3}).fill(1.0);
     }},
    {"E-VALUE-AT-INDEX",
     [] {
       (void)zeros({2, 3}).at<double>(0, 3);
     }},
    {"E-VALUE-TRANSFER-GUARD-ENV",
     [] {
       ScopedEnv env("LOOM_TRANSFER_GUARD", "sometimes");
       Runtime r(RuntimeOptions{.plugin_path = {kSerialDir}, .use_default_path = false});
     }},
    {"E-VALUE-CHECKED-ENV",
     [] {
       ScopedEnv env("LOOM_CHECKED", "yes");
       Runtime r(RuntimeOptions{.plugin_path = {kSerialDir}, .use_default_path = false});
     }},
    {"E-DEVICE-TRANSFER-GUARD",
     [] {
       need_gpu();
       Runtime r(RuntimeOptions{.transfer_guard = TransferGuard::disallow});
       (void)r.ufunc("add")(zeros({2}), 1.0, {.target = "cuda"});
     }},
};

}  // namespace
}  // namespace loom
