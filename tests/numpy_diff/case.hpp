// One drawn call of the differential test as gen_cases.py writes it (a JSON line), and the loom
// arrays built from it: a fresh base buffer per operand and the view the call sees.
#pragma once
#include <loom/loom.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace numpy_diff {

using json = nlohmann::json;

struct Operand {
  bool python = false;  // a Python scalar: loom's weak int / double
  json value;           // its value (python)
  loom::DType dtype{};  // an array: base dtype, shape and values (C order), then the view ops
  loom::Shape base;
  json data;  // a list, or {"cycle": [...]} repeated to fill the base; complex values [re, im]
  json view;  // ["slice", axis, start, stop, step] | ["T", perm] | ["bcast", shape]
};

// What NumPy did.
struct Expect {
  std::optional<std::string> error;  // NumPy raised this exception class
  std::string message;
  bool has_result = false;
  loom::DType dtype{};
  loom::Shape shape;
  json data;  // C order; null where NumPy leaves the value undefined (where= without out=)
  std::vector<std::int64_t> sample;  // big results: the flat positions `data` holds (else all)
  json out_after;                    // out='s whole base after the call (null: no out=)
  json a_after;                      // at: the array's whole base after the call
  json scale;             // float add/multiply reductions: sum|x| or prod|x| per output element
  json count;             // the number of terms per output element
  std::string loop;       // the output dtype of NumPy's loop ("" where NumPy cannot say)
  std::int64_t rows = 1;  // float sums: rows added elementwise (docs/methods.md, Accuracy)
  json exact;             // float sums: the exact sum (rounded to float64) per output element
  // Set where a non-finite float (or a quotient by zero) may be cast to an integer: C leaves the
  // value undefined, so values are not compared (refusals, shapes and dtypes still are).
  std::string undefined;
  // A reduce whose out= cannot hold every value of NumPy's loop dtype, where NumPy passes values
  // through out= before the end: loom documents a refusal (E-TYPE-REDUCE-OUT-NARROWER).
  bool out_cannot_hold_loop = false;
};

struct Case {
  int id = 0;
  std::string kind;    // "ufunc" (rt.ufunc(op)) or "reduce" (rt.reduce(op))
  std::string op;      // add, subtract, ... or sum, prod, max, min
  std::string method;  // call, reduce, accumulate, reduceat, outer, at
  std::vector<Operand> args;
  std::optional<Operand> indices, out, where;  // out= and where= also appear in kw
  json kw;  // axis, keepdims, initial, where, out, dtype, casting as given (absent: not given)
  Expect expect;
  std::string line;  // the JSON line, for failure messages
};

Case parse_case(const std::string& line);

// An operand made in loom: `base` owns fresh host memory, `view` is what the call gets.
struct Built {
  loom::Array base;
  loom::Array view;
};
Built build(const Operand& o);

// A JSON value as gen_cases.py writes it ("nan", "-0", 1.5, 7) as a double.
double json_double(const json& v);
// Writes values (C order; {"cycle": [...]} repeats; null writes 0) into a C-contiguous array.
void fill(const loom::Array& a, const json& values);

}  // namespace numpy_diff
