#include "case.hpp"

#include <complex>
#include <cstdlib>
#include <cstring>
#include <type_traits>

namespace numpy_diff {

namespace {

Operand parse_operand(const json& j) {
  Operand o;
  if (j.contains("py")) {
    o.python = true;
    o.value = j.at("value");
    o.dtype = j.at("py") == "int" ? loom::DType::int64 : loom::DType::float64;
    return o;
  }
  o.dtype = loom::dtype_from_name(j.at("dtype").get<std::string>());
  for (const auto& s : j.at("base")) o.base.push_back(s.get<std::int64_t>());
  o.data = j.at("data");
  o.view = j.at("view");
  return o;
}

template <class T>
T json_value(const json& v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v.get<bool>();
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(json_double(v));
  } else {
    // Integers keep every bit: uint64 above 2^63 and int64 below 0 both come through.
    if (v.is_number_unsigned()) return static_cast<T>(v.get<std::uint64_t>());
    return static_cast<T>(v.get<std::int64_t>());
  }
}

}  // namespace

double json_double(const json& v) {
  if (v.is_string()) {
    // "nan", "inf", "-inf", "-0": strtod reads each as meant
    return std::strtod(v.get<std::string>().c_str(), nullptr);
  }
  if (v.is_boolean()) return v.get<bool>() ? 1.0 : 0.0;
  if (v.is_number_unsigned()) return static_cast<double>(v.get<std::uint64_t>());
  if (v.is_number_integer()) return static_cast<double>(v.get<std::int64_t>());
  return v.get<double>();
}

Case parse_case(const std::string& line) {
  const json j = json::parse(line);
  Case c;
  c.line = line;
  c.id = j.at("id").get<int>();
  c.kind = j.at("kind").get<std::string>();
  c.op = j.at("op").get<std::string>();
  c.method = j.at("method").get<std::string>();
  for (const auto& a : j.at("args")) c.args.push_back(parse_operand(a));
  if (j.contains("indices")) c.indices = parse_operand(j.at("indices"));
  c.kw = j.at("kw");
  if (c.kw.contains("out")) c.out = parse_operand(c.kw.at("out"));
  if (c.kw.contains("where")) c.where = parse_operand(c.kw.at("where"));
  const json& e = j.at("expect");
  Expect& x = c.expect;
  if (e.contains("error")) {
    x.error = e.at("error").get<std::string>();
    x.message = e.value("message", "");
  }
  if (e.contains("result")) {
    const json& r = e.at("result");
    x.has_result = true;
    x.dtype = loom::dtype_from_name(r.at("dtype").get<std::string>());
    for (const auto& s : r.at("shape")) x.shape.push_back(s.get<std::int64_t>());
    x.data = r.at("data");
    if (r.contains("sample")) x.sample = r.at("sample").get<std::vector<std::int64_t>>();
  }
  x.out_after = e.value("out_after", json());
  x.a_after = e.value("a_after", json());
  x.scale = e.value("scale", json());
  x.count = e.value("count", json());
  x.exact = e.value("exact", json());
  x.rows = e.value("rows", std::int64_t{1});
  x.undefined = e.value("undefined", "");
  x.loop = e.value("loop", "");
  x.out_cannot_hold_loop = e.value("out_cannot_hold_loop", false);
  return c;
}

void fill(const loom::Array& a, const json& data) {
  const std::int64_t n = a.size();
  const bool cycle = data.is_object();
  const json& vals = cycle ? data.at("cycle") : data;
  if (static_cast<std::int64_t>(vals.size()) != n && !(cycle && !vals.empty())) {
    throw std::runtime_error("gen_cases.py wrote " + std::to_string(vals.size()) +
                             " values for an array of " + std::to_string(n));
  }
  loom::visit_dtype(a.dtype(), [&](auto t) {
    using T = decltype(t);
    if constexpr (std::is_arithmetic_v<T>) {
      T* p = reinterpret_cast<T*>(a.data());
      const std::size_t m = vals.size();
      for (std::int64_t i = 0; i < n; ++i) {
        const json& v = vals[static_cast<std::size_t>(i) % m];
        p[i] = v.is_null() ? T{} : json_value<T>(v);
      }
    } else if constexpr (std::is_same_v<T, loom::float16_t>) {  // NumPy wrote float16 values
      T* p = reinterpret_cast<T*>(a.data());                    // exactly: from_double keeps them
      const std::size_t m = vals.size();
      for (std::int64_t i = 0; i < n; ++i) {
        const json& v = vals[static_cast<std::size_t>(i) % m];
        p[i] = v.is_null() ? T{} : T::from_double(json_double(v));
      }
    } else if constexpr (std::is_same_v<T, std::complex<float>> ||
                         std::is_same_v<T, std::complex<double>>) {  // [re, im] pairs
      using R = typename T::value_type;
      T* p = reinterpret_cast<T*>(a.data());
      const std::size_t m = vals.size();
      for (std::int64_t i = 0; i < n; ++i) {
        const json& v = vals[static_cast<std::size_t>(i) % m];
        p[i] = v.is_null()
                   ? T{}
                   : T(static_cast<R>(json_double(v.at(0))), static_cast<R>(json_double(v.at(1))));
      }
    } else {
      throw std::runtime_error("gen_cases.py drew a dtype the replayer does not fill");
    }
  });
}

Built build(const Operand& o) {
  if (o.python) {
    // NumPy's Python scalars are weak; so are loom's int and double (docs/decisions.md).
    if (o.dtype == loom::DType::int64) {
      const loom::Array a(static_cast<int>(o.value.get<std::int64_t>()));
      return {a, a};
    }
    const loom::Array a(json_double(o.value));
    return {a, a};
  }
  loom::Array base = loom::empty(o.base, o.dtype);
  fill(base, o.data);
  loom::Array v = base;
  for (const auto& op : o.view) {
    const std::string k = op.at(0).get<std::string>();
    if (k == "slice") {
      v = v.slice(op.at(1).get<int>(), op.at(2).get<std::int64_t>(), op.at(3).get<std::int64_t>(),
                  op.at(4).get<std::int64_t>());
    } else if (k == "T") {
      const std::vector<int> perm = op.at(1).get<std::vector<int>>();
      v = v.transpose(perm);
    } else if (k == "bcast") {
      loom::Shape s;
      for (const auto& d : op.at(1)) s.push_back(d.get<std::int64_t>());
      v = v.broadcast_to(s);
    } else {
      throw std::runtime_error("unknown view op " + k);
    }
  }
  return {base, v};
}

}  // namespace numpy_diff
