// Functors that take loom::ElementIndex first (ufuncs that draw) the checks must accept: a
// non-template operator(), by const&, non-template overloads, a template, several outputs; and
// the loops must be the indexed ones.
#include <cstdint>

#include "loom/def/ufunc.hpp"

namespace {
struct Plain {
  float operator()(loom::ElementIndex e, float x) const { return x + static_cast<float>(e.i); }
};
struct ByConstRef {
  double operator()(const loom::ElementIndex& e, double x, double y) const {
    return x * y + static_cast<double>(e.i);
  }
};
struct Overloads {
  float operator()(loom::ElementIndex, float x) const { return x; }
  double operator()(loom::ElementIndex, double x) const { return x; }
};
struct Template {
  template <class T>
  std::int64_t operator()(loom::ElementIndex e, T) const {
    return e.i;
  }
};
struct Outs {
  void operator()(loom::ElementIndex e, float x, float& y, std::int64_t& i) const {
    y = x;
    i = e.i;
  }
};

static_assert(loom::def::detail::takes_index<Plain, float(float)>);
static_assert(loom::def::detail::takes_index<Overloads, double(double)>);
static_assert(loom::def::detail::takes_index<Template, std::int64_t(float)>);
static_assert(loom::def::detail::takes_index<Outs, loom::def::outs<float, std::int64_t>(float)>);
struct NoIndex {
  float operator()(float x) const { return x; }
};
static_assert(!loom::def::detail::takes_index<NoIndex, float(float)>);
}  // namespace

void register_ops(loom::Registrar& reg) {
  loom::def::ufunc<Plain, float(float)>(reg, "plain", "");
  loom::def::ufunc<ByConstRef, double(double, double)>(reg, "by_const_ref", "");
  loom::def::ufunc<Overloads, float(float), double(double)>(reg, "overloads", "");
  loom::def::ufunc<Template, std::int64_t(float), std::int64_t(double)>(reg, "template", "");
  loom::def::ufunc<Outs, loom::def::outs<float, std::int64_t>(float)>(reg, "outs", "");
}
