// A kernel plugin (libloom_saxpy.so): out[i] = a * x[i] + y[i], one thread per element, written
// as a CUDA kernel is (docs/kernels.md). One functor type per overload; the host targets (cpu,
// parallel) run its grid of threads, a CUDA build of the same table (a .cu file including
// loom/def/kernel.cuh) would run it on the GPU.
#include <cstdint>

#include "loom/def/kernel.hpp"
#include "loom/plugin.hpp"

namespace saxpy_example {

template <class T>
struct Saxpy {
  LOOM_HD void operator()(const loom::ThreadCtx& t, T a, loom::View<const T> x,
                          loom::View<const T> y, loom::View<T> out) const {
    const std::int64_t i = t.grid();
    if (i < out.size()) out(i) = a * x(i) + y(i);  // the last block may have threads to spare
  }
};

inline void register_kernels(loom::Registrar& reg) {
  loom::def::kernel<Saxpy<float>, Saxpy<double>>(reg, "saxpy", "out[i] = a * x[i] + y[i]");
}

}  // namespace saxpy_example

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "saxpy_example", loom::Family::host,
                              &saxpy_example::register_kernels, nullptr}))
