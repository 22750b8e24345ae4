// loom::linalg (loom/linalg.hpp): numpy.linalg's functions as calls of the linalg plugin's gufuncs,
// checked with the math plugin's isnan and any on the call's own target, so that device arrays
// are checked where they live and only one bool (or, on failure, the batch's flags) comes back.
#include "loom/linalg.hpp"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "loom/error.hpp"

namespace loom::linalg {

namespace {

CallOptions call_options(const Options& o) {
  CallOptions c;
  c.target = o.target;
  c.stream = o.stream;
  return c;
}

ReduceOptions reduce_options(const Options& o, Axes axis) {
  ReduceOptions r;
  r.target = o.target;
  r.axis = std::move(axis);
  r.stream = o.stream;
  return r;
}

// Per instance: whether any of a bool array's last `core` elements is true (batch-shaped).
Array any_core(const Runtime& rt, const Array& flags, int core, const Options& o) {
  std::vector<int> axes;
  for (int i = flags.ndim() - core; i < flags.ndim(); ++i) axes.push_back(i);
  return rt.reduce("any")(flags, reduce_options(o, Axes(std::move(axes))));
}

bool any_true(const Runtime& rt, const Array& flags, const Options& o) {
  return rt.to_host(rt.reduce("any")(flags, reduce_options(o, all_axes)), o.stream).item<bool>();
}

std::string index_str(const std::vector<std::int64_t>& ix) {
  std::string s = "(";
  for (std::size_t i = 0; i < ix.size(); ++i) s += (i ? ", " : "") + std::to_string(ix[i]);
  return s + (ix.size() == 1 ? ",)" : ")");
}

// One operand of the checked gufunc and how many core dims it has.
struct Operand {
  const Array& array;
  int core;
};

// Throws LinAlgError if an instance of `result` (its last `result_core` dims) holds NaN while all
// of its inputs are finite: the gufunc's mark of "no answer" (docs/linalg.md), not NaN or Inf
// passed through (inv([[1, inf], [1, 1]]) is NaN in NumPy too, without an error).
// A good batch costs one isnan over the result and one any; only a NaN anywhere looks further.
void check(const Runtime& rt, const std::string& op, const char* reason, const Array& result,
           int result_core, std::initializer_list<Operand> inputs, const Options& o) {
  const Array nan = rt.ufunc("isnan")(result, call_options(o));
  if (!any_true(rt, nan, o)) return;
  Array failing = any_core(rt, nan, result_core, o);
  for (const Operand& in : inputs) {
    const Array clean = rt.ufunc("logical_not")(
        any_core(rt,
                 rt.ufunc("logical_not")(rt.ufunc("isfinite")(in.array, call_options(o)),
                                         call_options(o)),
                 in.core, o),
        call_options(o));
    failing = rt.ufunc("logical_and")(failing, clean, call_options(o));
  }
  const Array flags = rt.to_host(failing, o.stream);
  const std::vector<std::uint8_t> v = flags.to_vector<std::uint8_t>();
  std::int64_t first = -1, count = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!v[i]) continue;
    if (first < 0) first = static_cast<std::int64_t>(i);
    ++count;
  }
  if (first < 0) return;  // every NaN came from a NaN in the input
  std::vector<std::int64_t> index(flags.ndim());
  for (int d = flags.ndim() - 1; d >= 0; --d) {
    index[d] = first % flags.shape()[d];
    first /= flags.shape()[d];
  }
  std::string msg = op + ": " + reason;
  if (flags.ndim() > 0) {
    msg += " at batch index " + index_str(index) + " of a batch of shape " +
           shape_str(flags.shape()) + " (" + std::to_string(count) + " of " +
           std::to_string(flags.size()) + " instances)";
  }
  msg += "; call the gufunc rt.ufunc(\"" + op +
         "\") instead to get NaN there and the other instances' results";
  throw LinAlgError(msg, std::move(index));
}

}  // namespace

Array det(const Runtime& rt, const Array& a, const Options& o) {
  return rt.ufunc("det")(a, call_options(o));
}

Slogdet slogdet(const Runtime& rt, const Array& a, const Options& o) {
  auto r = rt.ufunc("slogdet").call({a}, call_options(o));
  return {std::move(r[0]), std::move(r[1])};
}

Array inv(const Runtime& rt, const Array& a, const Options& o) {
  Array r = rt.ufunc("inv")(a, call_options(o));
  check(rt, "inv", "Singular matrix", r, 2, {{a, 2}}, o);
  return r;
}

Array solve(const Runtime& rt, const Array& a, const Array& b, const Options& o) {
  const bool vector = b.ndim() == 1;
  const std::string op = vector ? "solve1" : "solve";
  Array r = rt.ufunc(op)(a, b, call_options(o));
  check(rt, op, "Singular matrix", r, vector ? 1 : 2, {{a, 2}, {b, vector ? 1 : 2}}, o);
  return r;
}

Array cholesky(const Runtime& rt, const Array& a, const Options& o) {
  Array r = rt.ufunc("cholesky")(a, call_options(o));
  check(rt, "cholesky", "Matrix is not positive definite", r, 2, {{a, 2}}, o);
  return r;
}

Eigh eigh(const Runtime& rt, const Array& a, const Options& o) {
  auto r = rt.ufunc("eigh").call({a}, call_options(o));
  return {std::move(r[0]), std::move(r[1])};
}

Array eigvalsh(const Runtime& rt, const Array& a, const Options& o) {
  return rt.ufunc("eigvalsh")(a, call_options(o));
}

Array svdvals(const Runtime& rt, const Array& a, const Options& o) {
  Array r = rt.ufunc("svdvals")(a, call_options(o));
  check(rt, "svdvals", "SVD did not converge", r, 1, {}, o);  // NaN in: NumPy raises too
  return r;
}

}  // namespace loom::linalg
