// Shared pieces of the CUDA backend's tests. They work at the Backend level (allocate, copy,
// cast, and calls built the way the core builds them), so they need no device-array support in
// the core. Every test skips with the backend's reason where there is no usable GPU.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "loom/backend.hpp"
#include "loom/loom.hpp"

namespace loom_cuda_test {

using loom::Array;
using loom::DType;
using loom::Shape;

inline loom::Runtime& runtime() {
  static loom::Runtime rt;
  return rt;
}

// The CUDA backend, or why there is none.
inline loom::Backend* cuda_backend(std::string* why) {
  for (const auto& t : runtime().targets()) {
    if (t.target != "cuda") continue;
    if (!t.available) {
      *why = t.reason;
      return nullptr;
    }
    return runtime().resolve_target("cuda").first;
  }
  *why = "no cuda target";
  return nullptr;
}

#define LOOM_CUDA_OR_SKIP(b)                              \
  std::string loom_why_;                                  \
  loom::Backend* b = loom_cuda_test::cuda_backend(&loom_why_); \
  if (!b) GTEST_SKIP() << "cuda target unavailable: " << loom_why_

// Sets ElementwiseCall::nin where the core has the field.
template <class C>
void set_nin(C& c, int nin) {
  if constexpr (requires { c.nin; }) c.nin = nin;
}

inline Array device_empty(loom::Backend* b, const Shape& shape, DType dt, int dev = 0) {
  const std::size_t isz = loom::itemsize(dt);
  auto buf = b->allocate(static_cast<std::size_t>(loom::shape_size(shape)) * isz, dev, nullptr);
  return Array(buf, dt, shape, loom::c_strides(shape, isz));
}

// A C-contiguous device copy of a host array (any layout).
inline Array to_device(loom::Backend* b, const Array& h, int dev = 0) {
  const Array c = h.is_c_contiguous() ? h : h.copy();
  Array d = device_empty(b, c.shape(), c.dtype(), dev);
  b->copy(d.data(), c.data(), static_cast<std::size_t>(c.size()) * c.itemsize(),
          loom::CopyKind::host_to_device, dev, nullptr);
  return d;
}

// dst = cast(src) on the device, both device arrays of the same shape (any strides).
inline void device_cast(loom::Backend* b, const Array& src, const Array& dst, int dev = 0,
                        void* stream = nullptr) {
  const Array ops[] = {src, dst};
  loom::CastCall c{loom::StridedIter::make(ops, dst.shape()), src.dtype(), dst.dtype(), stream};
  b->cast(c, dev);
}

// A host copy of a device array (any strides: gathered on the device first).
inline Array to_host(loom::Backend* b, const Array& d, int dev = 0) {
  Array src = d;
  if (!d.is_c_contiguous()) {
    src = device_empty(b, d.shape(), d.dtype(), dev);
    device_cast(b, d, src, dev);
  }
  Array h = loom::empty(d.shape(), d.dtype());
  b->copy(h.data(), src.data(), static_cast<std::size_t>(h.size()) * h.itemsize(),
          loom::CopyKind::device_to_host, dev, nullptr);
  return h;
}

inline Array random_array(const Shape& shape, DType dt, unsigned seed, double lo = -1.0,
                          double hi = 1.0, bool integers = false) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  std::vector<double> v(static_cast<std::size_t>(loom::shape_size(shape)));
  for (double& x : v) x = integers ? std::floor(u(gen)) : u(gen);
  return loom::from_vector(v, shape.empty() ? Shape{1} : shape).reshape(shape).astype(dt);
}

// The CUDA implementation of an op's loop whose first input has dtype `dt`.
inline const loom::Loop& cuda_loop(const std::string& op, DType dt) {
  const auto d = runtime().registry().find(op);
  if (!d) throw loom::LookupError("no op " + op);
  for (const auto& l : d->loops) {
    if (l.sig.inputs[0] == dt && l.impl[static_cast<int>(loom::Family::cuda)].present()) return l;
  }
  throw loom::LookupError("no cuda loop of " + op + " for " + std::string(loom::name(dt)));
}
inline const loom::LoopImpl* cuda_impl(const loom::Loop& l) {
  return &l.impl[static_cast<int>(loom::Family::cuda)];
}

// Runs an elementwise loop over operands already broadcast to `shape`.
inline void run_elementwise(loom::Backend* b, const loom::Loop& l, const std::vector<Array>& ops,
                            const Shape& shape, void* stream = nullptr, std::uint32_t host = 0) {
  loom::ElementwiseCall c{loom::StridedIter::make(std::span<const Array>(ops.data(), ops.size()), shape),
                          cuda_impl(l), stream, host};
  set_nin(c, static_cast<int>(l.sig.inputs.size()));
  b->run_elementwise(c, 0);
}

// Equal, or close for floats: |a - b| <= rtol * max(|a|, |b|, 1); NaN matches NaN.
inline ::testing::AssertionResult close(const Array& got, const Array& want, double rtol) {
  if (got.dtype() != want.dtype() || got.shape() != want.shape()) {
    return ::testing::AssertionFailure() << got.str() << " vs " << want.str();
  }
  if (loom::kind(got.dtype()) == loom::Kind::complex) {  // both parts, relative to the larger
    const auto g = got.to_vector<std::complex<double>>(),
               w = want.to_vector<std::complex<double>>();
    for (std::size_t i = 0; i < g.size(); ++i) {
      const bool nan_g = std::isnan(g[i].real()) || std::isnan(g[i].imag());
      const bool nan_w = std::isnan(w[i].real()) || std::isnan(w[i].imag());
      if (nan_g && nan_w) continue;
      const double tol = rtol * std::max({std::abs(g[i]), std::abs(w[i]), 1.0});
      if (!(std::abs(g[i] - w[i]) <= tol) && !(g[i] == w[i])) {
        return ::testing::AssertionFailure() << "element " << i << ": " << g[i] << " vs " << w[i]
                                             << " (" << got.str() << ")";
      }
    }
    return ::testing::AssertionSuccess();
  }
  const auto g = got.to_vector<double>(), w = want.to_vector<double>();
  const bool fl = loom::kind(got.dtype()) == loom::Kind::floating;
  for (std::size_t i = 0; i < g.size(); ++i) {
    if (std::isnan(g[i]) && std::isnan(w[i])) continue;
    const double tol = fl ? rtol * std::max({std::abs(g[i]), std::abs(w[i]), 1.0}) : 0.0;
    if (!(std::abs(g[i] - w[i]) <= tol) && !(g[i] == w[i])) {
      return ::testing::AssertionFailure() << "element " << i << ": " << g[i] << " vs " << w[i]
                                           << " (" << got.str() << ")";
    }
  }
  return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult same_bits(const Array& a, const Array& b) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape()) {
    return ::testing::AssertionFailure() << a.str() << " vs " << b.str();
  }
  const Array ca = a.copy(), cb = b.copy();
  const std::size_t isz = ca.itemsize();
  for (std::int64_t i = 0; i < ca.size(); ++i) {
    if (std::memcmp(ca.data() + i * isz, cb.data() + i * isz, isz) != 0) {
      return ::testing::AssertionFailure() << "element " << i << " differs (" << a.str() << ")";
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace loom_cuda_test
