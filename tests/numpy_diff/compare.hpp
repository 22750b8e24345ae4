// The comparison of one replayed case with NumPy's answer: what must agree, and how closely.
//
// Rules (the bounds are stated once, here):
// - Integers and bools: exactly. The math plugin has loops for every dtype NumPy's loops of the
//   drawn ops have (bool, int8 to uint64, float16, float32, float64; complex64 and complex128
//   where NumPy has them), and sum/prod reduce narrow integers in int64/uint64 as np.sum does;
//   where loom's result dtype still differs from NumPy's (a documented difference), the value is
//   cast to NumPy's dtype (integers wrap, as NumPy's narrow loops do) and compared bit for bit.
// - dtypes are compared where loom promises NumPy's: where NumPy's result dtype is the output
//   dtype of one of the op's loops (else loom cannot give it, and values are compared).
// - Floats are compared in the coarser of the two result dtypes (and of dtype=), with u its unit
//   roundoff (2^-11, 2^-24, 2^-53); NaN must meet NaN, an infinity the same infinity, -0 equals
//   +0. float16 is one more float dtype under the same rules: loom's float16 loops compute in
//   float and round once, as NumPy's, so its elementwise results (the ops drawn here are exact or
//   correctly rounded) are NumPy's bits; its sums and products accumulate in float and round once
//   along a run of the reduced axis (NumPy likewise along a contiguous one, and rounds every step
//   along others), within the sum and product rules below with u = 2^-11:
//   * elementwise (call, outer, at) and every method of maximum/minimum, and the in-order folds
//     of subtract/divide (NumPy's order is loom's): exactly; 1 ulp where loom's result dtype
//     differs from NumPy's (NumPy's value rounded to the coarser dtype may round twice).
//   * sums (add.reduce, sum, add.reduceat) of n terms: NumPy sums pairwise along a contiguous
//     axis and sequentially along others (error <= (n-1) u sum|x|); loom pairwise everywhere
//     (<= depth(n) u sum|x|, depth(n) = 52 + 2 ceil(log2 n): 16 lanes of at most 32 terms in a
//     block of 512, a tree of 4 over the lanes, a tail of at most 15, halving above 512, and as
//     many levels again for the cascade over runs of a multi-axis reduction). So
//     |loom - numpy| <= (n - 1 + depth(n) + 2) u sum|x|, and, where the exact sum is known,
//     |loom - exact| <= (depth(n) + rows + 1) u sum|x|: the O(log n) bound of issue 11, where
//     rows is 0 except where a reduced axis lies outside a kept one in memory (loom then adds
//     whole rows elementwise, as NumPy does, docs/methods.md "Accuracy": rows = their number).
//   * products of n terms: |loom - numpy| <= 2 (n + 1) u prod|x| (each order rounds n-1 times).
//   * add/multiply.accumulate, element k of a run: 2 (k + 1) u times the running sum|x| /
//     prod|x| (loom's parallel scan folds blocks in another order than NumPy's sequential one);
//     add/multiply.at of floats on a device target likewise, k being the element's updates and
//     the scale |a| combined with their |b| (on host targets at is exact: NumPy's order).
//   * products and multiply.accumulate also allow (n + 1) times the dtype's smallest normal
//     absolutely: below it multiplies underflow, each erring by up to u times that number
//     whatever the result's size, so relative bounds no longer hold there.
//   * float16 subtract/divide reduce and reduceat: NumPy accumulates a contiguous run in float,
//     loom rounds every step: bounded as a sum (scale sum|x|) and as a product (scale the exact
//     quotient's magnitude).
// - Complex values: per part, u the part dtype's. Sums, products and prefixes by the rules above
//   with |z| as the scale (products and multiply prefixes with 3 u: a complex multiply errs by
//   up to sqrt(5) u |x||y|); where a product has a part that is not finite on either side, both
//   must (an infinite factor makes the parts depend on the grouping). Elementwise: exactly, but
//   multiply (NumPy's AVX2/AVX-512 loop fuses one product; docs/catalogue.md, "Complex") within
//   1 ulp of NumPy's larger part or 3 u |x||y| per part (u of the loop's parts; the real part a
//   real out= keeps likewise; 1 ulp of a coarser out= more), |x||y| from gen_cases.py.
#pragma once
#include <string>
#include <vector>

#include "case.hpp"
#include "replay.hpp"

namespace numpy_diff {

enum class Finding {
  foreign_exception,    // loom threw something that is not a loom::Error
  loom_refuses,         // NumPy answers, loom raises a loom::Error
  loom_answers,         // NumPy raises, loom answers
  refusal_wrote,        // a refused call changed an argument
  input_changed,        // an input (not out=, not at's array) changed
  shape,                // result shape differs
  dtype,                // result dtype differs where loom promises NumPy's
  kind,                 // NumPy gives an integer or bool, loom a float (or the reverse)
  value,                // result values differ beyond the rule
  exact_bound,          // a float sum further from the exact sum than depth(n) u sum|x|
  masked_not_zero,      // where= without out=: loom promises 0 where the mask is false
  out_not_returned,     // out= given, the result is not that array
  out_outside_written,  // out='s base changed outside the view
  at_values,            // at: the array after the call differs
  refusal_missing,      // loom answers a call it documents a refusal of (out_cannot_hold_loop)
  refusal_unlike,       // NumPy's OverflowError for a Python int, loom's refusal not its twin
};
const char* name(Finding f);

struct Problem {
  Finding what;
  std::string detail;
};

// any_order: the call ran on a target where add.at and multiply.at of floats may group the
// updates of one element otherwise than in order (cuda's atomics, parallel's private bins):
// bounded as accumulate is, below.
std::vector<Problem> check(const loom::Runtime& rt, const Case& c, const Outcome& o,
                           bool any_order);

// The ufunc behind a case (rt.reduce's sum is add, prod multiply, max maximum, min minimum).
std::string ufunc_of(const Case& c);

}  // namespace numpy_diff
