// The bad-input catalogue (issue 6): parses docs/errors.md and, for every entry, runs the trigger
// registered here under the entry's id, checking the exception's class and that its message
// matches the entry's `match` regex. An entry without a trigger, or a trigger without an entry,
// fails, so the document stays true. Entries needing a GPU (or only reachable when loom itself is
// broken) skip with the reason.
//
// LOOM_CATALOGUE_DUMP=1 prints "id <TAB> class <TAB> message" for every trigger (to write examples).
#include <gtest/gtest.h>

#include <complex>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "loom/def/gufunc.hpp"
#include "loom/def/ufunc.hpp"
#include "loom/error.hpp"
#include "loom/layout.hpp"
#include "loom/plugin.hpp"
#include "loom/runtime.hpp"
#include "loom/signature.hpp"
#include "loom/strided.hpp"
#include "loom/type_resolution.hpp"

namespace loom {
namespace {

// ---------------------------------------------------------------------------------------------
// The document.

struct Entry {
  std::string id;
  std::map<std::string, std::string> f;  // class, needs, trigger, example, match, thrown at
  std::string get(const std::string& k) const {
    auto it = f.find(k);
    return it == f.end() ? std::string() : it->second;
  }
};

void PrintTo(const Entry& e, std::ostream* os) { *os << e.id; }  // test names in ctest

std::string strip_ticks(std::string v) {
  while (!v.empty() && v.back() == ' ') v.pop_back();
  if (v.size() >= 2 && v.front() == '`' && v.back() == '`') v = v.substr(1, v.size() - 2);
  return v;
}

// "### E-ID" starts an entry; "- key: value" lines give its fields (a value in `backticks` is
// taken verbatim between them). Anything else is prose.
std::vector<Entry> parse_catalogue() {
  std::ifstream in(LOOM_ERRORS_MD);
  std::vector<Entry> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("### ", 0) == 0) {
      std::string id = line.substr(4);
      while (!id.empty() && id.back() == ' ') id.pop_back();
      out.push_back(Entry{id, {}});
      continue;
    }
    if (out.empty() || line.rfind("- ", 0) != 0) continue;
    const auto colon = line.find(": ");
    if (colon == std::string::npos) continue;
    out.back().f[line.substr(2, colon - 2)] = strip_ticks(line.substr(colon + 2));
  }
  return out;
}

const std::vector<Entry>& catalogue() {
  static const std::vector<Entry> c = parse_catalogue();
  return c;
}

// ---------------------------------------------------------------------------------------------
// Helpers for the triggers.

struct Skip {
  std::string reason;
};

const std::string kSerialDir = LOOM_CAT_SERIAL_DIR;
const std::string kGoodDir = LOOM_CAT_GOOD_DIR;
const std::string kBrokenDir = LOOM_CAT_BROKEN_DIR;
const std::string kCatDir = LOOM_CAT_PLUGIN_DIR;

// The runtime a user gets: the default search path of this build (serial, math, tbb if built).
Runtime& rt() {
  static Runtime r;
  return r;
}
// Serial backend and libloom_testops only (as tests/plugins uses them).
Runtime fresh_test_rt() {
  return Runtime(RuntimeOptions{.plugin_path = {kSerialDir, kGoodDir}, .use_default_path = false});
}
Runtime& test_rt() {
  static Runtime r = fresh_test_rt();
  return r;
}

std::optional<std::string> unavailable_reason(const std::string& target) {
  for (const auto& t : rt().targets()) {
    if (t.target == target) {
      return t.available ? std::nullopt : std::optional<std::string>(t.reason);
    }
  }
  return std::string("no backend for target '" + target + "' on the search path");
}
void need_gpu() {
  if (auto r = unavailable_reason("cuda")) throw Skip{"needs a GPU and the cuda backend: " + *r};
}
[[noreturn]] void internal(const std::string& why) {
  throw Skip{"internal check, not reachable through the public API: " + why};
}

// A host pointer dressed as an array on CUDA device `dev`: enough for the checks that look at
// an array's device before touching its memory (no GPU needed; nothing ever reads it).
Array fake_device(Shape shape, int dev = 0) {
  static double storage[64];
  return wrap(storage, std::move(shape), DType::float64, {}, {}, Device{DeviceKind::cuda, dev});
}

