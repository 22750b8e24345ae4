// The example plugin's op table, one line an op: functor, signatures from least to most inclusive
// (the first one every input casts to safely is used, so int inputs run the float64 loop), name,
// doc. It includes no def header, so that a CUDA build (example.cu with the .cuh def headers) can
// include the same table.
#pragma once
#include "black_scholes.hpp"
#include "lerp.hpp"
#include "loom/registry.hpp"

namespace loom_example {

inline void register_example(loom::Registrar& reg) {
  loom::def::ufunc<Lerp, float(float, float, float), double(double, double, double)>(
      reg, "lerp", "a + t*(b - a): linear interpolation from a (t = 0) to b (t = 1)");
  // Several outputs: outs<...> lists them; the functor takes them by reference.
  using loom::def::outs;
  loom::def::ufunc<BlackScholes, outs<float, float>(float, float, float, float, float),
                   outs<double, double>(double, double, double, double, double)>(
      reg, "black_scholes", "(call, put) of spot, strike, years, rate, volatility");
  loom::def::ufunc<BlackScholesCall, float(float, float, float, float, float),
                   double(double, double, double, double, double)>(
      reg, "black_scholes_call", "the call price of black_scholes alone");
}

}  // namespace loom_example
