// Independent references for the parity suite, by op name: each op's value computed in long
// double (or a closed form), with the domain its random inputs come from. An op missing here is
// still compared with the serial `cpu` backend, and counted as such.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common.hpp"

namespace parity {

// Elementwise: out[0..nout) = f(in[0..nin)), every value a long double.
struct UfuncRef {
  int nin = 0, nout = 0;
  std::vector<Domain> flt, intg;  // per input, for float and for integer loops
  std::function<void(const long double* in, long double* out)> f;
  // The integer loops' values where they differ from f's (integer power, reciprocal); else f.
  std::function<void(const long double* in, long double* out)> int_f;
  bool zero_sign = true;   // results of ±0 must carry the reference's sign
  bool bool_loops = true;  // f also gives the bool loops' results (false: those are checked
                           // against cpu only)
  // Inputs known to be hard for approximations (one column per input, as doubles that the
  // loop's dtype rounds): zeros of sin and cos, exp near overflow and into subnormals, log
  // near 1. Empty for most ops.
  std::vector<std::vector<double>> hard;
};

// A reduction: the value of one output element from the elements it reduces (an `initial`
// value is passed as the first element), and a magnitude `mag` such that any association order
// in dtype T stays within gamma(n - 1) * mag of the value (Higham's bound; 0 means exact).
struct ReduceRef {
  Domain flt, intg;
  std::optional<long double> identity;  // value for empty input; none: empty input is an error
  std::function<void(const std::vector<long double>& x, long double& value, long double& mag)> f;
  bool large = true;  // a 2^18-element input stays finite (not so for a product)
};

// A gufunc instance: core operands as flat C-order vectors with their shapes.
struct Core {
  Shape shape;
  std::vector<long double> v;
  std::vector<long double> mag;  // per output element: sum of |terms|
  std::int64_t terms = 0;        // terms summed into each output element
};
struct GufuncRef {
  Domain flt, intg;
  // Fills out[k].v, .mag and .terms; out[k].shape is set by the caller from the layout.
  std::function<void(const std::vector<Core>& in, std::vector<Core>& out)> f;
};

// Integer corner cases with NumPy's answers (wrap-around, division by zero gives 0), for a loop
// of the given width in bits.
struct IntEdge {
  std::vector<std::int64_t> in, out;
};

const UfuncRef* ufunc_ref(const std::string& op);
const ReduceRef* reduce_ref(const std::string& op);
const GufuncRef* gufunc_ref(const std::string& op);
// Wrap-around and extreme values; for unsigned dtypes the int64 values are bit patterns.
std::vector<IntEdge> int_edges(const std::string& op, int bits, bool is_unsigned = false);

// Higham's gamma_n = n u / (1 - n u): the relative error bound of n roundings with unit
// roundoff u (half an ulp of 1).
long double gamma(DType t, std::int64_t n);

}  // namespace parity