// The runtime a user gets plus the catalogue's rule-breaking kernels (cat_read_past_end,
// cat_sync_undeclared, cat_barrier_divergent), loaded once.
Runtime& kernel_rt() {
  static Runtime r;
  static const bool loaded = (r.load_library(kCatDir + "/libloom_cat_kernels.so"), true);
  (void)loaded;
  return r;
}

// add_kernel on three float32 arrays of 8 elements with this configuration.
void launch_add(Runtime& r, const LaunchConfig& c) {
  const Array x = zeros({8}, DType::float32);
  Array out = zeros({8}, DType::float32);
  r.kernel("add_kernel").launch(c, x, x, out);
}

struct Neg {
  template <class T>
  T operator()(T a) const {
    return -a;
  }
};
struct Dot2 {  // views of ranks (1),(1)->(1)
  template <class T>
  void operator()(View<const T, 1> a, View<const T, 1>, View<T, 1> out) const {
    out(0) = a(0);
  }
};
struct TwoArgs {  // two views for a three-argument layout
  template <class T>
  void operator()(View<const T, 1> a, View<T, 0> out) const {
    out() = a(0);
  }
};

// ---------------------------------------------------------------------------------------------
// The triggers, one per catalogue id.

using Trigger = std::function<void()>;

const std::map<std::string, Trigger>& triggers() {
  static const std::map<std::string, Trigger> t = {
      // ParseError
      {"E-PARSE-DTYPE", [] { dtype_from_name("float128"); }},
      {"E-PARSE-CASTING", [] { casting_from_name("sometimes"); }},
      {"E-PARSE-SIGNATURE",
       [] { rt().ufunc("add")(array({1.0}), array({2.0}), {.signature = "float64(float64"}); }},
      {"E-PARSE-SIGNATURE-DTYPE", [] { Signature::parse("float64(float64,real)"); }},
      {"E-PARSE-LAYOUT", [] { Layout::parse("(n),(n)->"); }},
      {"E-PARSE-LAYOUT-FLEXIBLE", [] { Layout::parse("(n?),(n?)->()"); }},
      {"E-PARSE-LAYOUT-FIXED-SIZE", [] { Layout::parse("(0)->()"); }},
      // TypeError
      {"E-TYPE-NOLOOP",
       [] { rt().ufunc("add")(zeros({2}, DType::complex128), zeros({2}, DType::complex128)); }},
      {"E-TYPE-OUT-CAST",
       [] {
         Array out = zeros({2}, DType::int32);
         rt().ufunc("add")(array({1.5, 2.5}), array({1.0, 2.0}), {.out = {out}});
       }},
      {"E-TYPE-REDUCE-OUT-CAST",
       [] { rt().reduce("sum")(array({1.5, 2.5}), {.out = zeros({}, DType::int32)}); }},
      {"E-TYPE-AT-DTYPE", [] { array({1.0, 2.0}).at<float>(0); }},
      {"E-TYPE-KERNEL-ARGS",
       [] {
         const Array a = zeros({4}, DType::int16);
         rt().kernel("add_kernel").launch({.blocks = 1, .threads = 4, .target = "cpu"}, a, a, a);
       }},
      {"E-TYPE-KERNEL-SCALAR",
       [] { internal("kernel scalar parameters and arguments are always bool, integers or floats"); }},
      // ShapeError
      {"E-SHAPE-BROADCAST", [] { rt().ufunc("add")(zeros({2, 3}), zeros({4})); }},
      {"E-SHAPE-BROADCAST-TO", [] { zeros({2, 3}).broadcast_to({3}); }},
      {"E-SHAPE-STRIDES",
       [] {
         static double d[4];
         wrap(d, {2, 2}, DType::float64, {8});
       }},
      {"E-SHAPE-NEGATIVE-DIM", [] { empty({2, -3}); }},
      {"E-SHAPE-RESHAPE-SIZE", [] { zeros({2, 3}).reshape({4, 2}); }},
      {"E-SHAPE-RESHAPE-NEGATIVE", [] { zeros({6}).reshape({-2, 3}); }},
      {"E-SHAPE-RESHAPE-TWO-UNKNOWN", [] { zeros({6}).reshape({-1, -1}); }},
      {"E-SHAPE-FROM-VECTOR", [] { from_vector(std::vector<double>{1, 2, 3}, {2, 2}); }},
      {"E-SHAPE-GUFUNC-NDIM", [] { rt().gufunc("sum_row")(zeros({3})); }},
      {"E-SHAPE-GUFUNC-CORE-DIM", [] { rt().gufunc("dot")(zeros({3}), zeros({4})); }},
      {"E-SHAPE-OUT",
       [] { rt().ufunc("add")(zeros({3}), zeros({3}), {.out = {zeros({1})}}); }},
      {"E-SHAPE-REDUCE-OUT",
       [] { rt().reduce("sum")(zeros({2, 3}), {.axis = {0}, .out = zeros({2})}); }},
      {"E-SHAPE-COPY-TO", [] { rt().copy_to(fake_device({2, 3}), zeros({3})); }},
      {"E-SHAPE-ITER-INTERNAL", [] { internal("StridedIter::make is given operands the core broadcast itself"); }},
      // ValueError
      {"E-VALUE-NARGS", [] { rt().ufunc("add")(zeros({2})); }},
      {"E-VALUE-NOUT",
       [] { rt().ufunc("add")(zeros({2}), zeros({2}), {.out = {zeros({2}), zeros({2})}}); }},
      {"E-VALUE-SEVERAL-OUTPUTS", [] { rt().ufunc("divmod")(array({7.0}), array({2.0})); }},
      {"E-VALUE-WHERE-GUFUNC",
       [] {
         rt().gufunc("sum_row")(zeros({2, 3}), {.where = array<bool>({true, false})});
       }},
      {"E-VALUE-WHERE-DEVICE",
       [] {
         need_gpu();
         rt().ufunc("add")(zeros({2}), zeros({2}),
                           {.target = "cuda", .where = array<bool>({true, false})});
       }},
      {"E-VALUE-GUFUNC-OUT-DIM", [] { test_rt().gufunc("t_fill")(array({1.0})); }},
      {"E-VALUE-AXIS", [] { rt().reduce("sum")(zeros({2, 3}), {.axis = {2}}); }},
      {"E-VALUE-AXIS-TWICE", [] { rt().reduce("sum")(zeros({2, 3}), {.axis = {1, -1}}); }},
      {"E-VALUE-EMPTY-REDUCE", [] { rt().reduce("max")(zeros({0})); }},
      {"E-VALUE-EMPTY-ARRAY", [] { rt().ufunc("add")(Array(), zeros({2})); }},
      {"E-VALUE-SLICE-STEP", [] { zeros({4}).slice(0, 0, 4, 0); }},
      {"E-VALUE-INDEX", [] { zeros({2, 3}).index(1, 5); }},
      {"E-VALUE-TRANSPOSE-AXES",
       [] {
         const int axes[] = {0};
         zeros({2, 3}).transpose(axes);
       }},
      {"E-VALUE-TRANSPOSE-REPEAT",
       [] {
         const int axes[] = {1, 1};
         zeros({2, 3}).transpose(axes);
       }},
      {"E-VALUE-ARANGE-STEP", [] { arange(0.0, 1.0, 0.0); }},
      {"E-VALUE-LINSPACE-NUM", [] { linspace(0.0, 1.0, -1); }},
      {"E-VALUE-WRAP-STRIDES",
       [] {
         static double d[4];
         wrap(d, {4}, DType::float64, {-8});
       }},
      {"E-VALUE-ITEM-SIZE", [] { zeros({2}).item<double>(); }},
      {"E-VALUE-AT-NINDEX", [] { zeros({2, 3}).at<double>(1); }},
      {"E-VALUE-NUM-THREADS-ENV",
       [] {
         ::setenv("LOOM_NUM_THREADS", "many", 1);
         try {
           Runtime r(RuntimeOptions{.plugin_path = {kSerialDir}, .use_default_path = false});
         } catch (...) {
           ::unsetenv("LOOM_NUM_THREADS");
           throw;
         }
         ::unsetenv("LOOM_NUM_THREADS");
       }},
      {"E-VALUE-SET-NUM-THREADS", [] { test_rt().set_num_threads(0); }},
      {"E-VALUE-KERNEL-SIZE", [] { launch_add(rt(), {.size = -1, .target = "cpu"}); }},
      {"E-VALUE-ITER-LIMITS",
       [] { internal("more than 32 operands or 64 dimensions never reach the iterator"); }},
      // TargetError
      {"E-TARGET-UNKNOWN", [] { rt().ufunc("add")(zeros({2}), zeros({2}), {.target = "tpu"}); }},
      {"E-TARGET-UNAVAILABLE",
       [] {
         for (const char* t : {"cuda", "parallel"}) {
           if (unavailable_reason(t)) rt().ufunc("add")(zeros({2}), zeros({2}), {.target = t});
         }
         throw Skip{"every well-known target (cpu, parallel, cuda) is available here"};
       }},
      {"E-TARGET-BAD-INDEX", [] { rt().resolve_target("cpu:first"); }},
      {"E-TARGET-NO-SUCH-DEVICE", [] { rt().resolve_target("cpu:3"); }},
      {"E-TARGET-HOST-ONLY", [] { rt().to_device(zeros({2}), "cpu"); }},
      // LookupError
      {"E-LOOKUP-UFUNC", [] { rt().ufunc("sum"); }},
      {"E-LOOKUP-REDUCE", [] { rt().reduce("frobnicate"); }},
      {"E-LOOKUP-FAMILY",
       [] {
         // An op with only CUDA loops (a math plugin built without its host half) asked for on
         // a host target; here through the resolver, which every call goes through.
         OpDesc d;
         d.name = "cuda_only";
         d.nin = 1;
         d.nout = 1;
         d.plugins = "libcuda_only.so";
         Loop l;
         l.sig = Signature::parse("float64(float64)");
         d.loops.push_back(l);
         const DType in[] = {DType::float64};
         const bool weak[] = {false};
         resolve_loop(d, ResolveRequest{Family::host, in, weak, std::nullopt, "", Casting::same_kind});
       }},
      {"E-LOOKUP-KERNEL", [] { rt().kernel("frobnicate"); }},
      {"E-LOOKUP-KERNEL-FAMILY",
       [] {
         // A kernel with only a CUDA half (a stand-in built by the host compiler) on cpu.
         Runtime r;
         r.load_library(kCatDir + "/libloom_cat_kernel_cuda_only.so");
         r.kernel("cat_cuda_only").launch({.blocks = 1, .threads = 1, .target = "cpu"},
                                          zeros({1}, DType::float32));
       }},
      // PluginError
      {"E-PLUGIN-KERNEL-MALFORMED",
       [] {
         Registrar reg(Family::host);
         KernelDesc d;
         d.name = "no_overloads";
         reg.add_kernel(d);
       }},
      {"E-PLUGIN-KERNEL-DUPLICATE",
       [] {
         Runtime r;
         r.load_library(kCatDir + "/libloom_cat_kernel_duplicate.so");
       }},
      {"E-PLUGIN-KERNEL-SYNC-MISMATCH",
       [] {
         // Only the kernels plugin's host half, so that no real CUDA half is there first.
         Runtime r(RuntimeOptions{.plugin_path = {}, .use_default_path = false});
         r.load_library(LOOM_CAT_KERNELS_LIB);
         r.load_library(kCatDir + "/libloom_cat_kernel_sync_mismatch.so");
       }},
      {"E-PLUGIN-MALFORMED",
       [] {
         Registrar reg(Family::host);
         OpDesc d;
         d.name = "no_loops";
         d.nin = 1;
         d.nout = 1;
         reg.add(d);
       }},
      {"E-PLUGIN-KIND-MISMATCH",
       [] {
         Registry registry;
         Registrar a(Family::host), b(Family::host);
         def::ufunc<Neg, double(double)>(a, "op", "");
         def::gufunc<Dot2, double(double, double)>(b, "op", "(n),(n)->(n)", "");
         registry.merge(a, "liba.so");
         registry.merge(b, "libb.so");
       }},
      {"E-PLUGIN-DUPLICATE",
       [] {
         Runtime r = fresh_test_rt();
         r.load_library(kBrokenDir + "/libloom_test_duplicate.so");
       }},
      {"E-PLUGIN-LOAD", [] { test_rt().load_library(kBrokenDir + "/libloom_test_garbage.so"); }},
      {"E-PLUGIN-WORLD-WRITABLE",
       [] {
         // A copy of a valid plugin that every user may write: refused before it is opened.
         const std::string dir = ::testing::TempDir() + "loom_cat_writable";
         std::filesystem::create_directories(dir);
         const std::string lib = dir + "/libloom_cat_writable.so";
         std::filesystem::copy_file(LOOM_CAT_SERIAL_LIB, lib,
                                    std::filesystem::copy_options::overwrite_existing);
         std::filesystem::permissions(lib, std::filesystem::perms::others_write,
                                      std::filesystem::perm_options::add);
         test_rt().load_library(lib);
       }},
      {"E-PLUGIN-NO-FACTORY",
       [] { test_rt().load_library(kBrokenDir + "/libloom_test_no_factory.so"); }},
      {"E-PLUGIN-NULL-FACTORY",
       [] { test_rt().load_library(kCatDir + "/libloom_cat_null_factory.so"); }},
      {"E-PLUGIN-ABI", [] { test_rt().load_library(kBrokenDir + "/libloom_test_bad_abi.so"); }},
      {"E-PLUGIN-BACKEND-START",
       [] { test_rt().load_library(kCatDir + "/libloom_cat_backend_throws.so"); }},
      {"E-PLUGIN-TARGET-TAKEN", [] { test_rt().load_library(LOOM_CAT_SERIAL_LIB); }},
      {"E-PLUGIN-REGISTER-THROWS",
       [] { test_rt().load_library(kBrokenDir + "/libloom_test_throws.so"); }},
      {"E-PLUGIN-GUFUNC-ARITY",
       [] {
         Registrar reg(Family::host);
         def::gufunc<TwoArgs, double(double, double)>(reg, "t_two", "(n),(n)->()", "");
       }},
      {"E-PLUGIN-GUFUNC-RANKS",
       [] {
         Registrar reg(Family::host);
         def::gufunc<Dot2, double(double, double)>(reg, "t_bad_dot", "(n),(n)->()", "");
       }},
      // LaunchError
      {"E-LAUNCH-BLOCKS", [] { launch_add(rt(), {.blocks = 0, .threads = 8, .target = "cpu"}); }},
      {"E-LAUNCH-THREADS",
       [] { launch_add(rt(), {.blocks = 1, .threads = 2048, .target = "cpu"}); }},
      {"E-LAUNCH-SHARED",
       [] {
         launch_add(rt(), {.blocks = 1, .threads = 8, .shared_bytes = 227 * 1024 + 1,
                           .target = "cpu"});
       }},
      {"E-LAUNCH-SHARED-ARRAY",
       [] {
         Array hist = zeros({10}, DType::int32);
         rt().kernel("histogram_shared")
             .launch({.blocks = 1, .threads = 8, .shared_bytes = 39, .target = "cpu"},
                     zeros({8}, DType::float32), -4.0f, 4.0f, hist);
       }},
      {"E-LAUNCH-BACKEND",
       [] {
         Runtime r;
         r.load_library(kCatDir + "/libloom_cat_backend_no_kernels.so");
         launch_add(r, {.blocks = 1, .threads = 8, .target = "nokernels"});
       }},
      {"E-LAUNCH-CUDA-SHARED",
       [] {
         need_gpu();
         launch_add(rt(), {.blocks = 1, .threads = 8, .shared_bytes = 1 << 20, .target = "cuda"});
       }},
      {"E-LAUNCH-CUDA-THREADS",
       [] {
         need_gpu();
         throw Skip{"no kernel of this build uses enough registers to run fewer than 1024 threads"};
       }},
      {"E-LAUNCH-CUDA-SIZE",
       [] {
         need_gpu();
         launch_add(rt(), {.threads = 1, .size = std::int64_t{1} << 31, .target = "cuda"});
       }},
      {"E-LAUNCH-CUDA-NO-FIT",
       [] {
         need_gpu();
         throw Skip{"no configuration the host checks allow leaves a multiprocessor no block"};
       }},
      {"E-LAUNCH-CUDA-ARGS",
       [] { internal("the core picks an overload with as many parameters as arguments first"); }},
      // KernelError
      {"E-KERNEL-SYNC-UNDECLARED",
       [] {
         kernel_rt().kernel("cat_sync_undeclared")
             .launch({.blocks = 1, .threads = 4, .target = "cpu"}, zeros({1}, DType::float32));
       }},
      {"E-KERNEL-BARRIER",
       [] {
         kernel_rt().kernel("cat_barrier_divergent")
             .launch({.blocks = 2, .threads = 4, .target = "cpu"}, zeros({1}, DType::float32));
       }},
      {"E-KERNEL-STACK",
       [] { internal("mapping a 64 KiB fiber stack fails only when address space runs out"); }},
      // IndexError
      {"E-INDEX-VIEW",
       [] {
         Array out = zeros({10}, DType::float32);
         kernel_rt().kernel("cat_read_past_end")
             .launch({.blocks = 1, .threads = 16, .target = "cpu"}, zeros({10}, DType::float32),
                     out);
       }},
      // DeviceError (host side: fake device arrays are enough)
      {"E-DEVICE-HOST-ALLOC", [] { empty({std::int64_t{1} << 58}, DType::uint8); }},
      {"E-DEVICE-NEEDS-HOST", [] { fake_device({2}).to_vector<double>(); }},
      {"E-DEVICE-WRONG-TARGET",
       [] { rt().ufunc("add")(fake_device({2}), zeros({2}), {.target = "cpu"}); }},
      {"E-DEVICE-COPY-CAST", [] { copy_cast(fake_device({2}), zeros({2})); }},
      {"E-DEVICE-BACKEND-OF-HOST", [] { rt().backend_of(zeros({2})); }},
      {"E-DEVICE-COPY-BETWEEN", [] { rt().copy_to(fake_device({2}, 0), fake_device({2}, 1)); }},
      {"E-DEVICE-OTHER-DEVICE",
       [] {
         need_gpu();
         rt().to_device(fake_device({2}, 1), "cuda:0");
       }},
      {"E-DEVICE-NO-DEVICE-MEMORY", [] { rt().resolve_target("cpu").first->allocate(8, 0, nullptr); }},
      {"E-DEVICE-STREAM-RECORD", [] { Stream().record(); }},
      {"E-DEVICE-STREAM-WAIT", [] { Stream().wait(Event()); }},
      {"E-DEVICE-ELAPSED", [] { Event().elapsed_ms(Event()); }},
      // DeviceError from the CUDA backend
      {"E-CUDA-OOM",
       [] {
         need_gpu();
         rt().empty({std::int64_t{1} << 47}, DType::uint8, "cuda");
       }},
      {"E-CUDA-PINNED-OOM",
       [] {
         need_gpu();
         rt().pinned_empty({std::int64_t{1} << 47}, DType::uint8, "cuda");
       }},
      {"E-CUDA-API",
       [] {
         need_gpu();
         internal("a failing CUDA runtime call (a broken driver, a kernel fault) has no safe trigger");
       }},
      {"E-CUDA-UNAVAILABLE",
       [] { internal("Runtime::resolve_target refuses an unavailable cuda target first (E-TARGET-UNAVAILABLE)"); }},
      {"E-CUDA-NO-SUCH-DEVICE",
       [] { internal("Runtime::resolve_target checks the device index first (E-TARGET-NO-SUCH-DEVICE)"); }},
      {"E-CUDA-NOLOOP",
       [] { internal("type resolution only picks loops that have a CUDA half (E-TYPE-NOLOOP)"); }},
      {"E-CUDA-HOST-STRIDE",
       [] { internal("the core makes host operands C-contiguous before a host-mode device call"); }},
      {"E-CUDA-KERNEL-NOLOOP",
       [] { internal("Kernel::launch only picks overloads with a CUDA half (E-LOOKUP-KERNEL-FAMILY)"); }},
      {"E-CUDA-KERNEL-DEVICE",
       [] { internal("the core passes a resolved target's device index, never a negative one"); }},
      {"E-CUDA-LOOP-SHAPE",
       [] { internal("the core never calls a CUDA loop with another arity or more than kMaxDims dims"); }},
  };
  return t;
}

