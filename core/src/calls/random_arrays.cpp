// loom::random's host API (loom/random_arrays.hpp): Generator's arrays through the random
// plugin's kernels, and Numba's xoroshiro128p states seeded on the host.
#include "loom/random_arrays.hpp"

#include <limits>
#include <string>

#include "loom/error.hpp"

namespace loom::random {

namespace {

std::string shape_text(const Shape& s) {
  std::string r = "(";
  for (std::size_t i = 0; i < s.size(); ++i) {
    r += (i ? ", " : "") + std::to_string(s[i]);
  }
  return r + (s.size() == 1 ? ",)" : ")");
}

void check_shape(const char* what, const Shape& shape) {
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] < 0) {
      throw ShapeError(std::string(what) + ": negative dimension " + std::to_string(shape[i]) +
                       " at axis " + std::to_string(i) + " of shape " + shape_text(shape));
    }
  }
}

// Whether `target` names more than one device's worth of memory: arrays for it stay on the host.
bool is_device_set(const std::string& target) {
  return target.find(':') != std::string::npos &&
         (target.find(",") != std::string::npos || target.ends_with(":all"));
}

// The array to fill: out= after checking it against the call, else a new one on the target.
Array destination(const Runtime& rt, const char* what, const Shape& shape, DType dtype,
                  const RandomOptions& o, const std::string& target) {
  if (o.out) {
    if (o.out->dtype() != dtype) {
      throw TypeError(std::string(what) + ": out= has dtype " + std::string(name(o.out->dtype())) +
                      ", the call draws " + std::string(name(dtype)));
    }
    if (o.out->shape() != shape) {
      throw ShapeError(std::string(what) + ": out= has shape " + shape_text(o.out->shape()) +
                       ", the call's shape is " + shape_text(shape));
    }
    return *o.out;
  }
  if (is_device_set(target)) return empty(shape, dtype);
  return rt.empty(shape, dtype, target);
}

// Runs kernel `k` on `dst` as one C-order run of elements (a contiguous array as its 1-d view;
// otherwise a contiguous array of the same memory, copied into dst afterwards).
template <class... S>
void fill(const Runtime& rt, const std::string& k, const std::string& target, const Array& dst,
          const S&... scalars) {
  if (dst.size() == 0) return;
  const LaunchConfig cfg{.target = target};
  if (dst.is_c_contiguous()) {
    rt.kernel(k).launch(cfg, dst.reshape({dst.size()}), scalars...);
    return;
  }
  const Array tmp = dst.device().is_host() ? empty({dst.size()}, dst.dtype())
                                           : rt.empty({dst.size()}, dst.dtype(), target);
  rt.kernel(k).launch(cfg, tmp, scalars...);
  rt.copy_to(tmp.reshape(dst.shape()), dst);
}

// Every element's global index, index_base + i, must be an int64 (the element functions' i).
void check_index_base(const char* what, std::int64_t base, const Shape& shape) {
  const std::int64_t n = shape_size(shape);
  if (base < 0 || base > std::numeric_limits<std::int64_t>::max() - n) {
    throw ValueError(std::string(what) + ": index_base " + std::to_string(base) + " with " +
                     std::to_string(n) +
                     " elements: the elements' indices must lie in [0, 2^63 - 1]");
  }
}

std::string target_of(const Runtime& rt, const RandomOptions& o) {
  return o.target.empty() ? rt.default_target() : o.target;
}

void check_float(const char* what, DType dtype) {
  if (dtype != DType::float32 && dtype != DType::float64) {
    throw TypeError(std::string(what) + ": dtype " + std::string(name(dtype)) +
                    " is not a float dtype; it draws float32 or float64");
  }
}

}  // namespace

// Read, not taken: each call advances next_call_ only once its kernel ran, so that a call refused
// anywhere (a bad out=, a launch error) leaves the generator as it was.
std::uint32_t Generator::call_number(const char* what) const {
  if (next_call_ > std::numeric_limits<std::uint32_t>::max()) {
    throw ValueError(std::string(what) + ": Generator(seed=" + std::to_string(seed_) +
                     ", stream=" + std::to_string(stream_) +
                     ") has used all 2^32 call numbers; use another stream");
  }
  return static_cast<std::uint32_t>(next_call_);
}

