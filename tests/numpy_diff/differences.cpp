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

bool has(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }
std::string kw_dtype(const Case& c) {
  return c.kw.contains("dtype") ? c.kw.at("dtype").get<std::string>() : "";
}

const std::vector<Entry>& entries() {
  static const std::vector<Entry> list = {
      {{"refused as documented: out= cannot hold the loop's dtype",
        "docs/errors.md E-TYPE-REDUCE-OUT-NARROWER: a reduce whose out= cannot hold every value "
        "of the loop's dtype (no safe cast; the wrapping integer ops into an integer out= "
        "excepted) is refused where NumPy passes values through out= before the end (the start "
        "value, or partial results past its 8192-element buffer), as its answer then depends on "
        "that (np.minimum.reduce(int16 [-3, 5], out=<uint8>) is 5: -3 started in out= as 253). "
        "gen_cases.py marks such calls from NumPy's own loop dtype, np.can_cast and "
        "np.getbufsize; loom answering one of them is a failure (refusal_missing)."},
       {Finding::loom_refuses},
       [](const Ctx& x) {
         return x.c.expect.out_cannot_hold_loop && x.o.error_class == "TypeError" &&
                has(x.o.message, "cannot hold every value of the loop's dtype");
       }},
      {{"sum and prod have no loops for bool, int8, int16, int32, uint8, uint16, uint32",
        "rt.reduce's sum and prod register int64, uint64, float32 and float64 loops (NumPy's "
        "np.sum widens to those too); where NumPy's loop is a narrower one picked by out= or "
        "dtype=, loom computes wider: integers wrap at loom's width, bools are integers (NumPy's "
        "bool add is logical, so a sum into a bool out= with initial=-2 differs), and "
        "casting='no' or 'equiv', dtype= of a narrow dtype and a narrow unsigned or bool out= "
        "are refused (loom's result does not cast to it same_kind). initial= is checked against "
        "NumPy's narrow loop, as NumPy does (OverflowError there, loom's E-VALUE-INITIAL-RANGE). "
        "Values are not excused."},
       {Finding::loom_refuses},
       [](const Ctx& x) {
         const std::string& loop = x.c.expect.loop;
         if (loop.empty() || has_loop(x.rt, x.c, loop)) return false;
         return x.o.error_class == "TypeError" || has(x.o.message, "initial=");
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
      {{"a Python scalar with dtype= is refused where loom makes it a strong int64/float64",
        "core/src/ops/type_resolution.cpp: a weak scalar of a higher kind than every array (a "
        "float "
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
  // Values are never excused (issue 28): where loom and NumPy both answer, loom gives NumPy's
  // values within compare.hpp's rules, or the call is a documented refusal, or NumPy's value is
  // undefined (not compared, and counted).
  if (p.what == Finding::value || p.what == Finding::at_values || p.what == Finding::exact_bound)
    return nullptr;
  const Ctx x{rt, c, o, p};
  for (const Entry& e : entries()) {
    bool kind = false;
    for (Finding f : e.findings) kind = kind || f == p.what;
    if (kind && e.when(x)) return &e.d;
  }
  return nullptr;
}

}  // namespace numpy_diff