// ---------------------------------------------------------------------------------------------

std::string class_of(const Error& e) {
  if (dynamic_cast<const ParseError*>(&e)) return "ParseError";
  if (dynamic_cast<const TypeError*>(&e)) return "TypeError";
  if (dynamic_cast<const ShapeError*>(&e)) return "ShapeError";
  if (dynamic_cast<const ValueError*>(&e)) return "ValueError";
  if (dynamic_cast<const TargetError*>(&e)) return "TargetError";
  if (dynamic_cast<const LookupError*>(&e)) return "LookupError";
  if (dynamic_cast<const PluginError*>(&e)) return "PluginError";
  if (dynamic_cast<const DeviceError*>(&e)) return "DeviceError";
  if (dynamic_cast<const LaunchError*>(&e)) return "LaunchError";
  if (dynamic_cast<const KernelError*>(&e)) return "KernelError";
  if (dynamic_cast<const IndexError*>(&e)) return "IndexError";
  return "Error";
}

int g_tested = 0, g_skipped = 0;

class CatalogueReport : public ::testing::Environment {
 public:
  void SetUp() override {
    if (!std::getenv("LOOM_CATALOGUE_DUMP")) return;
    for (const auto& [id, trig] : triggers()) {
      try {
        trig();
        std::cout << id << "\t-\t(no error)\n";
      } catch (const Skip& s) {
        std::cout << id << "\tSKIP\t" << s.reason << "\n";
      } catch (const Error& e) {
        std::cout << id << "\t" << class_of(e) << "\t" << e.what() << "\n";
      }
    }
  }
  void TearDown() override {
    std::cout << "[ catalogue ] " << catalogue().size() << " entries in " << LOOM_ERRORS_MD
              << ": " << g_tested << " tested, " << g_skipped << " skipped (this run)\n";
  }
};
const auto* const kReport = ::testing::AddGlobalTestEnvironment(new CatalogueReport);

