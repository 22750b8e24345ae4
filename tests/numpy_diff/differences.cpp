// The documented differences: each names a class of cases (by what NumPy ran and what the call
// asked), the findings it excuses there, and why loom differs. The first entry that matches
// excuses a finding; LOOM_NUMPY_DIFF_STRICT=1 turns the list off. When loom changes to agree with
// NumPy on a class, delete its entry: the test then holds loom to NumPy's answer there.
#include "differences.hpp"

#include <cstdlib>
#include <functional>

namespace numpy_diff {

namespace {

using loom::DType;

struct Ctx {
  const loom::Runtime& rt;
  const Case& c;
  const Outcome& o;
  const Problem& p;
};

struct Entry {
  Difference d;
  std::vector<Finding> findings;
  std::function<bool(const Ctx&)> when;
};

// Does the op have a loop whose output is `t`?
bool has_loop(const loom::Runtime& rt, const Case& c, DType t) {
  const auto op = rt.registry().find(c.op);
  if (!op) return false;
  for (const auto& l : op->loops) {
    if (!l.sig.outputs.empty() && l.sig.outputs[0] == t) return true;
  }
  return false;
}
bool has_loop(const loom::Runtime& rt, const Case& c, const std::string& t) {
  return !t.empty() && has_loop(rt, c, loom::dtype_from_name(t));
}

bool reduce_like(const Case& c) {
  return c.method == "reduce" || c.method == "accumulate" || c.method == "reduceat";
}
bool has(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }
std::string kw_dtype(const Case& c) {
  return c.kw.contains("dtype") ? c.kw.at("dtype").get<std::string>() : "";
}
std::string out_dtype(const Case& c) { return c.out ? std::string(loom::name(c.out->dtype)) : ""; }

const std::vector<Entry>& entries() {
  static const std::vector<Entry> list = {
      {{"where= with a non-identity initial= counts the initial once per masked-out element",
        "core/src/reduce_call.cpp fills masked-out elements with the start value before folding; "
        "that is neutral only for the identity (and for max/min). NumPy: "
        "np.add.reduce([1, 2, 3], initial=5, where=[False]*3) == 5, loom 20. To fix in the core."},
       {Finding::value, Finding::exact_bound},
       [](const Ctx& x) {
         const json& kw = x.c.kw;
         return x.c.method == "reduce" && kw.contains("where") && kw.contains("initial") &&
                !kw.at("initial").is_null();
       }},
      {{"where= with initial= on subtract/divide is refused",
        "core/src/reduce_call.cpp: 'not supported yet' for ops with neither identity nor "
        "reorderability; NumPy folds the selected elements in order."},
       {Finding::loom_refuses},
       [](const Ctx& x) { return has(x.o.message, "is not supported yet"); }},
      {{"0-d input with axis=0 or axis=-1 is refused",
        "NumPy accepts axis 0 and -1 for a 0-d array (reducing nothing: np.add.reduce(np.array("
        "5.0)) == 5.0, also the default axis of ufunc.reduce); loom: 'axis 0 is out of bounds "
        "for an array of dimension 0'. To fix in the core."},
       {Finding::loom_refuses},
       [](const Ctx& x) {
         return x.c.method == "reduce" && !x.o.args.empty() && x.o.args[0].view.ndim() == 0 &&
                has(x.o.message, "dimension 0");
       }},
      {{"reduce/accumulate/reduceat with dtype= the op has no loop for",
        "core/src/reduce_call.cpp pick_reduce_loop: without a loop of dtype='s dtype loom takes "
        "the first loop that dtype casts to safely and casts the input straight to it, so "
        "minimum.reduce(float64 [-8.5, 3], dtype=uint32) is -8 in int64 (NumPy casts to uint32 "
        "first: 3), and divide.reduce(x, dtype=int16) answers in float32 where NumPy refuses (no "
        "such loop): dtype= is silently not honoured. To fix in the core."},
       {Finding::value, Finding::loom_answers, Finding::exact_bound, Finding::loom_refuses},
       [](const Ctx& x) {
         const std::string d = kw_dtype(x.c);
         return reduce_like(x.c) && !d.empty() && !has_loop(x.rt, x.c, d) &&
                (x.p.what != Finding::loom_refuses || has(x.o.message, "initial="));
       }},
      {{"reduce/accumulate/reduceat: out= selects loom's loop, NumPy resolves it with the input",
        "NumPy resolves the loop from (out.dtype, x.dtype): float64 x into a float32 out= sums in "
        "float64 (loom in float32), a float sum into an int out= is truncated once at the end "
        "(loom truncates every term first: add.reduce([1.5, 2.5], out=int64) is 4 in NumPy, 3 "
        "in loom), and an initial= is checked against that loop (min(float32 x, initial=-2.5, "
        "out=uint64): NumPy answers, loom refuses -2.5 for its uint64 loop). Issue 11 says "
        "'out= whose dtype selects the loop', which holds where x casts safely to out.dtype. To "
        "decide in the core."},
       {Finding::value, Finding::loom_refuses},
       [](const Ctx& x) {
         return reduce_like(x.c) && x.c.out && kw_dtype(x.c).empty() &&
                x.c.expect.loop != out_dtype(x.c) &&
                (x.p.what == Finding::value || has(x.o.message, "to out= dtype") ||
                 has(x.o.message, "initial="));
       }},
      {{"reduce/accumulate/reduceat cast into out= unsafely in NumPy, same_kind in loom",
        "NumPy's reduction methods cast the result into out= with casting='unsafe' "
        "(np.add.reduce(x, dtype=np.float32, out=np.zeros((), np.int16)) answers); loom refuses a "
        "result that does not cast same_kind (core/src/reduce_call.cpp, ufunc_methods.cpp "
        "check_out)."},
       {Finding::loom_refuses},
       [](const Ctx& x) {
         return reduce_like(x.c) && x.c.out && has(x.o.message, "to out= dtype");
       }},
      {{"at runs a's dtype's loop; NumPy resolves the loop from a's and b's dtypes",
        "core/src/ufunc_at.cpp casts b to a's loop first and keeps repeated updates in that loop's "
        "dtype; NumPy computes each update in the loop of (a.dtype, b.dtype) and casts it back "
        "into a: np.add.at(int8 [-3], [0], 1.5) gives -1, loom -2; np.divide.at(int16 [5], "
        "[0, 0], [2.0, 0.4]) gives 5 (2 after the first update), loom 6. To fix in the core."},
       {Finding::at_values},
       [](const Ctx& x) {
         return x.c.method == "at" && !x.c.args.empty() &&
                x.c.expect.loop != std::string(loom::name(x.c.args[0].dtype));
       }},
      {{"true division of bools and small integers runs in float32",
        "NumPy's divide resolver sends integer inputs to the float64 loop; loom's resolution takes "
        "the first loop both inputs cast to safely, float32 for bool/int8/int16/uint8/uint16 "
        "(plugins/math/table.hpp order). So np.divide(int8 1, int8 3) is float64 "
        "0.333...3 in NumPy, float32 0.33333334 in loom. To fix (a resolver rule for divide)."},
       {Finding::dtype, Finding::value, Finding::at_values},
       [](const Ctx& x) {
         if (ufunc_of(x.c) != "divide" || x.c.expect.loop != "float64") return false;
         for (const auto& a : x.c.args) {
           if (a.python) {
             if (a.dtype != DType::int64) return false;  // a Python float makes it float64
             continue;
           }
           if (loom::kind(a.dtype) == loom::Kind::floating || loom::itemsize(a.dtype) > 2) {
             return false;
           }
         }
         return true;
       }},
      {{"rt.reduce(\"sum\"/\"prod\") of unsigned integers gives int64",
        "the reductions 'sum' and 'prod' (plugins/math/table.hpp) resolve from the input dtype: "
        "uint8/16/32 cast safely to int64 first; NumPy's np.sum gives uint64 (Ufunc::reduce of "
        "add/multiply applies NumPy's rule and agrees). An initial=-1 is then accepted where "
        "NumPy raises OverflowError for uint64, and an initial= above 2^63 is refused where NumPy "
        "takes it."},
       {Finding::dtype, Finding::loom_answers, Finding::loom_refuses},
       [](const Ctx& x) {
         const DType t = x.c.args.empty() ? DType::float64 : x.c.args[0].dtype;
         return x.c.kind == "reduce" && (x.c.op == "sum" || x.c.op == "prod") &&
                loom::kind(t) == loom::Kind::unsigned_int && loom::itemsize(t) < 8 &&
                kw_dtype(x.c).empty() && !x.c.out &&
                (x.p.what == Finding::dtype || x.c.expect.error == "OverflowError" ||
                 has(x.o.message, "initial="));
       }},
      {{"subtract of bools is computed",
        "NumPy refuses boolean subtract (TypeError); loom has no bool loops and subtracts in "
        "int32 (docs/decisions.md: narrow dtypes take the first loop they cast to)."},
       {Finding::loom_answers},
       [](const Ctx& x) { return has(x.c.expect.message, "boolean subtract"); }},
      {{"no loops for bool, int8, int16, uint8, uint16, uint32",
        "plugins/math/table.hpp registers int32, int64, uint64, float32 and float64 loops; where "
        "NumPy runs a narrower loop loom computes wider: integers wrap at loom's width (uint16 "
        "1 - 8 into an int32 out=: NumPy 65529, loom -7), bools are integers (NumPy's bool "
        "min/max/add are logical, so min over bools with initial=-3 differs), casting='no' or "
        "'equiv', dtype= of a narrow dtype and a narrow unsigned or bool out= are refused (loom's "
        "result does not cast to it same_kind), and an initial= outside the narrow dtype's "
        "range is accepted (NumPy: OverflowError)."},
       {Finding::value, Finding::at_values, Finding::loom_refuses, Finding::loom_answers},
       [](const Ctx& x) {
         const std::string& loop = x.c.expect.loop;
         if (loop.empty() || has_loop(x.rt, x.c, loop)) return false;
         if (x.p.what == Finding::loom_refuses) {
           return x.o.error_class == "TypeError" || has(x.o.message, "initial=");
         }
         if (x.p.what == Finding::loom_answers) return x.c.expect.error == "OverflowError";
         return true;
       }},
      {{"accumulate/reduceat into a larger out= is refused",
        "NumPy's accumulate and reduceat broadcast the input against out= "
        "(np.maximum.accumulate(x of shape (4, 1, 5), out= of shape (4, 3, 5)) answers); loom "
        "requires out= of the result's shape."},
       {Finding::loom_refuses},
       [](const Ctx& x) {
         return (x.c.method == "accumulate" || x.c.method == "reduceat") &&
                x.o.error_class == "ShapeError" && has(x.o.message, "out= has shape");
       }},
      {{"Python scalars under casting='no' or 'equiv'",
        "NumPy 2 refuses to cast a Python int or float to an array's dtype under 'no'/'equiv' "
        "(np.add(-3, int32 array, casting='equiv'): TypeError), where loom's weak scalars take "
        "the array's dtype whatever the casting rule; and NumPy multiplies two Python scalars "
        "of different kinds under 'no' (np.multiply(-2.0, 5, casting='no') == -10.0), where "
        "loom makes them float64 and int64 and refuses."},
       {Finding::loom_answers, Finding::loom_refuses},
       [](const Ctx& x) {
         if (x.p.what == Finding::loom_answers)
           return has(x.c.expect.message, "cannot cast Python");
         const std::string cast = x.c.kw.value("casting", "");
         for (const auto& a : x.c.args) {
           if (!a.python) return false;
         }
         return (cast == "no" || cast == "equiv") && x.o.error_class == "TypeError";
       }},
      {{"a Python int with an unsigned dtype= is refused where loom makes it int64",
        "core/src/type_resolution.cpp: a weak int of a higher kind than every array (a bool "
        "array, or no array at all) becomes a strong int64, which does not cast same_kind to an "
        "unsigned dtype=; NumPy only needs the value to fit: np.add(0, 4, dtype=np.uint64) == 4, "
        "np.add(2, bool array, dtype=np.uint64) answers."},
       {Finding::loom_refuses},
       [](const Ctx& x) {
         bool py_int = false;
         for (const auto& a : x.c.args) py_int = py_int || (a.python && a.dtype == DType::int64);
         const std::string d = kw_dtype(x.c);
         return py_int && !d.empty() &&
                loom::kind(loom::dtype_from_name(d)) == loom::Kind::unsigned_int &&
                x.o.error_class == "TypeError";
       }},
  };
  return list;
}

}  // namespace

const Difference* excuse(const loom::Runtime& rt, const Case& c, const Outcome& o,
                         const Problem& p) {
  static const bool strict = [] {
    const char* s = std::getenv("LOOM_NUMPY_DIFF_STRICT");
    return s && *s && *s != '0';
  }();
  if (strict) return nullptr;
  const Ctx x{rt, c, o, p};
  for (const Entry& e : entries()) {
    bool kind = false;
    for (Finding f : e.findings) kind = kind || f == p.what;
    if (kind && e.when(x)) return &e.d;
  }
  return nullptr;
}

}  // namespace numpy_diff