Array Generator::uniform(const Runtime& rt, const Shape& shape, DType dtype,
                         const RandomOptions& o) {
  const char* what = "Generator.uniform";
  check_shape(what, shape);
  check_float(what, dtype);
  check_index_base(what, o.index_base, shape);
  const std::string target = target_of(rt, o);
  Array dst = destination(rt, what, shape, dtype, o, target);
  fill(rt, "random_uniform", target, dst, seed_, stream_, call_number(what), o.index_base);
  ++next_call_;
  return dst;
}

Array Generator::normal(const Runtime& rt, const Shape& shape, DType dtype,
                        const RandomOptions& o) {
  const char* what = "Generator.normal";
  check_shape(what, shape);
  check_float(what, dtype);
  check_index_base(what, o.index_base, shape);
  const std::string target = target_of(rt, o);
  Array dst = destination(rt, what, shape, dtype, o, target);
  fill(rt, "random_normal", target, dst, seed_, stream_, call_number(what), o.index_base);
  ++next_call_;
  return dst;
}

Array Generator::integers(const Runtime& rt, std::int64_t low, std::int64_t high,
                          const Shape& shape, DType dtype, const RandomOptions& o) {
  const char* what = "Generator.integers";
  check_shape(what, shape);
  const Kind k = kind(dtype);
  if (k != Kind::signed_int && k != Kind::unsigned_int) {
    throw TypeError(std::string(what) + ": dtype " + std::string(name(dtype)) +
                    " is not an integer dtype");
  }
  if (high <= low) {
    throw ValueError(std::string(what) + ": high (" + std::to_string(high) +
                     ") must be above low (" + std::to_string(low) + ")");
  }
  // The dtype's range as int64 (uint64's top is past int64: only its bottom can be passed).
  std::int64_t lo = 0, hi = std::numeric_limits<std::int64_t>::max();
  visit_dtype(dtype, [&](auto t) {
    using T = decltype(t);
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      lo = static_cast<std::int64_t>(std::numeric_limits<T>::min());
      if constexpr (sizeof(T) < 8 || std::is_signed_v<T>) {
        hi = static_cast<std::int64_t>(std::numeric_limits<T>::max());
      }
    }
  });
  if (low < lo || high - 1 > hi) {
    throw ValueError(std::string(what) + ": [" + std::to_string(low) + ", " + std::to_string(high) +
                     ") is out of bounds for " + std::string(name(dtype)) + " ([" +
                     std::to_string(lo) + ", " + std::to_string(hi) + "])");
  }
  check_index_base(what, o.index_base, shape);
  const std::string target = target_of(rt, o);
  Array dst = destination(rt, what, shape, dtype, o, target);
  // The span high - 1 - low in uint64 arithmetic: exact even where it passes int64.
  const std::uint64_t span = static_cast<std::uint64_t>(high) - 1 - static_cast<std::uint64_t>(low);
  fill(rt, "random_integers", target, dst, low, span, seed_, stream_, call_number(what),
       o.index_base);
  ++next_call_;
  return dst;
}

Array create_xoroshiro128p_states(const Runtime& rt, std::int64_t n, std::uint64_t seed,
                                  const XoroshiroOptions& o) {
  if (n < 0) {
    throw ValueError("create_xoroshiro128p_states: n (" + std::to_string(n) +
                     ") must not be negative");
  }
  Array states = zeros({n, 2}, DType::uint64);
  auto* p = reinterpret_cast<std::uint64_t*>(states.data());
  const View<std::uint64_t, 2> v{p, {n, 2}, {16, 8}};
  if (n >= 1) {  // Numba's init_xoroshiro128p_states_cpu
    p[0] = p[1] = splitmix64(seed);
    for (std::uint64_t j = 0; j < o.subsequence_start; ++j) xoroshiro128p_jump(v, 0);
    for (std::int64_t i = 1; i < n; ++i) {
      p[2 * i] = p[2 * i - 2];
      p[2 * i + 1] = p[2 * i - 1];
      xoroshiro128p_jump(v, i);
    }
  }
  const std::string target = o.target.empty() ? rt.default_target() : o.target;
  if (is_device_set(target)) {
    rt.device_targets(target);  // an unknown or unavailable set is a TargetError here
    return states;
  }
  return rt.to_device(states, target);
}

}  // namespace loom::random