class Catalogue : public ::testing::TestWithParam<Entry> {};

TEST_P(Catalogue, TriggerRaisesTheDocumentedError) {
  const Entry& e = GetParam();
  const auto it = triggers().find(e.id);
  ASSERT_NE(it, triggers().end()) << e.id << " has no trigger in " << __FILE__;
  const std::string cls = e.get("class"), match = e.get("match");
  ASSERT_FALSE(cls.empty()) << e.id << ": no class field";
  ASSERT_FALSE(match.empty()) << e.id << ": no match field";
  const std::regex re(match, std::regex::ECMAScript);
  EXPECT_TRUE(std::regex_search(e.get("example"), re))
      << e.id << ": the documented example does not match its own regex\n  example: "
      << e.get("example") << "\n  match: " << match;
  try {
    it->second();
    ADD_FAILURE() << e.id << ": the trigger raised nothing";
  } catch (const Skip& s) {
    ++g_skipped;
    GTEST_SKIP() << s.reason;
  } catch (const Error& err) {
    ++g_tested;
    EXPECT_EQ(class_of(err), cls) << e.id << ": " << err.what();
    EXPECT_TRUE(std::regex_search(std::string(err.what()), re))
        << e.id << ": message does not match\n  message: " << err.what() << "\n  match:   "
        << match;
  } catch (const std::exception& x) {
    ++g_tested;
    ADD_FAILURE() << e.id << ": not a loom::Error: " << x.what();
  }
}

