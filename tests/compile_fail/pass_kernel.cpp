// Functors the kernel checks must accept: views of 1 to 3 dimensions, scalars by value and by
// const&, noexcept, uses_syncthreads, one struct template per element type.
#include <cstdint>

#include "loom/def/kernel.hpp"

namespace {
template <class T>
struct Axpy {
  void operator()(const loom::ThreadCtx& t, T a, loom::View<const T> x, loom::View<T> y) const {
    const std::int64_t i = t.grid<1>();
    if (i < y.shape[0]) y(i) += a * x(i);
  }
};
struct Planes {
  void operator()(const loom::ThreadCtx&, loom::View<const double, 3> a, loom::View<float, 2> b,
                  const std::int32_t& k) const noexcept {
    b(0, 0) = static_cast<float>(a(0, 0, 0)) + static_cast<float>(k);
  }
};
struct Sync {
  static constexpr bool uses_syncthreads = true;
  void operator()(const loom::ThreadCtx& t, loom::View<std::int64_t> out) const {
    t.syncthreads();
    out(0) = 1;
  }
};

void register_ops(loom::Registrar& reg) {
  loom::def::kernel<Axpy<float>, Axpy<double>>(reg, "axpy");
  loom::def::kernel<Planes>(reg, "planes");
  loom::def::kernel<Sync>(reg, "sync");
}
}  // namespace
