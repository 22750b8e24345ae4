// Runtime construction (search path, loading), targets and op handles.
#include "loom/runtime.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

#include "loom/error.hpp"
#include "loom/plugin.hpp"
#include "loom/plugin_file.hpp"
#include "ops/suggest.hpp"
#include "plugins/plugin_index.hpp"
#include "plugins/plugin_search.hpp"
#include "runtime/device_set.hpp"
#include "runtime/runtime_impl.hpp"

namespace loom {

namespace {

std::vector<std::string> split_path(const char* s) {
  std::vector<std::string> out;
  if (!s) return out;
  std::string cur;
  for (const char* p = s;; ++p) {
    if (*p == ':' || *p == 0) {
      if (!cur.empty()) out.push_back(cur);  // an empty entry would mean ".": never searched
      cur.clear();
      if (*p == 0) break;
    } else {
      cur += *p;
    }
  }
  return out;
}

// The one check of a thread count, from the variable, the option or the setter (`what` names
// which). 0 means all cores. A bound, because TBB crashes on arenas of millions of slots.
int checked_num_threads(long long n, const std::string& what) {
  const int max = Runtime::max_num_threads();
  if (n < 0) {
    throw ValueError(what + "=" + std::to_string(n) +
                     " is negative; give 0 for all cores or a thread count from 1 to " +
                     std::to_string(max));
  }
  if (n > max) {
    throw ValueError(
        what + "=" + std::to_string(n) + " is more threads than loom allows here (" +
        std::to_string(max) + ": 4 x the " + std::to_string(std::thread::hardware_concurrency()) +
        " hardware threads, at least 256); give 0 for all cores or at most " + std::to_string(max));
  }
  return static_cast<int>(n);
}

int env_threads() {
  const char* s = std::getenv("LOOM_NUM_THREADS");
  if (!s || !*s) return 0;
  char* end = nullptr;
  errno = 0;
  const long long n = std::strtoll(s, &end, 10);
  if (end == s || *end != 0) {
    throw ValueError(std::string("LOOM_NUM_THREADS='") + s +
                     "' is not an integer; give 0 for all cores or a thread count from 1 to " +
                     std::to_string(Runtime::max_num_threads()));
  }
  if (errno == ERANGE) {  // beyond long long: strtoll clamped it, so name the text
    throw ValueError(std::string("LOOM_NUM_THREADS=") + s +
                     " is out of range; give 0 for all cores or a thread count from 1 to " +
                     std::to_string(Runtime::max_num_threads()));
  }
  return checked_num_threads(n, "LOOM_NUM_THREADS");
}

TransferGuard env_transfer_guard() {
  const char* s = std::getenv("LOOM_TRANSFER_GUARD");
  if (!s || !*s) return TransferGuard::allow;
  const std::string v = s;
  if (v == "allow") return TransferGuard::allow;
  if (v == "disallow") return TransferGuard::disallow;
  throw ValueError("LOOM_TRANSFER_GUARD='" + v +
                   "' is not a transfer guard; give allow (host arrays in device calls are " +
                   "copied implicitly) or disallow (they are an error)");
}

// LOOM_CHECKED: 1 checks every kernel launch and gufunc call, 0 or unset none; anything else is a
// mistake worth saying (a silent "yes" that checks nothing would hide the bug being hunted).
bool env_checked() {
  const char* s = std::getenv("LOOM_CHECKED");
  if (!s || !*s) return false;
  const std::string v = s;
  if (v == "1") return true;
  if (v == "0") return false;
  throw ValueError("LOOM_CHECKED='" + v +
                   "' is not 0 or 1; give 1 to run every kernel launch and gufunc call checked " +
                   "(View accesses bounds-checked, an IndexError after the launch or call) or 0 " +
                   "for none");
}

// Targets loom knows about even when their backend library is absent, with that library's name.
constexpr std::pair<const char*, const char*> kWellKnown[] = {
    {"cpu", "libloom_serial.so"}, {"parallel", "libloom_tbb.so"}, {"cuda", "libloom_cuda.so"}};

}  // namespace

Runtime::Runtime(RuntimeOptions options)
    : impl_(std::make_shared<Impl>()),
      registry_(impl_->registry),
      search_path_(impl_->search_path),
      default_target_(impl_->default_target) {
  impl_->num_threads = options.num_threads != 0
                           ? checked_num_threads(options.num_threads, "RuntimeOptions::num_threads")
                           : env_threads();
  impl_->transfer_guard = options.transfer_guard == TransferGuard::from_env
                              ? env_transfer_guard()
                              : options.transfer_guard;
  impl_->checked_launches = env_checked();
  search_path_ = options.plugin_path;
  std::string own_dir;  // loom's own plugin folder, when searched
  if (options.use_default_path) {
    if (search_path_.empty()) search_path_ = split_path(std::getenv("LOOM_PLUGIN_PATH"));
    const std::string own = core_library_dir();
    if (!own.empty()) {
      own_dir = (std::filesystem::path(own) / "loom").string();
      search_path_.push_back(own_dir);
    }
  }
  const char* t = std::getenv("LOOM_TARGET");
  default_target_ = t && *t ? t : "cpu";
  // A file name found in an earlier folder shadows the same name later (like PATH).
  std::vector<std::string> seen;
  std::vector<std::filesystem::path> files;
  std::vector<std::string> own_names;  // file names in loom's own folder
  for (const auto& dir : search_path_) {
    std::error_code ec;
    if (auto n = detail::entry_notices(dir); !n.empty()) {
      impl_->notices.insert(impl_->notices.end(), n.begin(), n.end());
      continue;
    }
    // A folder that others can write to could be given a libloom_*.so by anyone: refused whole,
    // recorded with its path (docs/reliability.md, "Plugin files").
    if (auto why = plugin_trust_problem(dir); !why.empty()) {
      std::lock_guard lock(impl_->mutex);
      impl_->records.push_back(LoadedLibrary{dir, dir, Family::host, false,
                                             "plugin folder " + dir + " refused: " + why});
      continue;
    }
    std::vector<std::filesystem::path> here;
    std::vector<SearchNotice> passed_over;  // sorted as `here`, so the notices keep one order
    for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
      const std::string f = e.path().filename().string();
      if (f.starts_with("libloom_") && f.ends_with(".so")) {
        here.push_back(e.path());
      } else if (f.ends_with(".so.index")) {
        continue;  // a library's index (plugins/plugin_index.hpp), read below
      } else if (auto n = detail::file_notices(e.path().string()); !n.empty()) {
        passed_over.insert(passed_over.end(), n.begin(), n.end());
      }
    }
    std::sort(passed_over.begin(), passed_over.end(),
              [](const auto& x, const auto& y) { return x.path < y.path; });
    impl_->notices.insert(impl_->notices.end(), passed_over.begin(), passed_over.end());
    if (ec) {
      impl_->notices.push_back({SearchNotice::Kind::unreadable_entry, dir,
                                "search path entry '" + dir + "' cannot be read: " + ec.message()});
    }
    std::sort(here.begin(), here.end());
    for (const auto& f : here) {
      const std::string fname = f.filename().string();
      if (dir == own_dir) own_names.push_back(fname);
      if (std::find(seen.begin(), seen.end(), fname) != seen.end()) continue;
      seen.push_back(fname);
      files.push_back(f);
    }
  }
  // The libraries named as in loom's own folder (those or the copies shadowing them) load first,
  // so that a library on LOOM_PLUGIN_PATH that registers one of their ops differently is the one
  // refused, not the math plugin (docs/plugins.md, "Which library wins").
  std::stable_partition(files.begin(), files.end(), [&](const std::filesystem::path& f) {
    const std::string n = f.filename().string();
    return std::find(own_names.begin(), own_names.end(), n) != own_names.end();
  });
  // A library with an index is opened when first used (lazy_libraries.cpp); one without is
  // opened now, as before indexes existed.
  std::lock_guard lock(impl_->mutex);
  for (const auto& f : files) {
    const std::string path = f.string();
    std::string why;
    std::optional<PluginIndex> index = read_index(path, why, true);
    if (!why.empty()) {
      impl_->records.push_back(
          LoadedLibrary{path, f.filename().string(), Family::host, false, why});
      continue;
    }
    if (!index) {
      try {
        impl_->records.push_back(open_now(*impl_, path, true, nullptr));
      } catch (const Error& e) {
        impl_->records.push_back(
            LoadedLibrary{path, f.filename().string(), Family::host, false, e.what()});
      }
      continue;
    }
    LazyLibrary lib{path, std::move(*index), impl_->records.size(), false};
    impl_->records.push_back(LoadedLibrary{path, lib.index.name, lib.index.family, true, {}});
    if (!lib.index.backend.empty()) impl_->lazy_backends.fetch_add(1, std::memory_order_relaxed);
    impl_->lazy.push_back(std::move(lib));
  }
  index_names(*impl_);
}

