// The random plugin's table, included by random.cpp after the host def header and by random.cu
// after the CUDA one.
#pragma once
#include <cstdint>

#include "kernels.hpp"
#include "loom/registry.hpp"

namespace loom::random_plugin {

inline void register_kernels(loom::Registrar& reg) {
  using loom::def::kernel;
  kernel<Uniform<float>, Uniform<double>>(
      reg, "random_uniform",
      "out[i] = uniform in [0, 1) of Philox4x32-10 (seed, stream, call) at index_base + i "
      "(loom::random)");
  kernel<Normal<float>, Normal<double>>(
      reg, "random_normal",
      "out[i] = standard normal (Box-Muller) of Philox4x32-10 (seed, stream, call) at "
      "index_base + i");
  kernel<Integers<std::int8_t>, Integers<std::uint8_t>, Integers<std::int16_t>,
         Integers<std::uint16_t>, Integers<std::int32_t>, Integers<std::uint32_t>,
         Integers<std::int64_t>, Integers<std::uint64_t>>(
      reg, "random_integers",
      "out[i] = low + Lemire-bounded draw in [0, span] of Philox4x32-10 (seed, stream, call) at "
      "index_base + i");
  kernel<ComputePi>(reg, "random_compute_pi",
                    "out[t] = 4 * fraction of `iterations` xoroshiro128p points of thread t inside "
                    "the unit circle (the seeds' Monte Carlo pi)");
}

}  // namespace loom::random_plugin
