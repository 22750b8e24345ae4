// The catalogue's triggers (docs/errors.md): for every entry id, a call through the public API
// that raises the documented error, or throws Skip with the reason it cannot run here.
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

#include "catalogue.hpp"
#include "loom/def/gufunc.hpp"
#include "loom/def/ufunc.hpp"
#include "loom/error.hpp"
#include "loom/layout.hpp"
#include "loom/plugin.hpp"
#include "loom/runtime.hpp"
#include "loom/signature.hpp"
#include "loom/strided.hpp"
#include "loom/type_resolution.hpp"
#include "trigger_helpers.hpp"

namespace loom {

using namespace catalogue;  // NOLINT: the helpers of this file

// The triggers, one per catalogue id.

namespace {
std::map<std::string, Trigger>& registry() {
  static std::map<std::string, Trigger> r;
  return r;
}
}  // namespace

TriggerSet::TriggerSet(std::initializer_list<std::pair<const std::string, Trigger>> entries) {
  for (const auto& e : entries) {
    if (!registry().insert(e).second) {
      std::cerr << "catalogue: two triggers for " << e.first << "\n";
      std::abort();
    }
  }
}

const std::map<std::string, Trigger>& triggers() { return registry(); }

namespace {
const TriggerSet general = {
    // ParseError
    {"E-PARSE-DTYPE", [] { dtype_from_name("float128"); }},
    {"E-PARSE-CASTING", [] { casting_from_name("sometimes"); }},
    {"E-PARSE-SIGNATURE",
     [] { rt().ufunc("add")(array({1.0}), array({2.0}), {.signature = "float64(float64"}); }},
    {"E-PARSE-SIGNATURE-DTYPE", [] { Signature::parse("float64(float64,real)"); }},
    {"E-PARSE-LAYOUT", [] { Layout::parse("(n),(n)->"); }},
    {"E-PARSE-LAYOUT-FLEXIBLE", [] { Layout::parse("(n?),(n)->()"); }},
    {"E-PARSE-LAYOUT-FIXED-SIZE", [] { Layout::parse("(0)->()"); }},
    {"E-PARSE-LAYOUT-MIN-RULE", [] { Layout::parse("(m,n)->(k=min(m,p))"); }},
    // TypeError
    {"E-TYPE-NOLOOP",
     [] { rt().ufunc("fmod")(zeros({2}, DType::complex128), zeros({2}, DType::complex128)); }},
    {"E-TYPE-OUT-CAST",
     [] {
       Array out = zeros({2}, DType::int32);
       rt().ufunc("add")(array({1.5, 2.5}), array({1.0, 2.0}), {.out = {out}});
     }},
    {"E-TYPE-WHERE-NOT-BOOL",
     [] {
       rt().ufunc("add")(array({1.0, 5.0}), 10.0, {.where = array({1.0, 0.0})});
     }},
    {"E-TYPE-REDUCE-DTYPE-NOLOOP",
     [] {
       rt().ufunc("divide").reduce(array({4.0, 2.0}), {.dtype = DType::int16});
     }},
    {"E-TYPE-REDUCE-OUT-NARROWER",
     [] {
       rt().ufunc("minimum").reduce(array<std::int16_t>({-3, 5}), {.out = zeros({}, DType::uint8)});
     }},
    {"E-TYPE-REDUCE-LOOP-NOT-BINARY",
     [] { mixed_rt().ufunc("cat_ratio").reduce(zeros({3}, DType::int32)); }},
    {"E-TYPE-REDUCEAT-INDICES",
     [] {
       rt().ufunc("add").reduceat(arange(0.0, 8.0), array({0.0, 2.0}));
     }},
    {"E-TYPE-UFUNC-AT-INDICES", [] { rt().ufunc("add").at(zeros({4}), array({1.0}), 1.0); }},
    {"E-TYPE-AT-DTYPE",
     [] {
       array({1.0, 2.0}).at<float>(0);
     }},
    {"E-TYPE-KERNEL-ARGS",
     [] {
       const Array a = zeros({4}, DType::int16);
       rt().kernel("add_kernel").launch({.blocks = 1, .threads = 4, .target = "cpu"}, a, a, a);
     }},
    {"E-TYPE-KERNEL-SCALAR",
     [] {
       internal("kernel scalar parameters and arguments are always bool, integers or floats");
     }},
    // ShapeError
    {"E-SHAPE-BROADCAST",
     [] {
       rt().ufunc("add")(zeros({2, 3}), zeros({4}));
     }},
    {"E-SHAPE-BROADCAST-TO",
     [] {
       zeros({2, 3}).broadcast_to({3});
     }},
    {"E-SHAPE-STRIDES",
     [] {
       static double d[4];
       wrap(d, {2, 2}, DType::float64, {8});
     }},
    {"E-SHAPE-NEGATIVE-DIM",
     [] {
       empty({2, -3});
     }},
    {"E-SHAPE-RESHAPE-SIZE",
     [] {
       zeros({2, 3}).reshape({4, 2});
     }},
    {"E-SHAPE-RESHAPE-NEGATIVE",
     [] {
       zeros({6}).reshape({-2, 3});
     }},
    {"E-SHAPE-RESHAPE-TWO-UNKNOWN",
     [] {
       zeros({6}).reshape({-1, -1});
     }},
    {"E-SHAPE-FROM-VECTOR",
     [] {
       from_vector(std::vector<double>{1, 2, 3}, {2, 2});
     }},
    {"E-SHAPE-GUFUNC-NDIM", [] { rt().gufunc("sum_row")(zeros({3})); }},
    {"E-SHAPE-GUFUNC-CORE-DIM", [] { rt().gufunc("dot")(zeros({3}), zeros({4})); }},
    {"E-SHAPE-GUFUNC-MIN-DIM",
     [] {
       rt().gufunc("svdvals")(zeros({3, 2}), {.out = {zeros({3})}});
     }},
    {"E-SHAPE-OUT", [] { rt().ufunc("add")(zeros({3}), zeros({3}), {.out = {zeros({1})}}); }},
    {"E-SHAPE-REDUCE-OUT",
     [] {
       rt().reduce("sum")(zeros({2, 3}), {.axis = {0}, .out = zeros({2})});
     }},
    {"E-SHAPE-REDUCE-WHERE",
     [] {
       rt().reduce("sum")(zeros({2, 3}), {.where = full({4}, true)});
     }},
    {"E-SHAPE-METHOD-OUT", [] { rt().ufunc("add").accumulate(zeros({3}), {.out = zeros({2})}); }},
    {"E-SHAPE-UFUNC-AT-B",
     [] {
       rt().ufunc("add").at(zeros({4}), array<std::int64_t>({0, 1}), array({1.0, 2.0, 3.0}));
     }},
    {"E-SHAPE-COPY-TO",
     [] {
       rt().copy_to(fake_device({2, 3}), zeros({3}));
     }},
    {"E-SHAPE-ITER-INTERNAL",
     [] { internal("StridedIter::make is given operands the core broadcast itself"); }},
    // ValueError
    {"E-VALUE-NARGS", [] { rt().ufunc("add")(zeros({2})); }},
    {"E-VALUE-NOUT",
     [] {
       rt().ufunc("add")(zeros({2}), zeros({2}), {.out = {zeros({2}), zeros({2})}});
     }},
    {"E-VALUE-SEVERAL-OUTPUTS", [] { rt().ufunc("divmod")(array({7.0}), array({2.0})); }},
    {"E-VALUE-WHERE-GUFUNC",
     [] {
       rt().gufunc("sum_row")(zeros({2, 3}), {.where = array<bool>({true, false})});
     }},
    {"E-VALUE-GUFUNC-OUT-DIM", [] { test_rt().gufunc("t_fill")(array({1.0})); }},
    {"E-VALUE-AXIS",
     [] {
       rt().reduce("sum")(zeros({2, 3}), {.axis = {2}});
     }},
    {"E-VALUE-AXIS-TWICE",
     [] {
       rt().reduce("sum")(zeros({2, 3}), {.axis = {1, -1}});
     }},
    {"E-VALUE-NOT-BINARY", [] { rt().ufunc("sqrt").reduce(zeros({3})); }},
    {"E-VALUE-NOT-REORDERABLE",
     [] {
       rt().ufunc("subtract").reduce(zeros({2, 3}), {.axis = {0, 1}});
     }},
    {"E-VALUE-REDUCE-WHERE-NO-INITIAL",
     [] {
       rt().ufunc("maximum").reduce(array({1.0, 5.0, 3.0}),
                                    {.where = array<bool>({true, false, true})});
     }},
    {"E-VALUE-INITIAL-RANGE",
     [] { rt().reduce("max")(zeros({0}, DType::int32), {.initial = 1e30}); }},
    {"E-VALUE-METHOD-AXIS", [] { rt().ufunc("add").accumulate(zeros({3}), {.axis = 1}); }},
    {"E-VALUE-ACCUMULATE-0D", [] { rt().ufunc("add").accumulate(zeros({})); }},
    {"E-VALUE-REDUCEAT-0D",
     [] { rt().ufunc("add").reduceat(zeros({}), array<std::int64_t>({0})); }},
    {"E-VALUE-REDUCEAT-INDICES-NDIM",
     [] {
       rt().ufunc("add").reduceat(zeros({8}), from_vector(std::vector<std::int64_t>{0, 1}, {1, 2}));
     }},
    {"E-VALUE-UFUNC-AT-0D", [] { rt().ufunc("add").at(zeros({}), array<std::int64_t>({0}), 1.0); }},
    {"E-VALUE-UFUNC-AT-INDICES-NDIM",
     [] {
       rt().ufunc("add").at(zeros({4}), from_vector(std::vector<std::int64_t>{0, 1}, {1, 2}), 1.0);
     }},
    {"E-VALUE-EMPTY-REDUCE", [] { rt().reduce("max")(zeros({0})); }},
    {"E-VALUE-EMPTY-ARRAY", [] { rt().ufunc("add")(Array(), zeros({2})); }},
    {"E-VALUE-SLICE-STEP", [] { zeros({4}).slice(0, 0, 4, 0); }},
    {"E-VALUE-INDEX",
     [] {
       zeros({2, 3}).index(1, 5);
     }},
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
    // E-VALUE-WRAP-STRIDES: triggers_shapes.cpp (negative strides are valid since issue 12).
    {"E-VALUE-ITEM-SIZE", [] { zeros({2}).item<double>(); }},
    {"E-VALUE-AT-NINDEX",
     [] {
       zeros({2, 3}).at<double>(1);
     }},
    // E-VALUE-NUM-THREADS-*: triggers_runtime.cpp (one check for every source since issue 12).
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
    {"E-TARGET-HOST-ONLY", [] { rt().pinned_empty({2}, DType::float64, "cpu"); }},
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
       resolve_loop(d,
                    ResolveRequest{Family::host, in, weak, std::nullopt, "", Casting::same_kind});
     }},
    {"E-LOOKUP-KERNEL", [] { rt().kernel("frobnicate"); }},
    {"E-LOOKUP-DEVICE-SCAN",
     [] {
       // Backend::run_scan's default on a device backend, given a CUDA loop filled by hand
       // without device_scan (def::ufunc's CUDA half always sets it).
       DeviceDefaults b;
       const LoopImpl loop;
       double x[2] = {1, 2}, out[2];
       ScanCall c{};
       c.out = reinterpret_cast<char*>(out);
       c.x = reinterpret_cast<const char*>(x);
       c.n = 2;
       c.out_step = c.x_step = sizeof(double);
       c.loop = &loop;
       c.dtype = DType::float64;
       b.run_scan(c, 0);
     }},
    {"E-LOOKUP-DEVICE-AT",
     [] {
       // Backend::run_at's default on a device backend, given a CUDA loop without device_at.
       DeviceDefaults b;
       const LoopImpl loop;
       double a[2] = {0, 0}, v = 1;
       const std::int64_t idx[1] = {0};
       AtCall c{};
       c.a = reinterpret_cast<char*>(a);
       c.a_step = sizeof(double);
       c.idx = idx;
       c.m = 1;
       c.b = reinterpret_cast<const char*>(&v);
       c.loop = &loop;
       c.dtype = DType::float64;
       b.run_at(c, 0);
     }},
    {"E-LOOKUP-KERNEL-FAMILY",
     [] {
       // A kernel with only a CUDA half (a stand-in built by the host compiler) on cpu.
       Runtime r;
       r.load_library(kCatDir + "/libloom_cat_kernel_cuda_only.so");
       r.kernel("cat_cuda_only")
           .launch({.blocks = 1, .threads = 1, .target = "cpu"}, zeros({1}, DType::float32));
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
    {"E-PLUGIN-TRAITS-MISMATCH",
     [] {
       // Two builds of one op (another loop each) that reduce differently.
       Registry registry;
       Registrar a(Family::host), b(Family::host);
       def::ufunc<Plus, double(double, double)>(a, "op", "", def::identity(0));
       def::ufunc<Plus, float(float, float)>(b, "op", "", def::reorderable);
       registry.merge(a, "liba.so");
       registry.merge(b, "libb.so");
     }},
    {"E-PLUGIN-DUPLICATE",
     [] {
       Runtime r = fresh_test_rt();
       r.load_library(kBrokenDir + "/libloom_test_duplicate.so");
     }},
    // E-PLUGIN-LOAD: triggers_plugins.cpp (a missing dependency; garbage is refused before dlopen).
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
       // The signature has TwoArgs' two operands (a three-operand one is refused at compile
       // time, def/checks.hpp); the layout has three.
       def::gufunc<TwoArgs, double(double)>(reg, "t_two", "(n),(n)->()", "");
     }},
    {"E-PLUGIN-GUFUNC-RANKS",
     [] {
       Registrar reg(Family::host);
       def::gufunc<Dot2, double(double, double)>(reg, "t_bad_dot", "(n),(n)->()", "");
     }},
    // LaunchError
    {"E-LAUNCH-BLOCKS", [] { launch_add(rt(), {.blocks = 0, .threads = 8, .target = "cpu"}); }},
    {"E-LAUNCH-THREADS", [] { launch_add(rt(), {.blocks = 1, .threads = 2048, .target = "cpu"}); }},
    {"E-LAUNCH-SIZE",
     [] {
       launch_add(rt(), {.size = {1, 70'000'000}, .target = "cpu"});
     }},
    {"E-LAUNCH-SHARED",
     [] {
       launch_add(rt(),
                  {.blocks = 1, .threads = 8, .shared_bytes = 227 * 1024 + 1, .target = "cpu"});
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
       kernel_rt()
           .kernel("cat_sync_undeclared")
           .launch({.blocks = 1, .threads = 4, .target = "cpu"}, zeros({1}, DType::float32));
     }},
    {"E-KERNEL-BARRIER",
     [] {
       kernel_rt()
           .kernel("cat_barrier_divergent")
           .launch({.blocks = 2, .threads = 4, .target = "cpu"}, zeros({1}, DType::float32));
     }},
    {"E-KERNEL-WARP-UNDECLARED",
     [] {
       kernel_rt()
           .kernel("cat_warp_undeclared")
           .launch({.blocks = 1, .threads = 32, .target = "cpu"}, zeros({1}, DType::float32));
     }},
    {"E-KERNEL-WARP-STUCK",
     [] {
       kernel_rt()
           .kernel("cat_warp_misuse")
           .launch({.blocks = 1, .threads = 32, .target = "cpu"}, zeros({1}, DType::float32), 0);
     }},
    {"E-KERNEL-WARP-ARGS",
     [] {
       kernel_rt()
           .kernel("cat_warp_misuse")
           .launch({.blocks = 1, .threads = 32, .target = "cpu"}, zeros({1}, DType::float32), 1);
     }},
    {"E-KERNEL-WARP-MISMATCH",
     [] {
       kernel_rt()
           .kernel("cat_warp_misuse")
           .launch({.blocks = 1, .threads = 32, .target = "cpu"}, zeros({1}, DType::float32), 2);
     }},
    {"E-KERNEL-STACK",
     [] { internal("mapping a 64 KiB fiber stack fails only when address space runs out"); }},
    {"E-KERNEL-SHARED-RACE-CHECKED",
     [] {
       Array out = zeros({1}, DType::float32);
       kernel_rt()
           .kernel("cat_tree_sum_racy")
           .launch(
               {.blocks = 1, .threads = 8, .shared_bytes = 32, .checked = true, .target = "cpu"},
               arange(0.0, 8.0).astype(DType::float32), out);
     }},
    {"E-KERNEL-SHARED-UNINIT-CHECKED",
     [] {
       Array out = zeros({4}, DType::float32);
       kernel_rt()
           .kernel("cat_shared_uninit")
           .launch(
               {.blocks = 1, .threads = 4, .shared_bytes = 16, .checked = true, .target = "cpu"},
               out);
     }},
    // IndexError
    {"E-INDEX-REDUCEAT",
     [] {
       rt().ufunc("add").reduceat(arange(0.0, 8.0), array<std::int64_t>({0, 8}));
     }},
    {"E-INDEX-UFUNC-AT", [] { rt().ufunc("add").at(zeros({4}), array<std::int64_t>({7}), 1.0); }},
    {"E-INDEX-VIEW",
     [] {
       Array out = zeros({10}, DType::float32);
       kernel_rt()
           .kernel("cat_read_past_end")
           .launch({.blocks = 1, .threads = 16, .target = "cpu"}, zeros({10}, DType::float32), out);
     }},
    {"E-INDEX-VIEW-CHECKED",
     [] {
       Array out = zeros({10}, DType::float32);
       kernel_rt()
           .kernel("cat_read_past_end")
           .launch({.blocks = 1, .threads = 16, .checked = true, .target = "cpu"},
                   zeros({10}, DType::float32), out);
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
    {"E-DEVICE-NO-DEVICE-MEMORY",
     [] { rt().resolve_target("cpu").first->allocate(8, 0, nullptr); }},
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
       internal(
           "a failing CUDA runtime call (a broken driver, a kernel fault) has no safe trigger");
     }},
    {"E-CUDA-UNAVAILABLE",
     [] {
       internal(
           "Runtime::resolve_target refuses an unavailable cuda target first "
           "(E-TARGET-UNAVAILABLE)");
     }},
    {"E-CUDA-NO-SUCH-DEVICE",
     [] {
       internal("Runtime::resolve_target checks the device index first (E-TARGET-NO-SUCH-DEVICE)");
     }},
    {"E-CUDA-NOLOOP",
     [] { internal("type resolution only picks loops that have a CUDA half (E-TYPE-NOLOOP)"); }},
    {"E-CUDA-HOST-STRIDE",
     [] { internal("the core makes host operands C-contiguous before a host-mode device call"); }},
    {"E-CUDA-KERNEL-NOLOOP",
     [] {
       internal("Kernel::launch only picks overloads with a CUDA half (E-LOOKUP-KERNEL-FAMILY)");
     }},
    {"E-CUDA-KERNEL-DEVICE",
     [] { internal("the core passes a resolved target's device index, never a negative one"); }},
    {"E-CUDA-LOOP-SHAPE",
     [] {
       internal("the core never calls a CUDA loop with another arity or more than kMaxDims dims");
     }},
};
}  // namespace

}  // namespace loom
