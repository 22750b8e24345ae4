// Test plugins of the lazy opening tests (test_lazy.cpp), one source built four ways:
// LAZY_HOST: plugin "lazy", host: lz_add (float32, identity 0), lz_sum (float32), kernel lz_fill
//   (float32). LAZY_MORE: the same plugin's float64 loops of those names, loaded later with
//   Runtime::load_library, so that a handle taken before sees them. LAZY_CUDA_OPS: the same
//   plugin's CUDA family, built by the host compiler: lz_fill's cuda overload, never called.
// LAZY_CUDA_BACKEND: a cuda-family backend (target "fakecuda", unavailable) whose opening makes
//   the cuda family active without a GPU.
#include <stdexcept>

#include "loom/def/kernel.hpp"
#include "loom/def/kernel_desc.hpp"
#include "loom/def/reduce.hpp"
#include "loom/def/ufunc.hpp"
#include "loom/plugin.hpp"

namespace {

struct Add {
  template <class T>
  T operator()(T a, T b) const {
    return a + b;
  }
};

template <class T>
struct Fill {
  void operator()(const loom::ThreadCtx& t, loom::View<T> out, T v) const {
    const std::int64_t i = t.grid();
    if (i < out.size()) out(i) = v;
  }
};

#if defined(LAZY_HOST) || defined(LAZY_MORE)
#ifdef LAZY_HOST
using T = float;
#else
using T = double;
#endif
void register_ops(loom::Registrar& r) {
  loom::def::ufunc<Add, T(T, T)>(r, "lz_add", "a + b", loom::def::identity(0));
  loom::def::reduce<Add, T(T, T)>(r, "lz_sum", 0.0, "sum");
  loom::def::kernel<Fill<T>>(r, "lz_fill", "out[i] = v");
}
#endif

#ifdef LAZY_CUDA_OPS
void never_called(loom::KernelCall&, const void*) {
  throw std::logic_error("lz_fill's fake device loop was called");
}
const Fill<float> kFill{};
void register_ops(loom::Registrar& reg) {
  reg.add_kernel(loom::def::kernel_desc<Fill<float>>(
      "lz_fill", "out[i] = v", [](loom::KernelImpl* impl, auto) {
        auto& s = impl[static_cast<int>(loom::Family::cuda)];
        s.device = &never_called;
        s.data = &kFill;
      }));
}
#endif

#ifdef LAZY_CUDA_BACKEND
class FakeCuda final : public loom::Backend {
 public:
  std::string name() const override { return "fakecuda"; }
  std::string target() const override { return "fakecuda"; }
  loom::Family family() const override { return loom::Family::cuda; }
  loom::Availability availability() const override {
    return {false, "a fake cuda-family backend of the tests"};
  }
  void run_elementwise(const loom::ElementwiseCall&, int) override { fail(); }
  void run_gufunc(const loom::GufuncCall&, int) override { fail(); }
  void run_reduce(const loom::ReduceCall&, int) override { fail(); }

 private:
  [[noreturn]] static void fail() { throw std::logic_error("the fake cuda backend ran a call"); }
};
loom::Backend* make_backend() { return new FakeCuda(); }
#endif

}  // namespace

#if defined(LAZY_HOST) || defined(LAZY_MORE)
LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "lazy", loom::Family::host, &register_ops,
                              nullptr}))
#elif defined(LAZY_CUDA_OPS)
LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "lazy", loom::Family::cuda, &register_ops,
                              nullptr}))
#else
LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "fakecuda", loom::Family::cuda, nullptr,
                              &make_backend}))
#endif
