// The math plugin's operation table, split by op group so that no translation unit instantiates
// too many loops (the CUDA methods of every T(T,T) loop dominate nvcc's time; docs/catalogue.md):
// table_<group>.hpp holds one group's lines (one line an op, signatures from least to most
// inclusive, in NumPy's order bool, int8, uint8, ..., uint64, float32, float64: the first one every
// input casts to safely wins). Each math_<group>.cpp (host) and math_<group>.cu (CUDA) includes its
// def headers and then its table_<group>.hpp, which includes no def header and uses whichever
// loom::def::ufunc / reduce / gufunc is in scope. register_math calls every group on one Registrar,
// so the merge rules are those of one table. docs/catalogue.md lists the ops.
#pragma once
#include "loom/registry.hpp"

namespace loom::math {

// Defined by table_<group>.hpp, once per library.
void register_arith(Registrar& reg);     // add, subtract, multiply; sum, prod
void register_unary(Registrar& reg);     // negative ... reciprocal
void register_division(Registrar& reg);  // divide ... fmod, divmod
void register_power(Registrar& reg);     // power, float_power, heaviside, gcd, lcm
void register_exp_log(Registrar& reg);   // exp, log, ...
void register_trig(Registrar& reg);      // sin ... arctanh, hypot, ...
void register_bitwise(Registrar& reg);   // bitwise_and, bitwise_or, bitwise_xor
void register_shift(Registrar& reg);     // invert, left_shift, right_shift
void register_compare(Registrar& reg);   // greater ... not_equal, logical_*; any, all
void register_minmax(Registrar& reg);    // maximum, minimum; max, min
void register_fminmax(Registrar& reg);   // fmax, fmin
void register_floating(Registrar& reg);  // isfinite ... trunc
void register_gufuncs(Registrar& reg);   // sum_row, dot (matmul: plugins/linalg)

inline void register_math(Registrar& reg) {
  register_arith(reg);
  register_unary(reg);
  register_division(reg);
  register_power(reg);
  register_exp_log(reg);
  register_trig(reg);
  register_bitwise(reg);
  register_shift(reg);
  register_compare(reg);
  register_minmax(reg);
  register_fminmax(reg);
  register_floating(reg);
  register_gufuncs(reg);
}

}  // namespace loom::math
