// One parity case: an op, one of its loops and a target, and the runners that exercise it per op
// kind (ufunc_cases.cpp, reduce_cases.cpp, gufunc_cases.cpp).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "common.hpp"

namespace parity {

loom::Runtime& runtime();  // one Runtime for the whole suite

struct Case {
  std::shared_ptr<const loom::OpDesc> op;
  const loom::Loop* loop = nullptr;
  std::string target;    // "cpu", "parallel", "cuda:1"
  bool host = true;      // the target runs host loops: elementwise results must equal cpu's bits
  bool cpu_loop = true;  // `cpu` has this loop too, so (a) can compare with it
  Checker* check = nullptr;
  bool has_reference = false;  // set by the runner: the op is in the reference table

  const std::string& name() const { return op->name; }
  DType in(int k) const { return loop->sig.inputs[k]; }
  DType out(int k) const { return loop->sig.outputs[k]; }
  bool on_cpu() const { return target == "cpu"; }
  bool vs_cpu() const { return !on_cpu() && cpu_loop; }  // comparison (a) applies
};

void run_ufunc(Case& c);
void run_reduce(Case& c);
void run_gufunc(Case& c);
// Why a gufunc loop on a device target is left to its own tests (empty: it is not): the linalg
// plugin's ops without a long double reference here (gufunc_cases.cpp).
std::string gufunc_device_skip(const loom::OpDesc& op, const loom::Loop& loop);
// The methods of binary ufuncs (reduce, accumulate, reduceat, outer, at); no-op for other ops.
void run_methods(Case& c);
// Loops with complex operands (complex_cases.cpp, complex_methods.cpp): run_ufunc, run_methods
// and run_reduce hand them over.
bool complex_loop(const Case& c);
void run_complex_ufunc(Case& c);
void run_complex_methods(Case& c);
void run_complex_reduce(Case& c);

}  // namespace parity