INSTANTIATE_TEST_SUITE_P(Errors, Catalogue, ::testing::ValuesIn(catalogue()),
                         [](const auto& info) {
                           std::string n = info.param.id;
                           for (char& c : n) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return n;
                         });

TEST(CatalogueDocument, EntriesAreWellFormedAndUnique) {
  ASSERT_FALSE(catalogue().empty()) << "no entries parsed from " << LOOM_ERRORS_MD;
  const std::set<std::string> classes = {"ParseError",  "TypeError",   "ShapeError",
                                         "ValueError",  "TargetError", "LookupError",
                                         "PluginError", "DeviceError", "LaunchError",
                                         "KernelError", "IndexError"};
  const std::set<std::string> needs = {"none", "gpu", "internal"};
  std::set<std::string> seen;
  for (const auto& e : catalogue()) {
    EXPECT_TRUE(seen.insert(e.id).second) << "duplicate id " << e.id;
    EXPECT_TRUE(classes.count(e.get("class"))) << e.id << ": class '" << e.get("class") << "'";
    EXPECT_TRUE(needs.count(e.get("needs"))) << e.id << ": needs '" << e.get("needs") << "'";
    for (const char* k : {"thrown at", "trigger", "example", "match"}) {
      EXPECT_FALSE(e.get(k).empty()) << e.id << ": no '" << k << "' field";
    }
  }
}

TEST(CatalogueDocument, EveryTriggerHasAnEntry) {
  std::set<std::string> ids;
  for (const auto& e : catalogue()) ids.insert(e.id);
  for (const auto& [id, t] : triggers()) {
    EXPECT_TRUE(ids.count(id)) << "trigger " << id << " has no entry in " << LOOM_ERRORS_MD;
  }
}

TEST(CatalogueDocument, EveryEntryHasATrigger) {
  for (const auto& e : catalogue()) {
    EXPECT_TRUE(triggers().count(e.id)) << e.id << " has no trigger in " << __FILE__;
  }
}

}  // namespace
}  // namespace loom