Runtime::Runtime(std::shared_ptr<Impl> impl)
    : impl_(std::move(impl)),
      registry_(impl_->registry),
      search_path_(impl_->search_path),
      default_target_(impl_->default_target) {}

Runtime::~Runtime() = default;

std::shared_ptr<const Runtime> Runtime::shared() const {
  std::lock_guard lock(impl_->mutex);
  std::shared_ptr<const Runtime> s = impl_->shared_owner.lock();
  if (!s) {
    s = std::shared_ptr<const Runtime>(new Runtime(impl_));
    impl_->shared_owner = s;
  }
  return s;
}

void Runtime::load_library(const std::string& path) {
  std::lock_guard lock(impl_->mutex);
  try {
    // Opened now; an index beside it is checked as the lazy opening checks it.
    std::string why;
    const std::optional<PluginIndex> index = read_index(path, why, false);
    if (!why.empty()) throw PluginError(why);
    impl_->records.push_back(open_now(*impl_, path, false, index ? &*index : nullptr));
  } catch (const Error& e) {
    impl_->records.push_back(LoadedLibrary{path, path, Family::host, false, e.what()});
    throw;
  }
}

std::vector<LoadedLibrary> Runtime::libraries() const {
  std::lock_guard lock(impl_->mutex);
  open_all(*impl_);  // the whole list, refusals included (loom-info lists everything)
  return impl_->records;
}

