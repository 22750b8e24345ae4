// The example plugin's op table, one line an op: functor, signatures from least to most inclusive
// (the first one every input casts to safely is used, so int inputs run the float64 loop), name,
// doc. It includes no def header, so that a CUDA build (example.cu with the .cuh def headers) can
// include the same table.
#pragma once
#include "lerp.hpp"
#include "loom/registry.hpp"

namespace loom_example {

inline void register_example(loom::Registrar& reg) {
  loom::def::ufunc<Lerp, float(float, float, float), double(double, double, double)>(
      reg, "lerp", "a + t*(b - a): linear interpolation from a (t = 0) to b (t = 1)");
}

}  // namespace loom_example
