// Kernels in the registry: the seed kernels with Numba-style signatures, merged from both halves
// of a plugin; malformed kernels and kernels registered twice are refused with the plugin whole.
#include <algorithm>

#include "helpers.hpp"
#include "loom/def/kernel.hpp"

namespace loom_kernel_test {
namespace {

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

TEST(KernelRegistry, SeedKernelsAreListedWithNumbaStyleSignatures) {
  std::vector<std::string> names;
  for (const auto& k : runtime().registry().list_kernels()) names.push_back(k->name);
  for (const char* k :
       {"add_kernel", "add_stride", "hypot_stride", "square_kernel", "thread_counter_race",
        "thread_counter_safe", "histogram", "histogram_shared", "maximum_3d", "block_sum"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), k), names.end()) << k;
  }
  const auto h = runtime().registry().find_kernel("histogram");
  ASSERT_TRUE(h);
  EXPECT_EQ(h->signatures(),
            "\n  histogram(const float32[:], float32, float32, int32[:])"
            "\n  histogram(const float64[:], float64, float64, int32[:])");
  EXPECT_TRUE(contains(h->plugins, "libloom_kernels.so")) << h->plugins;
  EXPECT_EQ(runtime().registry().find_kernel("maximum_3d")->overloads[0].signature(),
            "(const float32[:, :, :], const float32[:, :, :], float32[:, :, :])");
}

TEST(KernelRegistry, EachKernelTakesTheHostPathDocumentedForIt) {
  // docs/kernels.md, "Host paths": a block kernel (BlockCtx) runs as block phases, a ThreadCtx
  // kernel with syncthreads as fibers, any other as a thread loop.
  const std::pair<const char*, loom::HostPath> expect[] = {
      {"block_sum", loom::HostPath::block_phases},
      {"histogram_shared", loom::HostPath::block_phases},
      {"block_sum_sync", loom::HostPath::fibers},
      {"histogram", loom::HostPath::thread_loop},
      {"hypot_stride", loom::HostPath::thread_loop},
      {"jacobi_2d", loom::HostPath::thread_loop},
      {"t_warp_sum", loom::HostPath::fibers},  // warp functions: uses_syncthreads
      {"t_warp_shuffle", loom::HostPath::fibers}};
  for (const auto& [k, path] : expect) {
    const auto d = runtime().registry().find_kernel(k);
    ASSERT_TRUE(d) << k;
    for (const auto& o : d->overloads) {
      EXPECT_EQ(loom::name(o.host_path), std::string(loom::name(path))) << k << o.signature();
      EXPECT_EQ(o.uses_syncthreads, path == loom::HostPath::fibers) << k << o.signature();
    }
  }
}

TEST(KernelRegistry, EveryOverloadHasAHostHalf) {
  for (const auto& k : runtime().registry().list_kernels()) {
    if (k->name == "t_cuda_only") continue;
    EXPECT_TRUE(k->has_family(loom::Family::host)) << k->name;
  }
}

TEST(KernelRegistry, APluginRegisteringAKernelNameTwiceIsRefusedWhole) {
  loom::Runtime r(options());
  try {
    r.load_library(kExtraPlugins + "/libloom_ktest_broken_twice.so");
    FAIL() << "no error";
  } catch (const loom::PluginError& e) {
    const std::string m = e.what();
    EXPECT_TRUE(contains(m,
                         "libloom_ktest_broken_twice.so failed while registering its ops: "
                         "kernel 't_broken_twice' is malformed: registered twice by the same "
                         "plugin"))
        << m;
  }
  EXPECT_FALSE(r.registry().find_kernel("t_broken_first")) << "the plugin was not refused whole";
  EXPECT_FALSE(r.registry().find_kernel("t_broken_twice"));
}

TEST(KernelRegistry, APluginRegisteringASeedKernelAgainIsRefusedWhole) {
  loom::Runtime r(options());
  const auto before = r.registry().find_kernel("add_kernel");
  try {
    r.load_library(kExtraPlugins + "/libloom_ktest_duplicate_seed.so");
    FAIL() << "no error";
  } catch (const loom::PluginError& e) {
    const std::string m = e.what();
    EXPECT_TRUE(contains(m,
                         "registers kernel 'add_kernel' (const int32[:], const int32[:], "
                         "int32[:]) for family host, already registered by libloom_kernels.so"))
        << m;
  }
  EXPECT_FALSE(r.registry().find_kernel("t_duplicate_new")) << "the plugin was not refused whole";
  EXPECT_EQ(r.registry().find_kernel("add_kernel"), before) << "add_kernel changed";
}

TEST(KernelRegistry, AKernelWithOnlyACudaHalfIsListedWithoutAHostHalf) {
  loom::Runtime r(options());
  r.load_library(kExtraPlugins + "/libloom_ktest_fake_cuda_only.so");
  const auto k = r.registry().find_kernel("t_cuda_only");
  ASSERT_TRUE(k);
  EXPECT_TRUE(k->has_family(loom::Family::cuda));
  EXPECT_FALSE(k->has_family(loom::Family::host));
}

// Registrar::add_kernel, what a plugin's register function calls, refuses malformed descriptors.
struct Ones {
  void operator()(const loom::ThreadCtx&, loom::View<std::int32_t>) const {}
};

std::string add_kernel_error(loom::KernelDesc d, loom::Family f = loom::Family::host) {
  loom::Registrar reg(f);
  try {
    reg.add_kernel(std::move(d));
  } catch (const loom::PluginError& e) {
    return e.what();
  }
  return "no error";
}

void ones_loop(const loom::KernelCall&, std::int64_t, std::int64_t, const void*) {}

// A well-formed descriptor with a host loop, to break one way per test.
loom::KernelDesc ones(std::string name) {
  return loom::def::kernel_desc<Ones>(std::move(name), "", [](loom::KernelImpl* impl, auto) {
    impl[static_cast<int>(loom::Family::host)].host = &ones_loop;
  });
}

TEST(KernelRegistrar, RefusesAKernelWithoutAName) {
  EXPECT_EQ(add_kernel_error(ones("")), "kernel '' is malformed: empty name");
}

TEST(KernelRegistrar, RefusesAKernelWithoutOverloads) {
  loom::KernelDesc d = ones("t_none");
  d.overloads.clear();
  EXPECT_EQ(add_kernel_error(d), "kernel 't_none' is malformed: no overloads");
}

TEST(KernelRegistrar, RefusesAViewParameterOfMoreThanThreeDimensions) {
  loom::KernelDesc d = ones("t_4d");
  d.overloads[0].params[0].ndim = 4;
  EXPECT_EQ(add_kernel_error(d),
            "kernel 't_4d' is malformed: parameter int32[:, :, :, :] has 4 dimensions; views "
            "have 1 to 3");
}

TEST(KernelRegistrar, RefusesAnOverloadWithoutThisFamilysLoop) {
  EXPECT_EQ(add_kernel_error(ones("t_host"), loom::Family::cuda),
            "kernel 't_host' is malformed: overload (int32[:]) has no cuda loop");
}

}  // namespace
}  // namespace loom_kernel_test
