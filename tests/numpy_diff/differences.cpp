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
      {{"reduce/accumulate/reduceat with dtype= the op has no loop for",
        "core/src/calls/reduce_call.cpp casts the input to dtype= and runs the first wider loop, as "
        "NumPy's own loop would give for +, -, *, max and min; but initial= is checked against "
        "the wider loop, not against dtype= (np.prod(float64 x, initial=-8.0, dtype=np.uint8): "
        "NumPy raises OverflowError, loom answers), subtract.accumulate(x, dtype=bool) answers "
        "where NumPy refuses boolean subtract, and with an out= of yet another dtype NumPy's "
        "accumulation in out= (next entry) shows."},
       {Finding::value, Finding::loom_answers, Finding::exact_bound, Finding::loom_refuses},
       [](const Ctx& x) {
         const std::string d = kw_dtype(x.c);
         return reduce_like(x.c) && !d.empty() && !has_loop(x.rt, x.c, d) &&
                (x.p.what != Finding::loom_refuses || has(x.o.message, "initial="));
       }},
      {{"reduce/accumulate/reduceat with out= of another dtype than NumPy's loop",
        "NumPy's reduction accumulates in out=: the first element (or initial=) and, as its "
        "buffering decides, partial results pass through out='s dtype. "
        "np.minimum.reduce(int16 [-3, 5], out=<uint8>) is 5 in NumPy (-3 became 253 in out=, "
        "then min(253, 5)), 253 in loom (min in int16, then cast); np.min(float32 [1, 2], "
        "initial=-2.5, out=<uint64>) is 1 in NumPy, 2^64-2 in loom; an initial= outside out='s "
        "dtype raises OverflowError in NumPy only. loom reduces in the loop's dtype and casts "
        "the result into out= once (docs/methods.md); NumPy's result depends on its buffers."},
       {Finding::value, Finding::loom_refuses, Finding::loom_answers},
       [](const Ctx& x) {
         if (!reduce_like(x.c) || !x.c.out || x.c.expect.loop == out_dtype(x.c)) return false;
         if (x.p.what == Finding::loom_answers) return x.c.expect.error == "OverflowError";
         if (x.p.what == Finding::loom_refuses) return has(x.o.message, "initial=");
         return true;
       }},
      {{"at with a 64-bit integer a and a b that NumPy's at promotes to float64",
        "ufunc.at resolves its loop from a's and b's dtypes in both; but NumPy's at takes a "
        "Python int b through np.asarray (int64, not a weak scalar), so a uint64 a meets the "
        "float64 loop and loses its low bits: np.add.at(uint64 [2^63+3], [0], 4) gives 2^63; "
        "loom's weak 4 keeps the uint64 loop and gives 2^63+7, the exact sum. (A uint64 a with "
        "an int16 b rounds through float64 in both.) For an op without float loops (bitwise_and "
        "of a uint64 a and a Python int) NumPy finds no loop and raises TypeError; loom answers "
        "in uint64."},
       {Finding::at_values, Finding::loom_answers},
       [](const Ctx& x) {
         if (x.c.method != "at" || x.c.args.empty()) return false;
         if (x.p.what == Finding::loom_answers) {
           return x.c.args.size() > 1 && x.c.args[1].python &&
                  x.c.args[0].dtype == loom::DType::uint64 && x.c.expect.error &&
                  has(*x.c.expect.error, "TypeError");
         }
         return x.c.expect.loop != std::string(loom::name(x.c.args[0].dtype));
       }},
      {{"float16 subtract/divide folds round every step",
        "NumPy's float16 subtract and divide reduce loops accumulate a contiguous run in float and "
        "round once; loom's float16 subtract.reduce / divide.reduce / reduceat round every step "
        "on every target, so that an ordered fold gives the same bits everywhere "
        "(docs/catalogue.md, float16: Reductions)."},
       {Finding::value},
       [](const Ctx& x) {
         const std::string u = ufunc_of(x.c);
         return (u == "subtract" || u == "divide") &&
                (x.c.method == "reduce" || x.c.method == "reduceat") &&
                x.c.expect.dtype == DType::float16;
       }},
      {{"subtract of bools is computed",
        "NumPy refuses boolean subtract (TypeError); loom has no bool loops and subtracts in "
        "int32 (docs/decisions.md: narrow dtypes take the first loop they cast to)."},
       {Finding::loom_answers},
       [](const Ctx& x) { return has(x.c.expect.message, "boolean subtract"); }},
      {{"gcd of bools is computed",
        "NumPy's gcd has no bool loop and refuses bools (UFuncTypeError) although bool casts "
        "safely to int8; loom resolves bools to the first loop they cast to safely, int8, as for "
        "every op (docs/catalogue.md)."},
       {Finding::loom_answers},
       [](const Ctx& x) {
         return x.c.op == "gcd" && has(x.c.expect.message, "ufunc 'gcd' did not contain a loop") &&
                has(x.c.expect.message, "BoolDType");
       }},
      {{"gcd.reduce with a negative initial= where where= selects nothing",
        "A row that where= masks out entirely keeps initial= in NumPy (np.gcd.reduce(x, "
        "initial=-1, where=False) is -1); loom combines initial= with the op's identity 0, and "
        "gcd(-1, 0) is 1. Harmless for ops whose identity is neutral for every value (add, "
        "multiply, bitwise); gcd's 0 is not for negative values. To fix in "
        "core/src/calls/reduce_call.cpp "
        "(start from initial= alone)."},
       {Finding::value},
       [](const Ctx& x) {
         return ufunc_of(x.c) == "gcd" && x.c.method == "reduce" && x.c.kw.contains("initial") &&
                x.c.kw.contains("where");
       }},
      {{"sum and prod have no loops for bool, int8, int16, int32, uint8, uint16, uint32",
        "rt.reduce's sum and prod register int64, uint64, float32 and float64 loops (NumPy's "
        "np.sum widens to those too); where NumPy's loop is a narrower one picked by out= or "
        "dtype=, loom computes wider: integers wrap at loom's width, bools are integers (NumPy's "
        "bool add is logical, so a sum into a bool out= with initial=-2 differs), casting='no' "
        "or 'equiv', dtype= of a narrow dtype and a narrow unsigned or bool out= are refused "
        "(loom's result does not cast to it same_kind), and an initial= outside the narrow "
        "dtype's range is accepted (NumPy: OverflowError)."},
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
      {{"a Python scalar with dtype= is refused where loom makes it a strong int64/float64",
        "core/src/ops/type_resolution.cpp: a weak scalar of a higher kind than every array (a float "
        "with integer arrays, an int with bool arrays, or no array at all) becomes a strong "
        "int64 or float64, which must then cast to the forced loop under the call's casting; "
        "NumPy keeps it weak, so only the value must fit: np.add(0, 4, dtype=np.uint64) == 4, "
        "np.maximum(-2.0, uint16 x, dtype=np.float32, casting='safe') answers; loom refuses "
        "both."},
       {Finding::loom_refuses},
       [](const Ctx& x) {
         bool py = false;
         for (const auto& a : x.c.args) py = py || a.python;
         return py && !kw_dtype(x.c).empty() && x.o.error_class == "TypeError";
       }},
      {{"a Python int out of the loop dtype's range is converted",
        "docs/decisions.md: out-of-range weak ints are converted with C++ semantics, not checked "
        "(NumPy raises OverflowError: np.subtract(int16 x, -5, dtype=np.uint64, "
        "casting='unsafe'))."},
       {Finding::loom_answers},
       [](const Ctx& x) {
         bool py_int = false;
         for (const auto& a : x.c.args) py_int = py_int || (a.python && a.dtype == DType::int64);
         return py_int && x.c.expect.error == "OverflowError" &&
                (x.c.method == "call" || x.c.method == "outer");
       }},
  };
  return list;
}

}  // namespace

std::vector<std::string> difference_names() {
  std::vector<std::string> n;
  for (const Entry& e : entries()) n.push_back(e.d.name);
  return n;
}

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