const Registry& Runtime::registry() const {
  std::lock_guard lock(impl_->mutex);
  open_all(*impl_);  // users read the registry whole (registry().find, list())
  return registry_;
}

Collectives* Runtime::collectives(const std::string& backend_target) const {
  std::lock_guard lock(impl_->mutex);
  open_collectives(*impl_, backend_target);
  for (const auto& c : impl_->collectives) {
    if (c->target() == backend_target) return c.get();
  }
  return nullptr;
}

std::vector<SearchNotice> Runtime::search_notices() const { return impl_->notices; }

std::vector<TargetInfo> Runtime::targets() const {
  std::lock_guard lock(impl_->mutex);
  open_backends(*impl_, "");
  std::vector<TargetInfo> out;
  for (const auto& [t, lib] : kWellKnown) {
    auto it = std::find_if(impl_->backends.begin(), impl_->backends.end(),
                           [&, t = t](const auto& b) { return b->target() == t; });
    if (it == impl_->backends.end()) {
      out.push_back({t, "", false, std::string(lib) + " was not found on the search path", ""});
    }
  }
  for (const auto& b : impl_->backends) {
    const Availability a = b->availability();
    out.push_back({b->target(), b->name(), a.ok, a.reason, b->describe()});
  }
  std::sort(out.begin(), out.end(),
            [](const auto& x, const auto& y) { return x.target < y.target; });
  return out;
}

