#include "replay.hpp"

#include <cstring>
#include <typeinfo>

namespace numpy_diff {

namespace {

loom::Axes axes_of(const json& kw) {
  if (!kw.contains("axis")) return {};  // not given
  const json& a = kw.at("axis");
  if (a.is_null()) return loom::all_axes;  // axis=None
  // Parentheses, not braces: {1} would pick the initializer_list constructor, axis=(1,).
  if (a.is_number_integer()) return loom::Axes(a.get<int>());  // axis=1
  return loom::Axes(a.get<std::vector<int>>());                // axis=(0, 2), axis=()
}

loom::Initial initial_of(const json& kw) {
  if (!kw.contains("initial")) return {};  // the identity
  const json& v = kw.at("initial");
  if (v.is_null()) return loom::no_initial;  // initial=None
  if (v.is_number_unsigned() && v.get<std::uint64_t>() > INT64_MAX) {
    return v.get<std::uint64_t>();  // above int64: kept exactly
  }
  if (v.is_number_integer()) return v.get<std::int64_t>();  // a Python int
  return json_double(v);                                    // a Python float
}

// loom's error class, for the report.
std::string class_of(const loom::Error& e) {
  if (dynamic_cast<const loom::TypeError*>(&e)) return "TypeError";
  if (dynamic_cast<const loom::ValueError*>(&e)) return "ValueError";
  if (dynamic_cast<const loom::ShapeError*>(&e)) return "ShapeError";
  if (dynamic_cast<const loom::IndexError*>(&e)) return "IndexError";
  if (dynamic_cast<const loom::LookupError*>(&e)) return "LookupError";
  if (dynamic_cast<const loom::TargetError*>(&e)) return "TargetError";
  if (dynamic_cast<const loom::DeviceError*>(&e)) return "DeviceError";
  return "Error";
}

}  // namespace

std::vector<char> bytes_of(const loom::Array& base) {
  const std::size_t n = static_cast<std::size_t>(base.size()) * base.itemsize();
  std::vector<char> b(n);
  if (n) std::memcpy(b.data(), base.data(), n);
  return b;
}

Outcome replay(const loom::Runtime& rt, const Case& c, const std::string& target, bool device) {
  Outcome r;
  for (const auto& a : c.args) r.args.push_back(build(a));
  if (c.indices) r.indices = build(*c.indices);
  if (c.out) r.out = build(*c.out);
  if (c.where) r.where = build(*c.where);
  for (const auto& a : r.args) r.before.push_back(bytes_of(a.base));
  if (r.indices) r.before.push_back(bytes_of(r.indices->base));
  if (r.out) r.before.push_back(bytes_of(r.out->base));
  if (r.where) r.before.push_back(bytes_of(r.where->base));
  // What the call gets: the host views, or their device copies (Python scalars stay weak host
  // scalars, as a CuPy user passes them).
  std::vector<std::pair<loom::Array, const loom::Array*>> dev;  // (device copy, host view)
  auto in = [&](const Built& b, bool python) -> loom::Array {
    if (!device || python) return b.view;
    dev.emplace_back(rt.to_device(b.view, target), &b.view);
    return dev.back().first;
  };
  std::vector<loom::Array> args;
  for (std::size_t i = 0; i < r.args.size(); ++i) args.push_back(in(r.args[i], c.args[i].python));
  std::optional<loom::Array> indices, out, where;
  if (r.indices) indices = in(*r.indices, false);
  if (r.out) out = in(*r.out, false);
  if (r.where) where = in(*r.where, false);
  const json& kw = c.kw;
  std::optional<loom::DType> dtype;
  if (kw.contains("dtype")) dtype = loom::dtype_from_name(kw.at("dtype").get<std::string>());
  try {
    if (c.method == "call" || c.method == "outer") {
      loom::CallOptions o{.target = target};
      if (out) o.out = {*out};
      if (where) o.where = *where;
      o.dtype = dtype;
      if (kw.contains("casting")) {
        o.casting = loom::casting_from_name(kw.at("casting").get<std::string>());
      }
      const loom::Ufunc f = rt.ufunc(c.op);
      if (c.method == "call") {  // logical_not is unary
        r.result = args.size() == 1 ? f(args[0], o) : f(args[0], args[1], o);
      } else {
        r.result = f.outer(args[0], args[1], o);
      }
    } else if (c.method == "reduce") {
      loom::ReduceOptions o{.target = target};
      o.axis = axes_of(kw);
      o.keepdims = kw.value("keepdims", false);
      o.initial = initial_of(kw);
      if (where) o.where = *where;
      if (out) o.out = *out;
      o.dtype = dtype;
      r.result =
          c.kind == "reduce" ? rt.reduce(c.op)(args[0], o) : rt.ufunc(c.op).reduce(args[0], o);
    } else if (c.method == "accumulate" || c.method == "reduceat") {
      loom::AccumulateOptions o{.target = target};
      o.axis = kw.value("axis", 0);
      if (out) o.out = *out;
      o.dtype = dtype;
      const loom::Ufunc f = rt.ufunc(c.op);
      r.result =
          c.method == "accumulate" ? f.accumulate(args[0], o) : f.reduceat(args[0], *indices, o);
    } else if (c.method == "at") {
      rt.ufunc(c.op).at(args[0], *indices, args[1], {.target = target});
    } else {
      throw std::runtime_error("unknown method " + c.method);
    }
    if (device) {
      // The result to the host; given out=, the host view of out= stands for it when loom
      // returned that very device array (so that the check of out= being returned holds).
      if (out && r.result.valid() && r.result.data() == out->data() &&
          r.result.strides() == out->strides()) {
        r.result = r.out->view;
      } else if (r.result.valid() && !r.result.device().is_host()) {
        r.result = rt.to_host(r.result);
      }
    }
  } catch (const loom::Error& e) {
    r.refused = true;
    r.message = e.what();
    r.error_class = class_of(e);
  } catch (const std::exception& e) {
    r.foreign = true;
    r.message = std::string(typeid(e).name()) + ": " + e.what();
  }
  // Device arrays back into their host views: inputs that must not change, out= and at's array.
  // A read-only view (a broadcast input) cannot take them back: its device copy must be unchanged.
  if (device) rt.synchronize(target);
  for (const auto& [d, host] : dev) {
    if (host->writeable()) {
      rt.copy_to(d, *host);
    } else if (bytes_of(rt.to_host(d).copy()) != bytes_of(host->copy())) {
      r.foreign = true;
      r.message = "the device copy of a read-only input changed";
    }
  }
  return r;
}

}  // namespace numpy_diff