std::pair<Backend*, int> Runtime::resolve_target(const std::string& target) const {
  const std::string& name = target.empty() ? default_target_ : target;
  auto& memo = impl_->target_memo;
  const int memo_n = impl_->target_memo_count.load(std::memory_order_acquire);
  for (int i = 0; i < memo_n; ++i) {
    Backend* b = memo[i].backend.load(std::memory_order_acquire);
    if (b && name == memo[i].name) return {b, 0};
  }
  const std::string t = name;
  if (detail::names_device_set(t)) {
    throw TargetError("target '" + t + "' names a device set, which ufunc and gufunc calls, " +
                      "reductions and kernels take (docs/multi-gpu.md); this one runs on one " +
                      "device: name it (" + t.substr(0, t.find(':')) + ":0)");
  }
  std::string base = t;
  int device = 0;
  if (auto colon = t.find(':'); colon != std::string::npos) {
    base = t.substr(0, colon);
    const std::string idx = t.substr(colon + 1);
    const bool digits =
        !idx.empty() && idx.size() < 6 &&
        std::all_of(idx.begin(), idx.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!digits) {
      throw TargetError("target '" + t + "': the device index after ':' must be a number");
    }
    device = std::stoi(idx);
  }
  std::lock_guard lock(impl_->mutex);
  open_backends(*impl_, base);
  for (const auto& b : impl_->backends) {
    if (b->target() != base) continue;
    const Availability a = b->availability();
    if (!a.ok) throw TargetError("target '" + t + "' is unavailable: " + a.reason);
    if (device >= b->device_count()) {
      throw TargetError("target '" + t + "': device " + std::to_string(device) +
                        " does not exist (" + std::to_string(b->device_count()) + " device(s))");
    }
    const int n = impl_->target_memo_count.load(std::memory_order_relaxed);
    if (t.find(':') == std::string::npos && t.size() < sizeof(memo[0].name) &&
        n < static_cast<int>(memo.size())) {
      bool known = false;
      for (int i = 0; i < n; ++i) known = known || t == memo[i].name;
      if (!known) {
        std::memcpy(memo[n].name, t.c_str(), t.size() + 1);
        memo[n].backend.store(b.get(), std::memory_order_release);
        impl_->target_memo_count.store(n + 1, std::memory_order_release);
      }
    }
    return {b.get(), device};
  }
  open_backends(*impl_, "");  // the unknown target's message lists every target
  for (const auto& [w, lib] : kWellKnown) {
    if (base == w) {
      throw TargetError("target '" + t + "' is unavailable: its backend " + lib +
                        " was not found on the plugin search path or failed to load");
    }
  }
  // Unknown: list every target with, for the ones that cannot run here, the reason.
  std::string known;
  for (const auto& [w, lib] : kWellKnown) {
    known += std::string(known.empty() ? "" : ", ") + w;
    auto it = std::find_if(impl_->backends.begin(), impl_->backends.end(),
                           [&, w = w](const auto& b) { return b->target() == w; });
    if (it == impl_->backends.end()) {
      known += std::string(" (unavailable: ") + lib + " not found)";
    } else if (const Availability a = (*it)->availability(); !a.ok) {
      known += " (unavailable: " + a.reason + ")";
    }
  }
  for (const auto& b : impl_->backends) {
    bool listed = false;
    for (const auto& [w, lib] : kWellKnown) listed = listed || b->target() == w;
    if (!listed) known += ", " + b->target();
  }
  throw TargetError("unknown target '" + t + "'; known targets: " + known +
                    "; cuda:N names device N");
}

int Runtime::num_threads() const {
  auto [b, d] = resolve_target("parallel");
  return b->num_threads();
}

int Runtime::max_num_threads() {
  return static_cast<int>(std::max(256LL, 4LL * std::thread::hardware_concurrency()));
}

void Runtime::set_num_threads(int n) {
  n = checked_num_threads(n, "set_num_threads: n");
  std::lock_guard lock(impl_->mutex);
  impl_->num_threads = n;
  for (auto& b : impl_->backends) b->set_num_threads(n);
}

std::string Runtime::refused_why(const std::string& name) const {
  std::lock_guard lock(impl_->mutex);
  return refused_note(*impl_, name);
}

namespace {

// Why `name` is missing: the refused library that would have defined it, else the registered op
// of the asked kind whose name is closest ("; did you mean 'x'?"), else nothing; then what the
// plugin search passed over (`notices`: empty when the name exists as another kind).
std::string missing_op_hint(const Registry& r, const std::string& why, const std::string& name,
                            bool reduction, const std::vector<SearchNotice>& notices,
                            const std::vector<PluginIndex::Op>& unopened) {
  std::string hint = why;
  if (hint.empty()) {
    std::vector<std::string> names;
    for (const auto& d : r.list()) {
      if ((d->kind == OpKind::reduce) == reduction) names.push_back(d->name);
    }
    for (const auto& o : unopened) {
      if ((o.kind == OpKind::reduce) == reduction) names.push_back(o.name);
    }
    hint = detail::did_you_mean(name, names);
  }
  return hint + detail::notices_note(notices, !hint.empty());
}

}  // namespace

void Runtime::prepare_target(const std::string& target) const {
  if (impl_->lazy_backends.load(std::memory_order_acquire) == 0) return;
  const std::string& name = target.empty() ? default_target_ : target;
  const int memo_n = impl_->target_memo_count.load(std::memory_order_acquire);
  for (int i = 0; i < memo_n; ++i) {
    if (name == impl_->target_memo[i].name) return;  // resolved before: its backend is open
  }
  std::lock_guard lock(impl_->mutex);
  open_backends(*impl_, name.substr(0, name.find(':')));
}

std::uint64_t Runtime::open_named(const std::string& name, bool kernel) const {
  open_listing(*impl_, name, kernel);
  // Read before the caller's find: a later bump then makes the handle look again, never miss it.
  return impl_->generation.load(std::memory_order_acquire);
}

const OpDesc& Runtime::current_op(const std::shared_ptr<const OpDesc>& held, std::uint64_t gen,
                                  const std::string& target,
                                  std::shared_ptr<const OpDesc>& keep) const {
  prepare_target(target);
  if (impl_->generation.load(std::memory_order_acquire) == gen) return *held;
  keep = registry_.find(held->name);
  if (!keep || keep->kind != held->kind) keep = held;
  return *keep;
}

const KernelDesc& Runtime::current_kernel(const std::shared_ptr<const KernelDesc>& held,
                                          std::uint64_t gen, const std::string& target,
                                          std::shared_ptr<const KernelDesc>& keep) const {
  prepare_target(target);
  if (impl_->generation.load(std::memory_order_acquire) == gen) return *held;
  keep = registry_.find_kernel(held->name);
  if (!keep) keep = held;
  return *keep;
}

Ufunc Runtime::ufunc(const std::string& name) const {
  const std::uint64_t gen = open_named(name, false);
  auto d = registry_.find(name);
  if (!d || d->kind == OpKind::reduce) {
    throw LookupError("no ufunc or gufunc named '" + name + "' is registered" +
                      (d ? " (it is a reduction: use Runtime::reduce)" : "") +
                      "; loom-info lists the registered ops" +
                      missing_op_hint(registry_, refused_why(name), name, false,
                                      d ? std::vector<SearchNotice>{} : impl_->notices,
                                      unopened_ops(*impl_)));
  }
  Ufunc u;
  u.rt_ = shared();
  u.desc_ = std::move(d);
  u.gen_ = gen;
  return u;
}

Reduce Runtime::reduce(const std::string& name) const {
  const std::uint64_t gen = open_named(name, false);
  auto d = registry_.find(name);
  if (!d || d->kind != OpKind::reduce) {
    throw LookupError("no reduction named '" + name + "' is registered" +
                      (d ? std::string(" (it is a ") + loom::name(d->kind) + ")" : "") +
                      "; loom-info lists the registered ops" +
                      missing_op_hint(registry_, refused_why(name), name, true,
                                      d ? std::vector<SearchNotice>{} : impl_->notices,
                                      unopened_ops(*impl_)));
  }
  Reduce r;
  r.rt_ = shared();
  r.desc_ = std::move(d);
  r.gen_ = gen;
  return r;
}

}  // namespace loom
